package analytics

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
)

// Store writes events and reads the summary.
type Store struct {
	db       *bun.DB
	postgres bool
	pgWrite  string
}

// NewStore returns the store.
func NewStore(db *bun.DB, cfg Config) *Store {
	return &Store{db: db, postgres: database.IsPostgres(db), pgWrite: cfg.PGWrite}
}

var columns = []string{"name", "occurred_at", "day", "received_at", "user_id", "workspace_id", "anonymous_id", "properties"}

// Write inserts events, all or none.
func (s *Store) Write(ctx context.Context, events []Event) error {
	if s.postgres {
		return s.writePostgres(ctx, events)
	}
	return s.writeSQLite(ctx, events)
}

// sqliteRows is how many rows one INSERT carries on SQLite: 8 values a
// row stays far below its limit of 32,766 bound values.
const sqliteRows = 500

// writeSQLite inserts the batch with multi-row INSERTs in one transaction:
// one commit (one WAL sync) per batch instead of per event.
func (s *Store) writeSQLite(ctx context.Context, events []Event) error {
	return database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		for start := 0; start < len(events); start += sqliteRows {
			chunk := events[start:min(start+sqliteRows, len(events))]
			var q strings.Builder
			q.WriteString("INSERT INTO analytics_events (" + strings.Join(columns, ", ") + ") VALUES ")
			args := make([]any, 0, len(chunk)*len(columns))
			for i := range chunk {
				e := &chunk[i]
				if i > 0 {
					q.WriteString(", ")
				}
				q.WriteString("(?, ?, ?, ?, ?, ?, ?, ?)")
				args = append(args, e.Name, e.OccurredAt, e.Day(), e.ReceivedAt,
					nullID(e.UserID), nullID(e.WorkspaceID), nullText(e.AnonymousID), string(e.Properties))
			}
			if _, err := database.Exec(ctx, tx, tx.NewRaw(q.String(), args...)); err != nil {
				return err
			}
		}
		return nil
	})
}

// writePostgres sends the batch on one connection of the pool, as pgx's
// COPY FROM STDIN (binary) or as one INSERT ... SELECT FROM unnest of one
// array per column (one statement text whatever the batch's size, so pgx
// prepares it once per connection). A single statement is atomic: no
// transaction is needed.
func (s *Store) writePostgres(ctx context.Context, events []Event) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(driverConn any) error {
		pc := driverConn.(*stdlib.Conn).Conn()
		if s.pgWrite == "insert" {
			return insertUnnest(ctx, pc, events)
		}
		_, err := pc.CopyFrom(ctx, pgx.Identifier{"analytics_events"}, columns, &copyRows{events: events, i: -1})
		return err
	})
}

// copyRows feeds COPY one event at a time without building the rows first.
type copyRows struct {
	events []Event
	i      int
	row    [8]any
}

func (r *copyRows) Next() bool { r.i++; return r.i < len(r.events) }
func (r *copyRows) Err() error { return nil }
func (r *copyRows) Values() ([]any, error) {
	e := &r.events[r.i]
	day := time.Date(e.OccurredAt.Year(), e.OccurredAt.Month(), e.OccurredAt.Day(), 0, 0, 0, 0, time.UTC)
	r.row = [8]any{e.Name, e.OccurredAt, day, e.ReceivedAt, nullID(e.UserID), nullID(e.WorkspaceID), nullText(e.AnonymousID), string(e.Properties)}
	return r.row[:], nil
}

const unnestInsert = `INSERT INTO analytics_events (name, occurred_at, day, received_at, user_id, workspace_id, anonymous_id, properties)
SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::date[], $4::timestamptz[], $5::bigint[], $6::bigint[], $7::text[], $8::jsonb[])`

func insertUnnest(ctx context.Context, pc *pgx.Conn, events []Event) error {
	n := len(events)
	names, anon, props, days := make([]string, n), make([]*string, n), make([]string, n), make([]string, n)
	occurred, received := make([]time.Time, n), make([]time.Time, n)
	users, workspaces := make([]*int64, n), make([]*int64, n)
	for i := range events {
		e := &events[i]
		names[i], occurred[i], days[i], received[i], props[i] = e.Name, e.OccurredAt, e.Day(), e.ReceivedAt, string(e.Properties)
		if e.UserID != 0 {
			users[i] = &e.UserID
		}
		if e.WorkspaceID != 0 {
			workspaces[i] = &e.WorkspaceID
		}
		if e.AnonymousID != "" {
			anon[i] = &e.AnonymousID
		}
	}
	_, err := pc.Exec(ctx, unnestInsert, names, occurred, days, received, users, workspaces, anon, props)
	return err
}

func nullID(id int64) sql.NullInt64 { return sql.NullInt64{Int64: id, Valid: id != 0} }

func nullText(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// Day is one day of the summary.
type Day struct {
	Day       string `bun:"day"`
	Events    int64  `bun:"events"`
	Users     int64  `bun:"users"`
	Anonymous int64  `bun:"anonymous"`
}

// Summary counts, per UTC day from..to (YYYY-MM-DD, inclusive) and over
// the whole window, the events (of name, when given), the distinct
// signed-in users and the distinct anonymous ids of anonymous events. Days
// without events are absent.
func (s *Store) Summary(ctx context.Context, from, to, name string) ([]Day, Day, error) {
	dayExpr, bound := "day", "?"
	if s.postgres {
		dayExpr, bound = "to_char(day, 'YYYY-MM-DD')", "?::date"
	}
	where := "day BETWEEN " + bound + " AND " + bound
	args := []any{from, to}
	if name != "" {
		where += " AND name = ?"
		args = append(args, name)
	}
	counts := `count(*) AS events, count(DISTINCT user_id) AS users,
		count(DISTINCT CASE WHEN user_id IS NULL THEN anonymous_id END) AS anonymous`
	var days []Day
	q := s.db.NewRaw(fmt.Sprintf("SELECT %s AS day, %s FROM analytics_events WHERE %s GROUP BY day ORDER BY day", dayExpr, counts, where), args...)
	if err := database.Query(ctx, s.db, q, &days); err != nil {
		return nil, Day{}, err
	}
	var total Day
	if len(days) > 0 {
		q = s.db.NewRaw(fmt.Sprintf("SELECT '' AS day, %s FROM analytics_events WHERE %s", counts, where), args...)
		if err := database.Query(ctx, s.db, q, &total); err != nil {
			return nil, Day{}, err
		}
	}
	return days, total, nil
}
