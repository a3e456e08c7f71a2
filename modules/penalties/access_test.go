package penalties_test

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

func snapshot(t *testing.T, app *testkit.App) map[string][]map[string]any {
	t.Helper()
	out := map[string][]map[string]any{}
	for _, table := range []string{"properties", "charges", "payments"} {
		var rows []map[string]any
		if err := app.DB.NewSelect().Table(table).Order("id").Scan(context.Background(), &rows); err != nil {
			t.Fatalf("snapshot of %s: %v", table, err)
		}
		out[table] = rows
	}
	return out
}

// Another user sends the first user's property id to every route of the
// module and gets 403; malformed or unknown property ids get 404, no token
// 401; nothing in the database changes although a refresh would create
// penalties. An admin may use any property.
func TestAccessControlOnEveryRoute(t *testing.T) {
	f := start(t)
	f.activeContract(t, "A-1", 1000, "2026-09-01", 5)
	f.catchUp(t)
	stranger := accountstest.NewUser(t, f.app)
	newProperty(t, f.app, stranger.Token)

	routes := f.app.RoutesUnder("/api/v1/properties/:propertyId/penalties")
	if len(routes) != 2 {
		t.Fatalf("found %d routes under /properties/:propertyId/penalties, want 2: %v", len(routes), routes)
	}
	before := snapshot(t, f.app)
	for _, rt := range routes {
		method, path := rt[0], rt[1]
		send := func(propertyID, token string) *testkit.Response {
			return f.app.Do(testkit.Request{Method: method, Path: strings.ReplaceAll(path, ":propertyId", propertyID), Token: token})
		}
		t.Run(method+" "+path, func(t *testing.T) {
			if res := send(f.property, stranger.Token); res.Status != http.StatusForbidden || res.Map()["error"] != "forbidden" {
				t.Errorf("stranger: %d %s, want 403 forbidden", res.Status, res.String())
			}
			if res := send(f.property, ""); res.Status != http.StatusUnauthorized {
				t.Errorf("no token: %d %s, want 401", res.Status, res.String())
			}
			for _, bad := range []string{"not-a-uuid", "019a0000-0000-7000-8000-000000000000", f.property + "0"} {
				if res := send(bad, f.user.Token); res.Status != http.StatusNotFound || res.Map()["error"] != "not_found" {
					t.Errorf("property id %q: %d %s, want 404 not_found", bad, res.Status, res.String())
				}
			}
		})
	}
	if after := snapshot(t, f.app); !reflect.DeepEqual(before, after) {
		t.Fatalf("the database changed:\nbefore %v\nafter  %v", before, after)
	}
	admin := accountstest.NewUser(t, f.app, "ROLE_USER", "ROLE_ADMIN")
	var r result
	f.app.Post(f.path("/penalties/refresh"), admin.Token, nil).Expect(http.StatusOK).JSON(&r)
	if r != (result{Created: 3}) {
		t.Errorf("admin's refresh %+v, want 3 created", r)
	}
	f.app.Get(f.path("/penalties"), admin.Token).Expect(http.StatusOK)
}
