package counters

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/period"
)

// Store reads and writes counters and readings.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// ErrNotFound means no record matched.
var ErrNotFound = errors.New("not found")

// Counter returns the counter id of the property through db.
func (s *Store) Counter(ctx context.Context, db bun.IDB, propertyID, id uuid.UUID) (*Counter, error) {
	c := new(Counter)
	err := database.Select(ctx, db, db.NewSelect().Model(c).Where("id = ?", id).Where("property_id = ?", propertyID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("counter by id: %w", err)
	}
	return c, nil
}

// LockCounter reads the counter inside tx, locking its row on PostgreSQL
// so that writers of its readings queue (SQLite's IMMEDIATE transactions
// already serialize every writer).
func (s *Store) LockCounter(ctx context.Context, tx bun.Tx, propertyID, id uuid.UUID) (*Counter, error) {
	c := new(Counter)
	q := tx.NewSelect().Model(c).Where("id = ?", id).Where("property_id = ?", propertyID)
	if database.IsPostgres(tx) {
		// The property first, exclusively (properties.Lock): a deletion of
		// the property (which locks it, then deletes the counters) and a
		// reading (which locks the counter, then inserts a charge referring
		// to the property) would otherwise wait for each other, and the
		// payments ledger, which the reading's charge goes to, takes the
		// same lock: a shared one here could not be raised to it without
		// a deadlock between two readings.
		if _, err := properties.Lock(ctx, tx, propertyID); err != nil && !errors.Is(err, properties.ErrNotFound) {
			return nil, err
		}
		q = q.For("UPDATE")
	}
	err := database.Select(ctx, tx, q)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("lock counter: %w", err)
	}
	return c, nil
}

// Counters returns a page of the property's counters in creation order,
// filtered by kind and contract_id.
func (s *Store) Counters(ctx context.Context, propertyID uuid.UUID, q listing.Query) ([]Counter, listing.Result, error) {
	var list []Counter
	sel := s.db.NewSelect().Model(&list).Where("property_id = ?", propertyID)
	if v := q.Get("kind"); v != "" {
		sel = sel.Where("kind = ?", v)
	}
	if v := q.Get("contract_id"); v != "" {
		id, err := uuid.Parse(v)
		if err != nil {
			return nil, listing.Result{}, fmt.Errorf("contract_id filter: %w", err)
		}
		sel = sel.Where("contract_id = ?", id)
	}
	total, err := listing.Scan(ctx, sel, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list counters: %w", err)
	}
	return list, total, nil
}

// InsertCounter adds c.
func (s *Store) InsertCounter(ctx context.Context, db bun.IDB, c *Counter) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(c)); err != nil {
		return fmt.Errorf("insert counter: %w", err)
	}
	return nil
}

// UpdateCounter writes every editable column of c.
func (s *Store) UpdateCounter(ctx context.Context, db bun.IDB, c *Counter) error {
	_, err := database.Exec(ctx, db, db.NewUpdate().Model(c).
		Column("contract_id", "kind", "unit", "serial", "name", "tariff_micro", "is_active", "updated_at").
		WherePK())
	if err != nil {
		return fmt.Errorf("update counter: %w", err)
	}
	return nil
}

// deleteCounter removes the counter (its readings go with it) inside tx.
func (s *Store) deleteCounter(ctx context.Context, tx bun.Tx, id uuid.UUID) error {
	if _, err := database.Exec(ctx, tx, tx.NewDelete().Model((*Counter)(nil)).Where("id = ?", id)); err != nil {
		return fmt.Errorf("delete counter: %w", err)
	}
	return nil
}

// Latest returns the counter's latest reading through db, or nil.
func (s *Store) Latest(ctx context.Context, db bun.IDB, counterID uuid.UUID) (*Reading, error) {
	r := new(Reading)
	err := database.Select(ctx, db, db.NewSelect().Model(r).Where("counter_id = ?", counterID).Order("read_on DESC").Limit(1))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("latest reading: %w", err)
	}
	return r, nil
}

// readingExists reports whether the counter has a reading with id.
func (s *Store) readingExists(ctx context.Context, db bun.IDB, counterID, id uuid.UUID) (bool, error) {
	ok, err := database.Exists(ctx, db, db.NewSelect().Model((*Reading)(nil)).Where("id = ?", id).Where("counter_id = ?", counterID))
	if err != nil {
		return false, fmt.Errorf("reading exists: %w", err)
	}
	return ok, nil
}

// readingBatch is how many readings one INSERT carries.
const readingBatch = 500

// InsertReadings adds list inside tx with multi-row inserts.
func (s *Store) InsertReadings(ctx context.Context, tx bun.IDB, list []Reading) error {
	for start := 0; start < len(list); start += readingBatch {
		batch := list[start:min(start+readingBatch, len(list))]
		if _, err := database.Exec(ctx, tx, tx.NewInsert().Model(&batch)); err != nil {
			return fmt.Errorf("insert readings: %w", err)
		}
	}
	return nil
}

// deleteReading removes the reading inside tx.
func (s *Store) deleteReading(ctx context.Context, tx bun.Tx, id uuid.UUID) error {
	if _, err := database.Exec(ctx, tx, tx.NewDelete().Model((*Reading)(nil)).Where("id = ?", id)); err != nil {
		return fmt.Errorf("delete reading: %w", err)
	}
	return nil
}

// Readings returns a page of the counter's readings, newest first,
// optionally only from..to (zero dates are open ends).
func (s *Store) Readings(ctx context.Context, counterID uuid.UUID, from, to period.Date, q listing.Query) ([]Reading, listing.Result, error) {
	var list []Reading
	sel := s.db.NewSelect().Model(&list).Where("counter_id = ?", counterID)
	if !from.IsZero() {
		sel = sel.Where("read_on >= ?", from)
	}
	if !to.IsZero() {
		sel = sel.Where("read_on <= ?", to)
	}
	// read_on is unique per counter; id makes the order end with the key
	// every list ends with.
	total, err := listing.Scan(ctx, sel, q, listing.Desc("read_on", "id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list readings: %w", err)
	}
	return list, total, nil
}

// consumptionRow is the part of a reading the consumption report needs.
type consumptionRow struct {
	ReadOn      period.Date `bun:"read_on"`
	Consumption *Quantity   `bun:"consumption_milli"`
}

// consumptions returns the readings of from..to in date order.
func (s *Store) consumptions(ctx context.Context, counterID uuid.UUID, from, to period.Date) ([]consumptionRow, error) {
	var rows []consumptionRow
	err := database.Query(ctx, s.db, s.db.NewSelect().Model((*Reading)(nil)).Column("read_on", "consumption_milli").
		Where("counter_id = ?", counterID).Where("read_on >= ?", from).Where("read_on <= ?", to).
		Order("read_on"), &rows)
	if err != nil {
		return nil, fmt.Errorf("consumptions: %w", err)
	}
	return rows, nil
}

// bounds returns the dates of the counter's first and last readings (zero
// when it has none).
func (s *Store) bounds(ctx context.Context, counterID uuid.UUID) (first, last period.Date, err error) {
	var row struct {
		First period.Date `bun:"first"`
		Last  period.Date `bun:"last"`
	}
	err = database.Query(ctx, s.db, s.db.NewSelect().Model((*Reading)(nil)).ColumnExpr("MIN(read_on) AS first, MAX(read_on) AS last").
		Where("counter_id = ?", counterID), &row)
	if err != nil {
		return first, last, fmt.Errorf("reading bounds: %w", err)
	}
	return row.First, row.Last, nil
}

// deleteCountersOf deletes the property's counters, their readings with
// them (ON DELETE CASCADE).
func deleteCountersOf(ctx context.Context, tx bun.Tx, propertyID uuid.UUID) error {
	if _, err := database.Exec(ctx, tx, tx.NewDelete().Model((*Counter)(nil)).Where("property_id = ?", propertyID)); err != nil {
		return fmt.Errorf("delete counters of property: %w", err)
	}
	return nil
}

// ReadingsIn returns the counters of the kinds on the properties, active
// or not (a meter replaced during a year is usually deactivated, yet its
// readings still count), with their readings dated from..to (both
// included), oldest first: the operating-cost statement (modules/opcosts)
// spreads metered costs by them.
func ReadingsIn(ctx context.Context, db bun.IDB, propertyIDs []uuid.UUID, kinds []string, from, to period.Date) ([]Counter, map[uuid.UUID][]Reading, error) {
	out := map[uuid.UUID][]Reading{}
	if len(propertyIDs) == 0 || len(kinds) == 0 {
		return nil, out, nil
	}
	var list []Counter
	if err := database.Select(ctx, db, db.NewSelect().Model(&list).Where("property_id ?", database.In(propertyIDs)).
		Where("kind ?", database.In(kinds)).Order("property_id", "id")); err != nil {
		return nil, nil, fmt.Errorf("counters of properties: %w", err)
	}
	if len(list) == 0 {
		return list, out, nil
	}
	ids := make([]uuid.UUID, len(list))
	for i := range list {
		ids[i] = list[i].ID
	}
	var rs []Reading
	if err := database.Select(ctx, db, db.NewSelect().Model(&rs).Where("counter_id ?", database.In(ids)).
		Where("read_on >= ?", from).Where("read_on <= ?", to).Order("counter_id", "read_on")); err != nil {
		return nil, nil, fmt.Errorf("readings of counters: %w", err)
	}
	for _, r := range rs {
		out[r.CounterID] = append(out[r.CounterID], r)
	}
	return list, out, nil
}
