package counters_test

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// ownRoutes are the routes of this module, read from Fiber's route table
// so that a route added later is covered without touching this test.
func ownRoutes(app *testkit.App) [][2]string {
	return app.RoutesUnder("/api/v1/properties/:propertyId/counters")
}

func snapshot(t *testing.T, app *testkit.App) map[string][]map[string]any {
	t.Helper()
	out := map[string][]map[string]any{}
	for _, table := range []string{"properties", "counters", "counter_readings", "charges"} {
		var rows []map[string]any
		if err := app.DB.NewSelect().Table(table).Order("id").Scan(context.Background(), &rows); err != nil {
			t.Fatalf("snapshot of %s: %v", table, err)
		}
		out[table] = rows
	}
	return out
}

// Another user sends the first user's ids to every route and method of the
// module and gets 403; malformed or unknown property, counter and reading
// ids get 404, no token 401; nothing in the database changes. An admin
// may use any property.
func TestAccessControlOnEveryRoute(t *testing.T) {
	f := start(t)
	c := f.newCounter(t, map[string]any{"kind": "electricity", "tariff": 0.3})
	f.addReading(t, c.ID, "2026-10-01", 1)
	r := f.addReading(t, c.ID, "2026-11-01", 2)
	stranger := accountstest.NewUser(t, f.app)
	strangersProperty := newProperty(t, f.app, stranger.Token)

	routes := ownRoutes(f.app)
	if len(routes) != 10 {
		t.Fatalf("found %d routes under /properties/:propertyId/counters, want 10: %v", len(routes), routes)
	}
	fill := func(path, propertyID, counterID, readingID string) string {
		path = strings.ReplaceAll(path, ":propertyId", propertyID)
		path = strings.ReplaceAll(path, ":counterId", counterID)
		return strings.ReplaceAll(path, ":readingId", readingID)
	}
	before := snapshot(t, f.app)
	for _, rt := range routes {
		method, path := rt[0], rt[1]
		var body any
		headers := map[string]string{}
		switch {
		case strings.HasSuffix(path, "/import"):
			body = "2026-11-10,3\n"
			headers["Content-Type"] = "text/csv"
		case method == http.MethodPost || method == http.MethodPut:
			body = map[string]any{"kind": "gas", "read_on": "2026-11-10", "value": 3, "tariff": 9}
		}
		send := func(path, token string) *testkit.Response {
			return f.app.Do(testkit.Request{Method: method, Path: path, Token: token, Body: body, Headers: headers})
		}
		t.Run(method+" "+path, func(t *testing.T) {
			if res := send(fill(path, f.property, c.ID, r.ID), stranger.Token); res.Status != http.StatusForbidden || res.Map()["error"] != "forbidden" {
				t.Errorf("stranger: %d %s, want 403 forbidden", res.Status, res.String())
			}
			if res := send(fill(path, f.property, c.ID, r.ID), ""); res.Status != http.StatusUnauthorized {
				t.Errorf("no token: %d %s, want 401", res.Status, res.String())
			}
			for _, bad := range []string{"not-a-uuid", "019a0000-0000-7000-8000-000000000000", f.property + "0"} {
				if res := send(fill(path, bad, c.ID, r.ID), f.user.Token); res.Status != http.StatusNotFound || res.Map()["error"] != "not_found" {
					t.Errorf("property id %q: %d %s, want 404 not_found", bad, res.Status, res.String())
				}
			}
			if !strings.Contains(path, ":counterId") {
				return
			}
			// The stranger's own property does not hold the counter.
			if res := send(fill(path, strangersProperty, c.ID, r.ID), stranger.Token); res.Status != http.StatusNotFound {
				t.Errorf("counter under another property: %d %s, want 404", res.Status, res.String())
			}
			for _, bad := range []string{"x", "019a0000-0000-7000-8000-000000000000", strings.ToUpper(c.ID)[:35]} {
				if res := send(fill(path, f.property, bad, r.ID), f.user.Token); res.Status != http.StatusNotFound {
					t.Errorf("counter id %q: %d %s, want 404", bad, res.Status, res.String())
				}
			}
			if strings.Contains(path, ":readingId") {
				for _, bad := range []string{"x", "019a0000-0000-7000-8000-000000000000"} {
					if res := send(fill(path, f.property, c.ID, bad), f.user.Token); res.Status != http.StatusNotFound {
						t.Errorf("reading id %q: %d %s, want 404", bad, res.Status, res.String())
					}
				}
			}
		})
	}
	if after := snapshot(t, f.app); !reflect.DeepEqual(before, after) {
		t.Fatalf("the database changed:\nbefore %v\nafter  %v", before, after)
	}
	// An admin may read and write under any property.
	admin := accountstest.NewUser(t, f.app, "ROLE_USER", "ROLE_ADMIN")
	f.app.Get(f.counters()+"/"+c.ID, admin.Token).Expect(http.StatusOK)
	f.app.Post(f.readings(c.ID), admin.Token, map[string]any{"read_on": "2026-11-10", "value": 3}).Expect(http.StatusCreated)
	f.app.Get(f.counters()+"/"+c.ID+"/consumption", admin.Token).Expect(http.StatusOK)
}
