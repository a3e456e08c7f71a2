// Package listing is the one way a module serves a list: it reads
// ?page=&per_page= and the list's own filters from the query string (every
// problem reported in one 400), runs one page of a Bun query with the total
// count, and writes the body {"<items>": [...], "total", "page", "per_page"}
// of API-DECISIONS "Everywhere".
package listing

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/apierror"
)

// Pagination bounds of every growing list.
const (
	DefaultPerPage = 50
	MaxPerPage     = 200
	maxPageNumber  = 1_000_000
	// DefaultMaxLen bounds a filter value that declares no length of its own.
	DefaultMaxLen = 200
)

// Filter is one query parameter a list accepts besides page and per_page.
type Filter struct {
	Name string
	// Rule completes "<name>: ..." in the 400 when OK refuses a value.
	Rule string
	// OK accepts or refuses a non-empty value; nil accepts any value of at
	// most MaxLen characters.
	OK func(string) bool
	// MaxLen bounds the value's length in bytes (DefaultMaxLen when 0).
	MaxLen int
}

// OneOf accepts exactly one of values.
func OneOf(name string, values ...string) Filter {
	allowed := append([]string(nil), values...)
	return Filter{
		Name: name, Rule: "must be one of " + strings.Join(allowed, ", "),
		OK: func(v string) bool {
			for _, a := range allowed {
				if v == a {
					return true
				}
			}
			return false
		},
	}
}

// UUID accepts a record id.
func UUID(name string) Filter {
	return Filter{Name: name, Rule: "must be a UUID", OK: func(v string) bool {
		_, err := uuid.Parse(v)
		return err == nil
	}}
}

// Date accepts YYYY-MM-DD.
func Date(name string) Filter {
	return Filter{Name: name, Rule: "must be a date (YYYY-MM-DD)", OK: func(v string) bool {
		_, err := time.Parse(time.DateOnly, v)
		return err == nil
	}}
}

// Month accepts YYYY-MM.
func Month(name string) Filter {
	return Filter{Name: name, Rule: "must be a month (YYYY-MM)", OK: func(v string) bool {
		_, err := time.Parse("2006-01", v)
		return err == nil
	}}
}

// Text accepts free text of 1 to maxLen bytes (a search term, say).
func Text(name string, maxLen int) Filter {
	return Filter{Name: name, MaxLen: maxLen}
}

// Query is a parsed list request. Its values are copies, so it may outlive
// the request (Fiber's strings point into reused buffers).
type Query struct {
	Page    int
	PerPage int
	values  map[string]string
}

// Parse reads ?page= (from 1), ?per_page= (1 to 200, default 50) and the
// given filters. Every broken rule becomes one line of a single 400
// validation_failed; parameters that are not declared are ignored.
func Parse(c *fiber.Ctx, filters ...Filter) (Query, error) {
	q := Query{Page: 1, PerPage: DefaultPerPage}
	var details []string
	if raw := c.Query("page"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > maxPageNumber {
			details = append(details, "page: must be a whole number from 1")
		} else {
			q.Page = n
		}
	}
	if raw := c.Query("per_page"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > MaxPerPage {
			details = append(details, fmt.Sprintf("per_page: must be a whole number from 1 to %d", MaxPerPage))
		} else {
			q.PerPage = n
		}
	}
	for _, f := range filters {
		raw := c.Query(f.Name)
		if raw == "" {
			continue
		}
		limit := f.MaxLen
		if limit <= 0 {
			limit = DefaultMaxLen
		}
		switch {
		case len(raw) > limit:
			details = append(details, fmt.Sprintf("%s: must be at most %d characters", f.Name, limit))
		case f.OK != nil && !f.OK(raw):
			details = append(details, f.Name+": "+f.Rule)
		default:
			if q.values == nil {
				q.values = make(map[string]string, len(filters))
			}
			q.values[f.Name] = strings.Clone(raw)
		}
	}
	if len(details) > 0 {
		return Query{}, apierror.Validation(details...)
	}
	return q, nil
}

// Get is the value of filter name, or "" when it was not given.
func (q Query) Get(name string) string { return q.values[name] }

// Offset is the number of records before the page.
func (q Query) Offset() int { return (q.Page - 1) * q.PerPage }

// Scan fills dst with the page of sel (which carries the filters and the
// order) and returns how many records match in all. Bun runs the count
// beside the select.
func Scan(ctx context.Context, sel *bun.SelectQuery, q Query) (int, error) {
	total, err := sel.Limit(int64(q.PerPage)).Offset(int64(q.Offset())).ScanAndCount(ctx)
	if err != nil {
		return 0, err
	}
	return int(total), nil
}

// Page is one page of a list as clients receive it.
type Page[T any] struct {
	key     string
	Items   []T
	Total   int
	Page    int
	PerPage int
}

// NewPage converts the records of a page with out and returns the body
// whose items are under key.
func NewPage[R, T any](key string, records []R, out func(*R) T, total int, q Query) Page[T] {
	items := make([]T, len(records))
	for i := range records {
		items[i] = out(&records[i])
	}
	return Page[T]{key: key, Items: items, Total: total, Page: q.Page, PerPage: q.PerPage}
}

// MarshalJSON writes {"<key>": [...], "total", "page", "per_page"}.
func (p Page[T]) MarshalJSON() ([]byte, error) {
	items, err := json.Marshal(p.Items)
	if err != nil {
		return nil, err
	}
	key, err := json.Marshal(p.key)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, 0, len(items)+len(key)+64)
	buf = append(buf, '{')
	buf = append(buf, key...)
	buf = append(buf, ':')
	buf = append(buf, items...)
	buf = append(buf, `,"total":`...)
	buf = strconv.AppendInt(buf, int64(p.Total), 10)
	buf = append(buf, `,"page":`...)
	buf = strconv.AppendInt(buf, int64(p.Page), 10)
	buf = append(buf, `,"per_page":`...)
	buf = strconv.AppendInt(buf, int64(p.PerPage), 10)
	buf = append(buf, '}')
	return buf, nil
}
