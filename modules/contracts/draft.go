package contracts

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/agreements"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/fault"
)

// CheckTerms validates terms as POST /contracts does for a property in
// country, reading the agreement blocks through db (the caller's
// transaction or the pool): the normalised terms, or one message per
// problem. Other modules that carry a contract's terms before there is a
// contract (a letting proposal, a negotiation round) check them with it.
func (s *Service) CheckTerms(ctx context.Context, db bun.IDB, in []Term, country string) ([]Term, []string, error) {
	terms, _, details, err := s.checkTermsIn(ctx, db, in, country)
	return terms, details, err
}

// checkTermsIn is checkTerms with the blocks read through db.
func (s *Service) checkTermsIn(ctx context.Context, db bun.IDB, in []Term, country string) ([]Term, derived, []string, error) {
	req := make([]termRequest, len(in))
	codes := make([]string, 0, len(in))
	for i := range in {
		code := in[i].Code
		req[i] = termRequest{Code: &code, Value: in[i].Value}
		if len(code) <= maxCodeLen {
			codes = append(codes, strings.ToUpper(strings.TrimSpace(code)))
		}
	}
	if len(in) > MaxTerms {
		codes = nil
	}
	found, err := s.blocks.ByCodes(ctx, db, codes)
	if err != nil {
		return nil, derived{}, nil, err
	}
	blocks := make(map[string]agreements.Block, len(found))
	for _, b := range found {
		blocks[strings.ToUpper(b.Code)] = b
	}
	terms, d, details := checkTerms(req, blocks, country)
	return terms, d, details, nil
}

// DraftInput is a draft contract another module makes in its own
// transaction.
type DraftInput struct {
	Property *properties.Property
	// TenantID is a contragent of the property's workspace with the role
	// tenant; the caller made or checked it.
	TenantID uuid.UUID
	Number   string
	Locale   string
	Terms    []Term
}

// CreateDraftTx adds, in tx, a draft contract for in.Property with the
// rules of POST /contracts for its terms and number (409 number_exists);
// everything it reads goes through tx.
func (s *Service) CreateDraftTx(ctx context.Context, tx bun.Tx, in DraftInput) (*Contract, error) {
	if in.Property.Archived() {
		return nil, properties.ErrArchived()
	}
	terms, d, details, err := s.checkTermsIn(ctx, tx, in.Terms, in.Property.CountryCode)
	if err != nil {
		return nil, err
	}
	number := strings.TrimSpace(in.Number)
	if n := len([]rune(number)); n < 1 || n > MaxNumberLen {
		details = append(details, fmt.Sprintf("number: must be 1 to %d characters", MaxNumberLen))
	}
	locale := "en"
	if l, ok := s.dir.Language(in.Locale); ok {
		locale = l.Code
	}
	if len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("contract id: %w", err)
	}
	now := s.now()
	c := &Contract{ID: id, Status: Draft, Locale: locale, Number: number, DueDay: 1,
		PropertyID: in.Property.ID, WorkspaceID: in.Property.WorkspaceID, OwnerID: in.Property.OwnerID,
		Currency: in.Property.Currency, TenantID: in.TenantID,
		AllocationOrder: OldestFirst, LateFeeBase: BasePeriodic, CreatedAt: now, UpdatedAt: now}
	c.setTerms(terms, d)
	if err := s.store.Insert(ctx, tx, c); err != nil {
		return nil, numberTaken(err)
	}
	if err := activity.Record(ctx, tx, activity.Entry{
		Action: activity.Created, RecordType: "contract", RecordID: c.ID.String(), WorkspaceID: c.WorkspaceID,
		Changes: activity.Diff(nil, s.view(c)),
	}); err != nil {
		return nil, err
	}
	return c, nil
}
