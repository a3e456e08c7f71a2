package counters

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/period"
)

// DueAfterDays is how long after its reading a metered charge is due.
const DueAfterDays = 14

// Service holds the rules of counters and readings. Every method takes a
// property the caller got from properties.Service.Authorize.
type Service struct {
	db      *bun.DB
	store   *Store
	charges *expenses.Service
	clock   clock.Clock
}

// NewService returns the service.
func NewService(db *bun.DB, store *Store, charges *expenses.Service, clk clock.Clock) *Service {
	return &Service{db: db, store: store, charges: charges, clock: clk}
}

// checkContract refuses a contract_id that is not a contract of prop.
func (s *Service) checkContract(ctx context.Context, prop *properties.Property, in CounterInput) error {
	if !in.SetContract || in.ContractID == nil {
		return nil
	}
	ok, err := contracts.OfProperty(ctx, s.db, prop.ID, *in.ContractID)
	if err != nil {
		return err
	}
	if !ok {
		return fault.Validation("contract_id: must be the UUID of a contract of the property, or null")
	}
	return nil
}

func errNoCounter() error { return fault.NotFound("Counter not found.") }
func errNoReading() error { return fault.NotFound("Reading not found.") }

// parseID reads a record id from a path: a canonical 36-character UUID.
func parseID(raw string) (uuid.UUID, bool) {
	id, err := uuid.Parse(raw)
	return id, err == nil && len(raw) == 36
}

// Counter returns the counter with the raw id under prop: 404 when the id
// is not a UUID, unknown or under another property.
func (s *Service) Counter(ctx context.Context, prop *properties.Property, rawID string) (*Counter, error) {
	id, ok := parseID(rawID)
	if !ok {
		return nil, errNoCounter()
	}
	c, err := s.store.Counter(ctx, s.db, prop.ID, id)
	if errors.Is(err, ErrNotFound) {
		return nil, errNoCounter()
	}
	return c, err
}

// Counters returns a page of prop's counters.
func (s *Service) Counters(ctx context.Context, prop *properties.Property, q listing.Query) ([]Counter, listing.Result, error) {
	return s.store.Counters(ctx, prop.ID, q)
}

// CreateCounter adds a counter to prop. kind is required; unit defaults to
// the kind's first unit, name to the kind's label, is_active to true.
func (s *Service) CreateCounter(ctx context.Context, prop *properties.Property, in CounterInput) (*Counter, error) {
	if in.Kind == nil {
		return nil, fault.Validation("kind: is required")
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("counter id: %w", err)
	}
	now := s.now()
	c := &Counter{ID: id, PropertyID: prop.ID, IsActive: true, CreatedAt: now, UpdatedAt: now}
	if in.Unit == nil {
		if units, ok := kindUnits[*in.Kind]; ok {
			c.Unit = units[0]
		}
	}
	if in.Name == nil {
		c.Name = kindLabels[*in.Kind]
	}
	if err := apply(c, in); err != nil {
		return nil, err
	}
	if err := s.checkContract(ctx, prop, in); err != nil {
		return nil, err
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.InsertCounter(ctx, tx, c); err != nil {
			return err
		}
		return record(ctx, tx, activity.Created, prop, "counter", c.ID, nil, counterOut(c))
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// UpdateCounter changes the given fields of the counter with the raw id. A
// new tariff or contract applies to readings added from then on; charges
// already billed keep theirs.
func (s *Service) UpdateCounter(ctx context.Context, prop *properties.Property, rawID string, in CounterInput) (*Counter, error) {
	c, err := s.Counter(ctx, prop, rawID)
	if err != nil {
		return nil, err
	}
	before := *c
	if err := apply(c, in); err != nil {
		return nil, err
	}
	if err := s.checkContract(ctx, prop, in); err != nil {
		return nil, err
	}
	if sameCounter(&before, c) {
		return c, nil
	}
	c.UpdatedAt = s.now()
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.UpdateCounter(ctx, tx, c); err != nil {
			return err
		}
		return record(ctx, tx, activity.Updated, prop, "counter", c.ID, counterOut(&before), counterOut(c))
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// record logs a write of a counter or a reading of prop, in tx.
func record(ctx context.Context, tx bun.Tx, action string, prop *properties.Property, kind string, id uuid.UUID, before, after any) error {
	return activity.Record(ctx, tx, activity.Entry{
		Action: action, RecordType: kind, RecordID: id.String(), WorkspaceID: prop.WorkspaceID,
		Changes: activity.Diff(before, after),
	})
}

func sameCounter(a, b *Counter) bool {
	eqTariff := (a.Tariff == nil) == (b.Tariff == nil) && (a.Tariff == nil || *a.Tariff == *b.Tariff)
	eqContract := (a.ContractID == nil) == (b.ContractID == nil) && (a.ContractID == nil || *a.ContractID == *b.ContractID)
	return eqTariff && eqContract && a.Kind == b.Kind && a.Unit == b.Unit && a.Serial == b.Serial &&
		a.Name == b.Name && a.IsActive == b.IsActive
}

// apply copies in onto c and checks that the unit fits the kind.
func apply(c *Counter, in CounterInput) error {
	if in.Kind != nil {
		c.Kind = *in.Kind
	}
	if in.Unit != nil {
		c.Unit = *in.Unit
	}
	if in.Serial != nil {
		c.Serial = *in.Serial
	}
	if in.Name != nil {
		c.Name = *in.Name
	}
	if in.SetTariff {
		c.Tariff = in.Tariff
	}
	if in.SetContract {
		c.ContractID = in.ContractID
	}
	if in.IsActive != nil {
		c.IsActive = *in.IsActive
	}
	if units, ok := kindUnits[c.Kind]; ok && !slices.Contains(units, c.Unit) {
		return fault.Validation(fmt.Sprintf("unit: a %s counter is measured in %s", c.Kind, joinOr(units)))
	}
	return nil
}

func joinOr(list []string) string {
	switch len(list) {
	case 1:
		return list[0]
	default:
		out := ""
		for i, v := range list {
			switch {
			case i == 0:
			case i == len(list)-1:
				out += " or "
			default:
				out += ", "
			}
			out += v
		}
		return out
	}
}

var errCounterHasCharges = fault.Conflict("has_charges",
	"Charges were billed from this counter's readings; money records are never deleted silently. Set is_active to false instead.")

// DeleteCounter removes the counter with the raw id and its readings,
// unless a charge was billed from them (409 has_charges).
func (s *Service) DeleteCounter(ctx context.Context, prop *properties.Property, rawID string) error {
	c, err := s.Counter(ctx, prop, rawID)
	if err != nil {
		return err
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if _, err := s.store.LockCounter(ctx, tx, prop.ID, c.ID); err != nil {
			return err
		}
		has, err := s.charges.CounterHasCharges(ctx, tx, c.ID)
		if err != nil {
			return err
		}
		if has {
			return errCounterHasCharges
		}
		if err := s.store.deleteCounter(ctx, tx, c.ID); err != nil {
			return err
		}
		return record(ctx, tx, activity.Deleted, prop, "counter", c.ID, counterOut(c), nil)
	})
	if errors.Is(err, ErrNotFound) {
		return errNoCounter()
	}
	return err
}

// Readings returns a page of the counter's readings, newest first, of
// from..to when given.
func (s *Service) Readings(ctx context.Context, prop *properties.Property, rawID string, from, to period.Date, q listing.Query) ([]Reading, listing.Result, error) {
	c, err := s.Counter(ctx, prop, rawID)
	if err != nil {
		return nil, listing.Result{}, err
	}
	return s.store.Readings(ctx, c.ID, from, to, q)
}

// problem is a reading that cannot be appended: outOfOrder ones are a
// 409 on their own, the others a 400.
type problem struct {
	index      int
	outOfOrder bool
	msg        string
}

// plan checks inputs (in the order given) against the counter's latest
// reading and each other, and returns the readings and the charges to
// store, or every problem.
func (s *Service) plan(prop *properties.Property, c *Counter, latest *Reading, by int64, inputs []ReadingInput) ([]Reading, []expenses.MeterCharge, []problem, error) {
	today := period.DateOf(s.clock.Now())
	now := s.now()
	var problems []problem
	readings := make([]Reading, 0, len(inputs))
	var charges []expenses.MeterCharge
	prev := latest
	for i, in := range inputs {
		bad := func(outOfOrder bool, format string, args ...any) {
			problems = append(problems, problem{index: i, outOfOrder: outOfOrder, msg: fmt.Sprintf(format, args...)})
		}
		if in.ReadOn.After(today) {
			bad(false, "read_on: must not be in the future (today is %s)", today)
			continue
		}
		if prev != nil && !in.ReadOn.After(prev.ReadOn) {
			bad(true, "read_on: must be after the latest reading's date, %s: readings are added in date order", prev.ReadOn)
			continue
		}
		if prev != nil && in.Value < prev.Value {
			bad(false, "value: must not be below the previous reading, %s on %s", prev.Value, prev.ReadOn)
			continue
		}
		id, err := uuid.NewV7()
		if err != nil {
			return nil, nil, nil, fmt.Errorf("reading id: %w", err)
		}
		r := Reading{ID: id, CounterID: c.ID, ReadOn: in.ReadOn, Value: in.Value, CreatedBy: by, EnteredBy: ByLandlord, CreatedAt: now}
		if in.EnteredBy == ByTenant {
			r.EnteredBy = ByTenant
		}
		if prev != nil {
			used := in.Value - prev.Value
			r.Consumption = &used
			if c.Tariff != nil {
				amount, err := Bill(used, *c.Tariff)
				if err != nil {
					bad(false, "value: %v (%s %s x %s)", err, used, c.Unit, *c.Tariff)
					continue
				}
				if amount > 0 {
					chargeID, err := uuid.NewV7()
					if err != nil {
						return nil, nil, nil, fmt.Errorf("charge id: %w", err)
					}
					r.ChargeID = &chargeID
					period := period.MonthLabel(in.ReadOn)
					charges = append(charges, expenses.MeterCharge{
						ID: chargeID, PropertyID: prop.ID, CounterID: c.ID, ReadingID: r.ID, PreviousReadingID: prev.ID,
						ContractID: c.ContractID, Name: chargeName(c, period, used), Amount: amount,
						Currency: prop.Currency, Period: period, DueDate: in.ReadOn.AddDays(DueAfterDays),
					})
				}
			}
		}
		readings = append(readings, r)
		prev = &readings[len(readings)-1]
	}
	return readings, charges, problems, nil
}

// chargeName is "Electricity 2026-11 (12.345 kWh x 0.301234)"; a counter
// of kind other is named by its own name. At most 200 characters.
func chargeName(c *Counter, period string, used Quantity) string {
	label := kindLabels[c.Kind]
	if c.Kind == KindOther {
		label = c.Name
	}
	suffix := fmt.Sprintf(" %s (%s %s x %s)", period, used, c.Unit, *c.Tariff)
	if room := NameMax - utf8.RuneCountInString(suffix); utf8.RuneCountInString(label) > room {
		label = string([]rune(label)[:room])
	}
	return label + suffix
}

var errInactive = fault.Conflict("inactive", "The counter is not active; activate it (is_active true) to add readings.")

// AddReading appends a reading to the counter with the raw id and, when it
// is not the first and the counter has a tariff, bills its consumption in
// the same transaction. The counter's row is locked meanwhile, so
// concurrent readings of one counter are checked one after the other.
func (s *Service) AddReading(ctx context.Context, p auth.Principal, prop *properties.Property, rawID string, in ReadingInput) (*Reading, error) {
	id, ok := parseID(rawID)
	if !ok {
		return nil, errNoCounter()
	}
	var out *Reading
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		var err error
		_, out, err = s.addReading(ctx, tx, p, prop, id, in)
		return err
	})
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, errNoCounter()
	case database.IsUniqueViolation(err):
		// The lock makes this unreachable; the unique key is the last guard.
		return nil, fault.Conflict("out_of_order", "A reading of this date was added meanwhile.")
	}
	return out, err
}

// DeleteReading removes the counter's latest reading and cancels the
// charge billed for it: 409 not_latest for an earlier reading, 409
// has_payments when money was allocated to the charge.
func (s *Service) DeleteReading(ctx context.Context, p auth.Principal, prop *properties.Property, rawCounter, rawReading string) error {
	counterID, ok := parseID(rawCounter)
	if !ok {
		return errNoCounter()
	}
	readingID, ok := parseID(rawReading)
	if !ok {
		return errNoReading()
	}
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		c, err := s.store.LockCounter(ctx, tx, prop.ID, counterID)
		if err != nil {
			return err
		}
		latest, err := s.store.Latest(ctx, tx, c.ID)
		if err != nil {
			return err
		}
		if latest == nil || latest.ID != readingID {
			exists, err := s.store.readingExists(ctx, tx, c.ID, readingID)
			if err != nil {
				return err
			}
			if !exists {
				return errNoReading()
			}
			return fault.Conflict("not_latest", fmt.Sprintf("Only the latest reading (%s) can be deleted.", latest.ReadOn))
		}
		if latest.ChargeID != nil {
			err := s.charges.CancelChargeInTx(ctx, tx, *latest.ChargeID, p.UserID)
			switch {
			case errors.Is(err, expenses.ErrHasPayments):
				return fault.Conflict("has_payments", "Money was allocated to the charge billed for this reading; reverse the payment first.")
			case errors.Is(err, expenses.ErrNotFound):
				// The charge is gone (never, as charges are not deleted):
				// nothing to cancel.
			case err != nil:
				return err
			}
		}
		if err := s.store.deleteReading(ctx, tx, latest.ID); err != nil {
			return err
		}
		return record(ctx, tx, activity.Deleted, prop, "reading", latest.ID, readingOut(latest), nil)
	})
	if errors.Is(err, ErrNotFound) {
		return errNoCounter()
	}
	return err
}

// ImportResult counts what an import added.
type ImportResult struct {
	Created int `json:"created"`
	Charged int `json:"charged"`
}

// Import appends every line of a CSV file of readings, with their charges,
// in one transaction, or nothing when any line is wrong (every problem
// reported with its line number).
func (s *Service) Import(ctx context.Context, p auth.Principal, prop *properties.Property, rawID string, body []byte) (ImportResult, error) {
	id, ok := parseID(rawID)
	if !ok {
		return ImportResult{}, errNoCounter()
	}
	// The counter must exist before the file's problems are reported.
	if _, err := s.Counter(ctx, prop, rawID); err != nil {
		return ImportResult{}, err
	}
	inputs, lines, details := parseCSV(body)
	if len(details) > 0 {
		return ImportResult{}, fault.Validation(details...)
	}
	var res ImportResult
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		c, err := s.store.LockCounter(ctx, tx, prop.ID, id)
		if err != nil {
			return err
		}
		if !c.IsActive {
			return errInactive
		}
		latest, err := s.store.Latest(ctx, tx, c.ID)
		if err != nil {
			return err
		}
		readings, charges, problems, err := s.plan(prop, c, latest, p.UserID, inputs)
		if err != nil {
			return err
		}
		if len(problems) > 0 {
			details := make([]string, len(problems))
			for i, pr := range problems {
				details[i] = fmt.Sprintf("line %d: %s", lines[pr.index], pr.msg)
			}
			return fault.Validation(details...)
		}
		if err := s.charges.CreateMeterChargesInTx(ctx, tx, charges); err != nil {
			return err
		}
		if err := s.store.InsertReadings(ctx, tx, readings); err != nil {
			return err
		}
		res = ImportResult{Created: len(readings), Charged: len(charges)}
		// Every imported reading is logged as its own record.
		entries := make([]activity.Entry, len(readings))
		for i := range readings {
			entries[i] = activity.Entry{
				Action: activity.Imported, RecordType: "reading", RecordID: readings[i].ID.String(), WorkspaceID: prop.WorkspaceID,
				Changes: activity.Diff(nil, readingOut(&readings[i])),
			}
		}
		return activity.RecordAll(ctx, tx, entries)
	})
	if errors.Is(err, ErrNotFound) {
		return ImportResult{}, errNoCounter()
	}
	return res, err
}

// now is the clock's time at the precision both databases keep.
func (s *Service) now() time.Time {
	return s.clock.Now().UTC().Truncate(time.Microsecond)
}

// addReading is AddReading's work inside tx.
func (s *Service) addReading(ctx context.Context, tx bun.Tx, p auth.Principal, prop *properties.Property, id uuid.UUID, in ReadingInput) (*Counter, *Reading, error) {
	c, err := s.store.LockCounter(ctx, tx, prop.ID, id)
	if err != nil {
		return nil, nil, err
	}
	if !c.IsActive {
		return nil, nil, errInactive
	}
	latest, err := s.store.Latest(ctx, tx, c.ID)
	if err != nil {
		return nil, nil, err
	}
	readings, charges, problems, err := s.plan(prop, c, latest, p.UserID, []ReadingInput{in})
	if err != nil {
		return nil, nil, err
	}
	if len(problems) > 0 {
		if problems[0].outOfOrder {
			return nil, nil, fault.Conflict("out_of_order", problems[0].msg)
		}
		return nil, nil, fault.Validation(problems[0].msg)
	}
	if err := s.charges.CreateMeterChargesInTx(ctx, tx, charges); err != nil {
		return nil, nil, err
	}
	if err := s.store.InsertReadings(ctx, tx, readings); err != nil {
		return nil, nil, err
	}
	out := &readings[0]
	return c, out, record(ctx, tx, activity.Created, prop, "reading", out.ID, nil, readingOut(out))
}

// AddReadingTx is AddReading inside tx, the caller's transaction, for a
// module that records readings with a record of its own (an inspection):
// the same rules, the same charge, the same errors (404 for a counter not
// of prop, 409 inactive or out_of_order, 400 for a value below the last).
// The counter's lock takes the property's first, as every money writer.
// It returns the counter as well as the reading.
func (s *Service) AddReadingTx(ctx context.Context, tx bun.Tx, p auth.Principal, prop *properties.Property, counterID uuid.UUID, in ReadingInput) (*Counter, *Reading, error) {
	c, out, err := s.addReading(ctx, tx, p, prop, counterID, in)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, nil, errNoCounter()
	case database.IsUniqueViolation(err):
		return nil, nil, fault.Conflict("out_of_order", "A reading of this date was added meanwhile.")
	}
	return c, out, err
}

// ParseReading checks a reading's value sent to another module (an
// inspection's meter reading) by the rules of POST .../readings: the
// problems are named value.
func ParseReading(readOn period.Date, value json.RawMessage) (ReadingInput, []string) {
	r := readingRequest{ReadOn: json.RawMessage(`"` + readOn.String() + `"`), Value: value}
	return r.input()
}
