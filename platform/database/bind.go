package database

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"reflect"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/schema"
)

// Bun formats every argument into the SQL text it sends (bun.DB.QueryContext
// and baseQuery.scan call the driver with the query alone), so on
// PostgreSQL each id makes a new statement text: pgx prepares and caches
// every text it has not seen (QueryExecModeCacheStatement, 512 per
// connection), and a sweep over thousands of properties pays a Parse round
// trip and a plan per call and churns that cache. Render and Scan below
// keep Bun's query builder but send the values as real bind parameters:
// Render writes the query with a QueryGen whose dialect answers each value
// with a placeholder and collects the value, and Scan hands text and values
// to database/sql through a bun.IConn, so Bun's hooks and model scanning
// still run. SQLite keeps Bun's formatting: database/sql with modernc
// prepares every statement anyway, so the text gains nothing there.

// Render writes q for db. On PostgreSQL every value is a placeholder ($1,
// $2, ...) and args holds the values in order; elsewhere (and for a db of
// a type Scan cannot send arguments through) args is empty and the values
// are in the text as Bun formats them.
func Render(db bun.IDB, q schema.QueryAppender) (string, []any, error) {
	if !IsPostgres(db) || rawConn(db) == nil {
		b, err := q.AppendQuery(schema.NewQueryGen(db.Dialect()), nil)
		return string(b), nil, err
	}
	var args []any
	b, err := q.AppendQuery(schema.NewQueryGen(binder{Dialect: db.Dialect(), args: &args}), nil)
	return string(b), args, err
}

// binder is a dialect that turns each value into a placeholder.
type binder struct {
	schema.Dialect
	args *[]any
}

func (d binder) bind(b []byte, v any) []byte {
	*d.args = append(*d.args, v)
	b = append(b, '$')
	return strconv.AppendInt(b, int64(len(*d.args)), 10)
}

func (d binder) AppendUint32(b []byte, n uint32) []byte  { return d.bind(b, int64(n)) }
func (d binder) AppendUint64(b []byte, n uint64) []byte  { return d.bind(b, n) }
func (d binder) AppendTime(b []byte, t time.Time) []byte { return d.bind(b, t.UTC()) }
func (d binder) AppendString(b []byte, s string) []byte  { return d.bind(b, s) }
func (d binder) AppendBytes(b []byte, v []byte) []byte {
	if v == nil {
		return append(b, "NULL"...)
	}
	return d.bind(b, append([]byte(nil), v...))
}
func (d binder) AppendJSON(b, v []byte) []byte      { return d.bind(b, string(v)) }
func (d binder) AppendBool(b []byte, v bool) []byte { return d.bind(b, v) }

// Param is a value Bun would write as a number (an int64 owner id, say):
// Bun's QueryGen formats integers itself without asking the dialect, so a
// query that wants them bound passes Param(v) instead of v.
type Param struct{ V any }

// AppendQuery binds the value when the query is rendered by Render on
// PostgreSQL and formats it as Bun would otherwise.
func (p Param) AppendQuery(gen schema.QueryGen, b []byte) ([]byte, error) {
	if d, ok := gen.Dialect().(binder); ok {
		return d.bind(b, p.V), nil
	}
	return gen.Append(b, p.V), nil
}

type argsKey struct{}

// BoundArgs returns the bind parameters of the query a Bun query hook sees,
// nil when the query carries its values in its text.
func BoundArgs(ctx context.Context) []any {
	args, _ := ctx.Value(argsKey{}).([]any)
	return args
}

// Scan runs query (from Render) with args on db, inside db's transaction
// when db is one, and scans the rows into dest as bun's Scan does.
func Scan(ctx context.Context, db bun.IDB, query string, args []any, dest ...any) error {
	raw := rawConn(db)
	if len(args) == 0 || raw == nil {
		return db.NewRaw(query).Scan(ctx, dest...)
	}
	if err := checkPool(ctx, db); err != nil {
		return err
	}
	ctx = context.WithValue(ctx, argsKey{}, args)
	return db.NewRaw(query).Conn(boundConn{conn: raw, args: args}).Scan(ctx, dest...)
}

// rawConn is the database/sql handle under db, nil when db is no type Bun
// defines (the query then falls back to Bun's formatting).
func rawConn(db bun.IDB) bun.IConn {
	switch d := db.(type) {
	case *bun.DB:
		return d.DB
	case bun.Tx:
		return d.Tx
	case *bun.Tx:
		return d.Tx
	case bun.Conn:
		return d.Conn
	case *bun.Conn:
		return d.Conn
	}
	return nil
}

// boundConn sends Bun's query text with the values Render collected.
type boundConn struct {
	conn bun.IConn
	args []any
}

func (c boundConn) QueryContext(ctx context.Context, query string, _ ...any) (*sql.Rows, error) {
	return c.conn.QueryContext(ctx, query, c.args...)
}

func (c boundConn) ExecContext(ctx context.Context, query string, _ ...any) (sql.Result, error) {
	return c.conn.ExecContext(ctx, query, c.args...)
}

func (c boundConn) QueryRowContext(ctx context.Context, query string, _ ...any) *sql.Row {
	return c.conn.QueryRowContext(ctx, query, c.args...)
}

// Select runs sel (a Bun select with a model) with its values bound as
// Render does and scans into its model; sql.ErrNoRows as Bun's Scan gives
// it for a single row.
func Select(ctx context.Context, db bun.IDB, sel *bun.SelectQuery) error {
	text, args, err := Render(db, sel)
	if err != nil {
		return err
	}
	return Scan(ctx, db, text, args, sel.GetModel().Value())
}

// Query runs q (any Bun query or raw statement, with RETURNING when it
// writes) with its values bound as Render does and scans its rows into
// dest; a *Model scans the returned columns into that struct.
func Query(ctx context.Context, db bun.IDB, q schema.QueryAppender, dest ...any) error {
	text, args, err := Render(db, q)
	if err != nil {
		return err
	}
	return Scan(ctx, db, text, args, dest...)
}

// Exec runs q (an insert, update, delete or raw statement) with its values
// bound as Render does. Bun's model hooks do not run (no model here has
// any); a RETURNING clause belongs to Query, which scans it.
func Exec(ctx context.Context, db bun.IDB, q schema.QueryAppender) (sql.Result, error) {
	text, args, err := Render(db, q)
	if err != nil {
		return nil, err
	}
	raw := rawConn(db)
	if len(args) == 0 || raw == nil {
		return db.NewRaw(text).Exec(ctx)
	}
	ctx = context.WithValue(ctx, argsKey{}, args)
	return db.NewRaw(text).Conn(boundConn{conn: raw, args: args}).Exec(ctx)
}

// Count is sel's Count with the values bound: how many rows sel returns.
func Count(ctx context.Context, db bun.IDB, sel *bun.SelectQuery) (int, error) {
	text, args, err := Render(db, sel)
	if err != nil {
		return 0, err
	}
	var n int
	err = Scan(ctx, db, "SELECT count(*) FROM ("+text+") AS counted", args, &n)
	return n, err
}

// Exists is sel's Exists with the values bound.
func Exists(ctx context.Context, db bun.IDB, sel *bun.SelectQuery) (bool, error) {
	text, args, err := Render(db, sel)
	if err != nil {
		return false, err
	}
	var ok bool
	err = Scan(ctx, db, "SELECT EXISTS ("+text+")", args, &ok)
	return ok, err
}

// In is the right-hand side of a membership test, written after the column:
// Where("id ?", database.In(ids)). Rendered by Render on PostgreSQL it is
// "= ANY($n)" with the whole slice as one array parameter, so the statement
// text is the same for every length of the list (an expansion to $1, $2,
// ... would make one text per length); elsewhere it is "IN (...)" with the
// values formatted, as bun.List writes them. An empty slice matches no row.
func In(slice any) schema.QueryAppender { return inList{slice: slice} }

type inList struct{ slice any }

func (l inList) AppendQuery(gen schema.QueryGen, b []byte) ([]byte, error) {
	if d, ok := gen.Dialect().(binder); ok {
		b = append(b, "= ANY("...)
		return append(d.bind(b, pgArray(l.slice)), ')'), nil
	}
	v := reflect.ValueOf(l.slice)
	if v.Kind() != reflect.Slice {
		return nil, fmt.Errorf("database.In(non-slice %T)", l.slice)
	}
	b = append(b, "IN ("...)
	b, err := bun.List(l.slice).AppendQuery(gen, b)
	return append(b, ')'), err
}

// Array is slice as one PostgreSQL array value (for unnest(?::text[]),
// say): a bind parameter when Render binds, pgdialect's literal otherwise.
// PostgreSQL only.
func Array(slice any) schema.QueryAppender { return arrayArg{slice: slice} }

type arrayArg struct{ slice any }

func (a arrayArg) AppendQuery(gen schema.QueryGen, b []byte) ([]byte, error) {
	if d, ok := gen.Dialect().(binder); ok {
		return d.bind(b, pgArray(a.slice)), nil
	}
	return pgdialect.Array(a.slice).AppendQuery(gen, b)
}

// pgArray gives pgx a slice it encodes as an array: it knows strings,
// integers and uuid.UUID ([16]byte); other elements go as the string their
// driver.Valuer (or fmt) gives, which PostgreSQL casts to the column's type.
func pgArray(slice any) any {
	switch s := slice.(type) {
	case []string, []int64, []int32, []int, []uuid.UUID:
		return s
	}
	v := reflect.ValueOf(slice)
	out := make([]string, v.Len())
	for i := range out {
		e := v.Index(i).Interface()
		if valuer, ok := e.(driver.Valuer); ok {
			if dv, err := valuer.Value(); err == nil {
				if str, ok := dv.(string); ok {
					out[i] = str
					continue
				}
			}
		}
		out[i] = fmt.Sprint(e)
	}
	return out
}
