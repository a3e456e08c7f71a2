package expenses_test

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/testkit"
)

// ownRoutes are the routes the properties and expenses modules serve under
// /api/v1/properties/:propertyId, read from Fiber's route table so that a
// route added later is covered without touching this test.
func ownRoutes(t *testing.T, app *testkit.App) [][2]string {
	t.Helper()
	var stubs []string
	for _, e := range modules.Catalog() {
		if e.Status == module.Stub {
			stubs = append(stubs, e.Prefixes...)
		}
	}
	var out [][2]string
	seen := map[string]bool{}
next:
	for _, r := range app.Fiber.GetRoutes(true) {
		switch r.Method {
		case http.MethodHead, http.MethodOptions, http.MethodConnect, http.MethodTrace:
			continue
		}
		if !strings.HasPrefix(r.Path, "/api/v1/properties/:propertyId") ||
			// Other modules under a property check their own routes.
			strings.HasPrefix(r.Path, "/api/v1/properties/:propertyId/counters") {
			continue
		}
		// Other modules' routes under a property have their own test.
		if rest := strings.TrimPrefix(r.Path, "/api/v1/properties/:propertyId"); rest != "" &&
			!strings.HasPrefix(rest, "/expenses") && !strings.HasPrefix(rest, "/charges") {
			continue
		}
		for _, p := range stubs {
			if strings.HasPrefix(r.Path, "/api/v1"+p) {
				continue next
			}
		}
		if key := r.Method + " " + r.Path; !seen[key] {
			seen[key] = true
			out = append(out, [2]string{r.Method, r.Path})
		}
	}
	return out
}

// snapshot is every row of the area's tables.
func snapshot(t *testing.T, app *testkit.App) map[string][]map[string]any {
	t.Helper()
	out := map[string][]map[string]any{}
	for _, table := range []string{"properties", "expenses", "charges"} {
		var rows []map[string]any
		if err := app.DB.NewSelect().Table(table).Order("id").Scan(context.Background(), &rows); err != nil {
			t.Fatalf("snapshot of %s: %v", table, err)
		}
		out[table] = rows
	}
	return out
}

// Another user sends the first user's ids to every route and method of
// these modules and gets 403; malformed or unknown ids get 404, no token
// 401; nothing in the database changes.
func TestAccessControlOnEveryRoute(t *testing.T) {
	f := start(t)
	exp := f.newExpense(t, map[string]any{"name": "Rent", "type": "MONTHLY", "amount": 800, "start_date": "2026-01-01"})
	f.refreshAll(t)
	f.app.Post(f.charges(), f.user.Token, map[string]any{"name": "Fee", "amount": 5, "due_date": "2026-12-01"}).Expect(http.StatusCreated)
	stranger := accountstest.NewUser(t, f.app)
	strangersProperty := newProperty(t, f.app, stranger.Token)

	routes := ownRoutes(t, f.app)
	// 3 property routes with an id, 6 expense routes, 2 charge routes.
	if len(routes) != 11 {
		t.Fatalf("found %d routes under /properties/:propertyId, want 11: %v", len(routes), routes)
	}
	body := map[string]any{
		"name": "Taken over", "country_code": "FR", "type": "YEARLY", "amount": 1, "start_date": "2026-01-01",
		"due_date": "2026-12-01", "is_active": false,
	}
	fill := func(path, propertyID string) string {
		path = strings.ReplaceAll(path, ":propertyId", propertyID)
		return strings.ReplaceAll(path, ":expenseId", exp.ID)
	}
	before := snapshot(t, f.app)
	f.app.Clock.Advance(time.Hour)
	f.renewToken(t)
	token := func(u string) string {
		if u == "stranger" {
			s, _ := f.app.Tokens.Issue(stranger.ID, 0, f.app.Clock.Now())
			return s
		}
		return f.user.Token
	}
	for _, r := range routes {
		method, path := r[0], r[1]
		var b any
		if method == http.MethodPost || method == http.MethodPut {
			b = body
		}
		send := func(path, token string) *testkit.Response {
			return f.app.Do(testkit.Request{Method: method, Path: path, Token: token, Body: b})
		}
		t.Run(method+" "+path, func(t *testing.T) {
			res := send(fill(path, f.property), token("stranger"))
			if res.Status != http.StatusForbidden || res.Map()["error"] != "forbidden" {
				t.Errorf("stranger: %d %s, want 403 forbidden", res.Status, res.String())
			}
			res = send(fill(path, f.property), "")
			if res.Status != http.StatusUnauthorized {
				t.Errorf("no token: %d %s, want 401", res.Status, res.String())
			}
			for _, bad := range []string{"not-a-uuid", "019a0000-0000-7000-8000-000000000000", f.property + "0", "{" + f.property + "}"} {
				res = send(fill(path, bad), token("owner"))
				if res.Status != http.StatusNotFound || res.Map()["error"] != "not_found" {
					t.Errorf("property id %q: %d %s, want 404 not_found", bad, res.Status, res.String())
				}
			}
			if strings.Contains(path, ":expenseId") {
				// The stranger's own property does not hold the first user's expense.
				res = send(fill(path, strangersProperty), token("stranger"))
				if res.Status != http.StatusNotFound {
					t.Errorf("expense under another property: %d %s, want 404", res.Status, res.String())
				}
				for _, bad := range []string{"x", "019a0000-0000-7000-8000-000000000000"} {
					res = send(strings.ReplaceAll(fill(path, f.property), exp.ID, bad), token("owner"))
					if res.Status != http.StatusNotFound {
						t.Errorf("expense id %q: %d %s, want 404", bad, res.Status, res.String())
					}
				}
			}
		})
	}
	// The stranger's list does not show the first user's property.
	var l struct {
		Total int `json:"total"`
	}
	f.app.Get("/api/v1/properties", token("stranger")).Expect(http.StatusOK).JSON(&l)
	if l.Total != 1 {
		t.Fatalf("stranger lists %d properties, want only their own", l.Total)
	}
	after := snapshot(t, f.app)
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("the database changed:\nbefore %v\nafter  %v", before, after)
	}
	if len(after["properties"]) != 2 || len(after["expenses"]) != 1 || len(after["charges"]) != 2 {
		t.Fatalf("unexpected fixture: %d properties, %d expenses, %d charges",
			len(after["properties"]), len(after["expenses"]), len(after["charges"]))
	}
}
