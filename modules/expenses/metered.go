package expenses

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/journal"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// MeterCharge is a charge billed from two meter readings (modules/counters):
// the consumption between PreviousReadingID and ReadingID of CounterID.
// The caller computes Amount (more than 0) and the other fields.
type MeterCharge struct {
	ID                uuid.UUID
	PropertyID        uuid.UUID
	CounterID         uuid.UUID
	ReadingID         uuid.UUID
	PreviousReadingID uuid.UUID
	// ContractID is who pays, when the counter names a contract.
	ContractID *uuid.UUID
	Name       string
	Amount     money.Amount
	Currency   string
	Period     string
	DueDate    period.Date
}

// meterChargeRow is a charge row with its meter links.
type meterChargeRow struct {
	bun.BaseModel `bun:"table:charges"`

	ID                uuid.UUID    `bun:"id,pk"`
	PropertyID        uuid.UUID    `bun:"property_id,notnull"`
	Origin            uuid.UUID    `bun:"origin,notnull"`
	Name              string       `bun:"name,notnull"`
	Amount            money.Amount `bun:"amount_minor,notnull"`
	Currency          string       `bun:"currency,notnull"`
	Period            string       `bun:"period,notnull"`
	DueDate           period.Date  `bun:"due_date,notnull"`
	Status            string       `bun:"status,notnull"`
	CounterID         uuid.UUID    `bun:"counter_id"`
	ReadingID         uuid.UUID    `bun:"reading_id"`
	PreviousReadingID uuid.UUID    `bun:"previous_reading_id"`
	ContractID        *uuid.UUID   `bun:"contract_id"`
	CreatedAt         time.Time    `bun:"created_at,notnull"`
}

// meterChargeBatch is how many rows one INSERT carries (15 parameters a
// row stay far below both engines' limits).
const meterChargeBatch = 500

// CreateMeterChargesInTx inserts unpaid charges billed from meter readings
// through db, a transaction the caller holds (the one that stores the
// readings). The origin of such a charge is its reading, so the unique
// keys on (origin, period) and on reading_id bill one consumption once.
func (s *Service) CreateMeterChargesInTx(ctx context.Context, db bun.IDB, list []MeterCharge) error {
	if len(list) == 0 {
		return nil
	}
	now := s.now()
	rows := make([]meterChargeRow, len(list))
	for i, c := range list {
		if c.Amount <= 0 || c.Amount > money.Max {
			return fmt.Errorf("meter charge %s: amount %s out of range", c.ID, c.Amount)
		}
		rows[i] = meterChargeRow{
			ID: c.ID, PropertyID: c.PropertyID, Origin: c.ReadingID, Name: c.Name, Amount: c.Amount,
			Currency: c.Currency, Period: c.Period, DueDate: c.DueDate, Status: Unpaid,
			CounterID: c.CounterID, ReadingID: c.ReadingID, PreviousReadingID: c.PreviousReadingID, ContractID: c.ContractID, CreatedAt: now,
		}
	}
	for start := 0; start < len(rows); start += meterChargeBatch {
		batch := rows[start:min(start+meterChargeBatch, len(rows))]
		if err := s.store.insertMeterCharges(ctx, db, batch); err != nil {
			return err
		}
	}
	// A reading bills the charges of one property: credit goes to them.
	created := make([]Charge, len(rows))
	for i, r := range rows {
		created[i] = Charge{ID: r.ID, PropertyID: r.PropertyID, Origin: r.Origin, Name: r.Name, Amount: r.Amount,
			Currency: r.Currency, Period: r.Period, DueDate: r.DueDate, Status: Unpaid, ContractID: r.ContractID,
			Kind: Regular, CreatedAt: r.CreatedAt}
	}
	return s.chargesCreated(ctx, db, rows[0].PropertyID, created)
}

// ErrHasPayments refuses to cancel a charge money was allocated to.
var ErrHasPayments = errors.New("the charge has payments")

// hasPayments reports whether money was allocated to a charge: its paid
// amount, or, for a charge entered as paid before payments existed, its
// status.
func hasPayments(status string, paid money.Amount) bool {
	return paid > 0 || status == Paid
}

// CancelChargeInTx marks the charge with id cancelled through db (a
// transaction the caller holds), keeping who (a user id) and when. It
// returns ErrHasPayments when money was allocated to it, ErrNotFound when
// no charge has the id; a charge already cancelled is left as it is.
func (s *Service) CancelChargeInTx(ctx context.Context, db bun.IDB, id uuid.UUID, by int64) error {
	// Payments change paid amounts under the property's lock; taking it
	// here too means no payment is half-way through this charge.
	propertyID, err := s.store.chargeProperty(ctx, db, id)
	if err != nil {
		return err
	}
	if tx, ok := db.(bun.Tx); ok {
		if _, err := properties.Lock(ctx, tx, propertyID); err != nil {
			return err
		}
	}
	status, paid, err := s.store.chargeStatusForUpdate(ctx, db, id)
	if err != nil {
		return err
	}
	switch {
	case status == Cancelled:
		return nil
	case hasPayments(status, paid):
		return ErrHasPayments
	}
	if err := s.store.cancelCharge(ctx, db, id, s.now(), by); err != nil {
		return err
	}
	return s.journal.Reverse(ctx, db, journal.Reversal{PropertyID: propertyID, Date: period.DateOf(s.now()),
		Kind: journal.KindReversal, SourceTable: "charges", SourceID: id, Memo: "charge cancelled"})
}

// CounterHasCharges reports, through db, whether any charge (of any
// status) was billed from the counter's readings.
func (s *Service) CounterHasCharges(ctx context.Context, db bun.IDB, counterID uuid.UUID) (bool, error) {
	return s.store.counterHasCharges(ctx, db, counterID)
}
