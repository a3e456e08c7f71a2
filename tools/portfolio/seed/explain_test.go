package seed_test

import (
	"context"
	"crypto/md5"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/tools/portfolio/seed"
)

// id is the uuid seed.Seed gives to record kind number i of tag.
func id(tag, kind string, i int) string {
	sum := md5.Sum([]byte(fmt.Sprintf("%s:%s:%d", tag, kind, i)))
	return uuid.UUID(sum).String()
}

// recorder keeps every SELECT the app sends, with its bind parameters.
type recorder struct {
	mu      sync.Mutex
	queries []captured
}

type captured struct {
	route string
	query string
	args  []any
}

func (r *recorder) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	if strings.HasPrefix(strings.TrimSpace(e.Query), "SELECT") {
		r.mu.Lock()
		r.queries = append(r.queries, captured{query: e.Query, args: database.BoundArgs(ctx)})
		r.mu.Unlock()
	}
	return ctx
}

func (r *recorder) AfterQuery(context.Context, *bun.QueryEvent) {}

func (r *recorder) take(route string) []captured {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.queries
	r.queries = nil
	for i := range out {
		out[i].route = route
	}
	return out
}

// TestListQueriesUseIndexes seeds a landlord with more than 10,000 units
// (and every table with more than 10,000 rows), calls every list with its
// filters, first page and the page after its cursor, and runs EXPLAIN on
// each SELECT the app sent (EXPLAIN ANALYZE: they are reads): no plan may
// read a table of over 10,000 rows with a sequential scan, nor read and
// throw away more than maxDiscarded rows of one (an index that does not
// match the list's filter finds the page only by reading past the rest).
func TestListQueriesUseIndexes(t *testing.T) {
	if testkit.Engine() != "postgres" {
		t.Skip("EXPLAIN of the list queries needs PostgreSQL: set PROPMAN_TEST_DATABASE_URL (SQLite has no comparable planner output)")
	}
	if testing.Short() {
		t.Skip("seeds 10,000 units: not with -short")
	}
	app := testkit.Start(t)
	owner := accountstest.NewUser(t, app)
	other := accountstest.NewUser(t, app)
	ctx := context.Background()
	const units = 10_050
	if err := seed.Seed(ctx, app.DB.DB, owner.ID, "a", seed.Size{Units: units, ChargesPerUnit: 3, PaymentsPerUnit: 1, ReadingsPerUnit: 1}); err != nil {
		t.Fatal(err)
	}
	// Other landlords, so that one landlord's list is not most of the
	// table (where reading the whole table is the cheapest way to count
	// it); the per-property tables are always narrowed to one property.
	if err := seed.Seed(ctx, app.DB.DB, other.ID, "b", seed.Size{Units: 500, ChargesPerUnit: 3, PaymentsPerUnit: 1, ReadingsPerUnit: 1}); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		others := accountstest.NewUser(t, app)
		if err := seed.Seed(ctx, app.DB.DB, others.ID, fmt.Sprintf("o%d", i), seed.Size{Units: units, ChargesPerUnit: 3, OwnerOnly: true}); err != nil {
			t.Fatal(err)
		}
	}
	// The visibility map lets counts read indexes only, as autovacuum
	// would have it on a live database.
	if _, err := app.DB.DB.ExecContext(ctx, "VACUUM ANALYZE"); err != nil {
		t.Fatal(err)
	}

	prop, contract, tenant, counter := id("a", "p", 7), id("a", "c", 7), id("a", "t", 7), id("a", "m", 7)
	lists := []string{
		"/api/v1/properties", "/api/v1/properties?archived=false", "/api/v1/properties?archived=true",
		"/api/v1/contragents", "/api/v1/contragents?q=" + url.QueryEscape("müller anna"), "/api/v1/contragents?q=tenant77",
		"/api/v1/contragents?role=tenant&kind=person",
		"/api/v1/contracts", "/api/v1/contracts?status=active", "/api/v1/contracts?status=ended",
		"/api/v1/contracts?property_id=" + prop, "/api/v1/contracts?tenant_id=" + tenant,
		"/api/v1/properties/" + prop + "/expenses",
		"/api/v1/properties/" + prop + "/charges", "/api/v1/properties/" + prop + "/charges?status=unpaid",
		"/api/v1/properties/" + prop + "/charges?period=2022-09&kind=regular&contract_id=" + contract,
		"/api/v1/properties/" + prop + "/payments", "/api/v1/properties/" + prop + "/payments?status=posted&from=2022-01-01&to=2026-12-31&contract_id=" + contract,
		"/api/v1/properties/" + prop + "/penalties", "/api/v1/properties/" + prop + "/penalties?contract_id=" + contract,
		"/api/v1/properties/" + prop + "/receipts", "/api/v1/properties/" + prop + "/receipts?status=issued",
		"/api/v1/properties/" + prop + "/documents", "/api/v1/properties/" + prop + "/documents?category=contract&contract_id=" + contract,
		"/api/v1/properties/" + prop + "/counters", "/api/v1/properties/" + prop + "/counters?kind=electricity",
		"/api/v1/properties/" + prop + "/counters/" + counter + "/readings",
		"/api/v1/properties/" + prop + "/counters/" + counter + "/readings?from=2020-01-01&to=2030-01-01",
		"/api/v1/calendar-events", "/api/v1/calendar-events?property_id=" + prop,
		"/api/v1/calendar-events?from=2026-01-01&to=2026-12-31", "/api/v1/calendar-events?from=2026-01-01&to=2026-12-31&contract_id=" + contract,
		"/api/v1/properties/" + prop + "/repair-requests", "/api/v1/properties/" + prop + "/repair-requests?status=reported&urgency=urgent",
		"/api/v1/repair-requests/overdue", "/api/v1/repair-requests/overdue?urgency=emergency",
	}
	rec := &recorder{}
	// WithQueryHook would give a copy the app does not use: the recorder
	// must hear the app's own queries.
	app.DB.AddQueryHook(rec) //nolint:staticcheck // see above
	var all []captured
	withNext := 0
	for _, path := range lists {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		first := path + sep + "per_page=1"
		var page map[string]any
		app.Get(first, owner.Token).Expect(200).JSON(&page)
		all = append(all, rec.take(first)...)
		if next, ok := page["next"].(string); ok {
			withNext++
			after := first + "&after=" + next
			app.Get(after, owner.Token).Expect(200)
			all = append(all, rec.take(after)...)
			// The count of an offset page further down.
			deep := path + sep + "per_page=1&page=2"
			app.Get(deep, owner.Token).Expect(200)
			all = append(all, rec.take(deep)...)
		}
	}
	if withNext < 10 {
		t.Fatalf("only %d lists had a second page: the seed does not exercise the cursors", withNext)
	}

	big := map[string]float64{}
	rows, err := app.DB.DB.QueryContext(ctx, "SELECT relname, reltuples FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		var n float64
		if err := rows.Scan(&name, &n); err != nil {
			t.Fatal(err)
		}
		if n > 10_000 {
			big[name] = n
		}
	}
	_ = rows.Close()
	for _, table := range []string{"properties", "contragents", "contracts", "charges", "payments", "receipts", "documents", "counters", "counter_readings"} {
		if big[table] == 0 {
			t.Fatalf("%s has no more than 10,000 rows: the check would prove nothing", table)
		}
	}

	for _, q := range all {
		var raw []byte
		if err := app.DB.DB.QueryRowContext(ctx, "EXPLAIN (ANALYZE, FORMAT JSON) "+q.query, q.args...).Scan(&raw); err != nil {
			t.Errorf("%s: EXPLAIN %s: %v", q.route, q.query, err)
			continue
		}
		var plans []struct {
			Plan node `json:"Plan"`
		}
		if err := json.Unmarshal(raw, &plans); err != nil {
			t.Fatal(err)
		}
		for _, p := range plans {
			p.Plan.walk(func(n *node) {
				switch {
				case n.Type == "Seq Scan" && big[n.Relation] > 0:
					t.Errorf("%s: sequential scan of %s (%.0f rows) in\n%s\nargs %v\nplan %s", q.route, n.Relation, big[n.Relation], q.query, q.args, raw)
				case big[n.Relation] > 0 && n.Removed+n.Rechecked > maxDiscarded:
					t.Errorf("%s: %s of %s read and discarded %.0f rows in\n%s\nargs %v\nplan %s", q.route, n.Type, n.Relation, n.Removed+n.Rechecked, q.query, q.args, raw)
				}
			})
		}
	}
	t.Logf("%d queries of %d list requests explained", len(all), len(lists))
}

// maxDiscarded is more rows than a list page reads past: a page is at most
// 201 rows, and what one property has (~51 charges a unit) is far below.
const maxDiscarded = 1000

type node struct {
	Type      string  `json:"Node Type"`
	Relation  string  `json:"Relation Name"`
	Removed   float64 `json:"Rows Removed by Filter"`
	Rechecked float64 `json:"Rows Removed by Index Recheck"`
	Plans     []node  `json:"Plans"`
}

func (n *node) walk(f func(*node)) {
	f(n)
	for i := range n.Plans {
		n.Plans[i].walk(f)
	}
}
