package database

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/uptrace/bun"
)

// ChangeCheck replaces a table's CHECK constraint (from, as the table was
// created with it) by to, on either engine, for a Go migration.
// PostgreSQL alters the named constraint in place. SQLite cannot alter a
// constraint: the table is rebuilt on one connection with foreign keys
// off, as its documentation's twelve steps do (a new table from the
// stored DDL with the check changed, the rows copied, the old table
// dropped, the new one renamed, its indexes made again, the foreign keys
// checked), all in one transaction.
func ChangeCheck(ctx context.Context, db *bun.DB, table, constraint, from, to string) error {
	if IsPostgres(db) {
		_, err := db.ExecContext(ctx, fmt.Sprintf("ALTER TABLE %s DROP CONSTRAINT %s, ADD CONSTRAINT %s CHECK (%s)", table, constraint, constraint, to))
		return err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
		return err
	}
	defer func() { _, _ = conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = ON") }()
	return conn.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var ddl string
		if err := tx.QueryRowContext(ctx, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", table).Scan(&ddl); err != nil {
			return fmt.Errorf("table %s: %w", table, err)
		}
		old := "CHECK (" + from + ")"
		if strings.Count(ddl, old) != 1 {
			return fmt.Errorf("table %s: %q is not once in its definition", table, old)
		}
		// SQLite keeps the statement as written, and a table renamed into
		// place (by an earlier rebuild) with its name quoted.
		open := strings.IndexByte(ddl, '(')
		if name := strings.TrimSpace(strings.TrimPrefix(ddl[:max(open, 0)], "CREATE TABLE")); open < 0 || strings.Trim(name, `"`) != table {
			return fmt.Errorf("table %s: its definition does not start with CREATE TABLE %s (", table, table)
		}
		tmp := table + "_rebuilt"
		ddl = "CREATE TABLE " + tmp + " " + strings.Replace(ddl[open:], old, "CHECK ("+to+")", 1)
		rows, err := tx.QueryContext(ctx, "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", table)
		if err != nil {
			return err
		}
		var indexes []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				rows.Close()
				return err
			}
			indexes = append(indexes, s)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		steps := append([]string{ddl,
			"INSERT INTO " + tmp + " SELECT * FROM " + table,
			"DROP TABLE " + table,
			"ALTER TABLE " + tmp + " RENAME TO " + table}, indexes...)
		for _, s := range steps {
			if _, err := tx.ExecContext(ctx, s); err != nil {
				return fmt.Errorf("rebuild %s: %s: %w", table, s, err)
			}
		}
		var violation string
		switch err := tx.QueryRowContext(ctx, "SELECT \"table\" FROM pragma_foreign_key_check").Scan(&violation); {
		case err == nil:
			return fmt.Errorf("rebuild %s: a foreign key of %s no longer holds", table, violation)
		case err != sql.ErrNoRows:
			return err
		}
		return nil
	})
}
