package contragents

import (
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// isForeignKeyViolation reports whether err is a refused delete of a row
// that other rows still refer to.
func isForeignKeyViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23503"
	}
	var sqliteErr *sqlite.Error
	if errors.As(err, &sqliteErr) {
		switch sqliteErr.Code() {
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return true
		case sqlite3.SQLITE_CONSTRAINT_TRIGGER:
			// SQLite reports an ON DELETE RESTRICT refusal with this code.
			return strings.Contains(sqliteErr.Error(), "FOREIGN KEY")
		}
	}
	return false
}
