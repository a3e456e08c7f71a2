package reports

import (
	"context"

	"github.com/google/uuid"

	"github.com/propman/propman/platform/period"
)

// Service answers the portfolio reports. The reports are read-only
// aggregates, so it adds no rule to the store's reads; it is the one way
// in for handlers and other modules, and where a rule would go.
type Service struct {
	store *Store
}

// NewService returns the service.
func NewService(store *Store) *Service { return &Service{store: store} }

// Arrears streams the workspace's arrears as of a day, row by row.
func (s *Service) Arrears(ctx context.Context, workspaceID int64, asOf period.Date, fn func(*ArrearsRow) error) error {
	return s.store.Arrears(ctx, workspaceID, asOf, fn)
}

// RentRoll streams the workspace's rent roll as of a day, row by row.
func (s *Service) RentRoll(ctx context.Context, workspaceID int64, asOf period.Date, fn func(*RentRollRow) error) error {
	return s.store.RentRoll(ctx, workspaceID, asOf, fn)
}

// Income is the year's income by month and property.
func (s *Service) Income(ctx context.Context, workspaceID int64, year int, propertyID *uuid.UUID) ([]IncomeRow, error) {
	return s.store.Income(ctx, workspaceID, year, propertyID)
}

// IncomeBy is the year's income split by kind, on the cash or accrual basis.
func (s *Service) IncomeBy(ctx context.Context, workspaceID int64, year int, propertyID *uuid.UUID, cash bool) ([]IncomeSplit, error) {
	return s.store.IncomeBy(ctx, workspaceID, year, propertyID, cash)
}

// Charges streams every charge of the workspace, row by row.
func (s *Service) Charges(ctx context.Context, workspaceID int64, fn func(*ChargeRow) error) error {
	return s.store.Charges(ctx, workspaceID, fn)
}

// TopArrears is the workspace's limit largest arrears as of a day (the
// dashboard's glance at who owes most).
func (s *Service) TopArrears(ctx context.Context, workspaceID int64, asOf period.Date, limit int) ([]ArrearsRow, error) {
	return s.store.TopArrears(ctx, workspaceID, asOf, limit)
}
