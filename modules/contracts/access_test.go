package contracts_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// ownRoutes are the routes the module serves under /api/v1/contracts/:contractId,
// read from Fiber's route table so that a route added later is covered.
func ownRoutes(app *testkit.App) [][2]string {
	return app.RoutesUnder("/api/v1/contracts/:contractId")
}

// Another user sends the owner's contract id to every route with an id and
// gets 403; malformed or unknown ids get 404, no token 401; nothing changes.
func TestAccessControlOnEveryRoute(t *testing.T) {
	f := start(t)
	stranger := newUserFor(t, f)
	c := f.create(t, "1", rentTerms("2026-11-01")...)

	routes := ownRoutes(f.app)
	// 7 of this module's, the notices' settings (GET, PATCH), their
	// rent call's letter (GET) and the household sizes of modules/buildings
	// (GET, POST).
	if len(routes) != 12 {
		t.Fatalf("found %d routes under /contracts/:contractId, want 12: %v", len(routes), routes)
	}
	bodies := map[string]any{
		http.MethodPatch: map[string]any{"reminder": false},
		http.MethodPut:   map[string]any{"number": "taken over"},
		http.MethodPost:  map[string]any{"date": "2026-11-15", "reason": "x", "amount": 1000, "from": "2026-12-01"},
	}
	before := snapshot(t, f.app)
	for _, r := range routes {
		method, path := r[0], r[1]
		send := func(id, token string) *testkit.Response {
			return f.app.Do(testkit.Request{Method: method, Path: strings.ReplaceAll(path, ":contractId", id), Token: token, Body: bodies[method]})
		}
		t.Run(method+" "+path, func(t *testing.T) {
			if res := send(c.ID, stranger.Token); res.Status != http.StatusForbidden || res.Map()["error"] != "forbidden" {
				t.Errorf("stranger: %d %s, want 403 forbidden", res.Status, res.String())
			}
			if res := send(c.ID, ""); res.Status != http.StatusUnauthorized {
				t.Errorf("no token: %d %s, want 401", res.Status, res.String())
			}
			for _, bad := range []string{"not-a-uuid", "019a0000-0000-7000-8000-000000000000", c.ID + "0", "{" + c.ID + "}"} {
				if res := send(bad, f.user.Token); res.Status != http.StatusNotFound || res.Map()["error"] != "not_found" {
					t.Errorf("id %q: %d %s, want 404 not_found", bad, res.Status, res.String())
				}
			}
		})
	}
	var l contractList
	f.app.Get(base, stranger.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 0 {
		t.Fatalf("stranger lists %+v", l)
	}
	f.app.Get(base, "").Expect(http.StatusUnauthorized)
	f.app.Post(base, "", f.body("2")).Expect(http.StatusUnauthorized)
	if after := snapshot(t, f.app); !reflect.DeepEqual(before, after) {
		t.Fatalf("the database changed")
	}
	// An admin reaches it by id.
	admin := newUserFor(t, f, "ROLE_USER", "ROLE_ADMIN")
	f.app.Get(base+"/"+c.ID, admin.Token).Expect(http.StatusOK)
	f.app.Post(base+"/"+c.ID+"/activate", admin.Token, nil).Expect(http.StatusOK)
}

// A tenant named by a contract is not deleted; a property with a contract
// that left draft is not deleted; its drafts go with it.
func TestDeletionHooks(t *testing.T) {
	f := start(t)
	draft := f.create(t, "D")
	if res := f.app.Delete("/api/v1/contragents/"+f.tenant, f.user.Token).Expect(http.StatusConflict); res.Map()["error"] != "in_use" {
		t.Fatal(res.String())
	}
	active := f.create(t, "A", rentTerms("2026-11-01")...)
	f.app.Post(base+"/"+active.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	if res := f.app.Delete("/api/v1/properties/"+f.property, f.user.Token).Expect(http.StatusConflict); res.Map()["error"] == "" {
		t.Fatal(res.String())
	}
	// Another property with only a draft goes, with the draft.
	g := f
	g.property = newProperty(t, f.app, f.user.Token, "DE")
	d2 := g.create(t, "D2")
	f.app.Delete("/api/v1/properties/"+g.property, f.user.Token).Expect(http.StatusNoContent)
	f.app.Get(base+"/"+d2.ID, f.user.Token).Expect(http.StatusNotFound)
	f.app.Get(base+"/"+draft.ID, f.user.Token).Expect(http.StatusOK)
}

// Without charges, a property with an active contract answers has_contracts.
func TestPropertyWithActiveContractAndNoCharges(t *testing.T) {
	f := start(t)
	c := f.create(t, "A", rentTerms("2026-11-01")...)
	f.app.Post(base+"/"+c.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	if res := f.app.Delete("/api/v1/properties/"+f.property, f.user.Token).Expect(http.StatusConflict); res.Map()["error"] != "has_contracts" {
		t.Fatal(res.String())
	}
}
