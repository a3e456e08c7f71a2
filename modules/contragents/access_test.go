package contragents_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// ownRoutes are the routes the module serves under /api/v1/contragents/:contragentId,
// read from Fiber's route table so that a route added later is covered.
func ownRoutes(app *testkit.App) [][2]string {
	return app.RoutesUnder("/api/v1/contragents/:contragentId")
}

// Another user sends the first user's id to every route with an id and gets
// 403; malformed or unknown ids get 404, no token 401; nothing changes.
func TestAccessControlOnEveryRoute(t *testing.T) {
	app := testkit.Start(t)
	owner := newUser(t, app)
	stranger := newUser(t, app)
	c := create(t, app, owner.Token, tenant("Anna"))
	create(t, app, stranger.Token, tenant("Strangers own"))

	// get, put, delete, and the tenancy module's portal invitation.
	routes := ownRoutes(app)
	if len(routes) != 4 {
		t.Fatalf("found %d routes under /contragents/:contragentId, want 4: %v", len(routes), routes)
	}
	body := map[string]any{"name": "Taken over", "kind": "company", "roles": []string{"provider"}}
	before := snapshot(t, app)
	for _, r := range routes {
		method, path := r[0], r[1]
		var b any
		if method == http.MethodPut {
			b = body
		}
		send := func(id, token string) *testkit.Response {
			return app.Do(testkit.Request{Method: method, Path: strings.ReplaceAll(path, ":contragentId", id), Token: token, Body: b})
		}
		t.Run(method+" "+path, func(t *testing.T) {
			if res := send(c.ID, stranger.Token); res.Status != http.StatusForbidden || res.Map()["error"] != "forbidden" {
				t.Errorf("stranger: %d %s, want 403 forbidden", res.Status, res.String())
			}
			if res := send(c.ID, ""); res.Status != http.StatusUnauthorized {
				t.Errorf("no token: %d %s, want 401", res.Status, res.String())
			}
			for _, bad := range []string{"not-a-uuid", "019a0000-0000-7000-8000-000000000000", c.ID + "0", "{" + c.ID + "}"} {
				if res := send(bad, owner.Token); res.Status != http.StatusNotFound || res.Map()["error"] != "not_found" {
					t.Errorf("id %q: %d %s, want 404 not_found", bad, res.Status, res.String())
				}
			}
		})
	}
	// Lists are per owner; no token is 401 on the collection routes too.
	var l contragentList
	app.Get(base, stranger.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 1 || l.Contragents[0].Name != "Strangers own" {
		t.Fatalf("stranger lists %+v", l)
	}
	app.Get(base, "").Expect(http.StatusUnauthorized)
	app.Post(base, "", body).Expect(http.StatusUnauthorized)
	importCSV(app, "", "name,kind,roles\nA,person,tenant\n").Expect(http.StatusUnauthorized)
	if after := snapshot(t, app); !reflect.DeepEqual(before, after) {
		t.Fatalf("the database changed:\nbefore %v\nafter  %v", before, after)
	}
}

// An admin reaches another user's contragent by id; it stays the owner's.
func TestAdminReachesAnyContragent(t *testing.T) {
	app := testkit.Start(t)
	owner := newUser(t, app)
	admin := newUser(t, app, "ROLE_USER", "ROLE_ADMIN")
	c := create(t, app, owner.Token, tenant("Anna"))

	app.Get(base+"/"+c.ID, admin.Token).Expect(http.StatusOK)
	var updated contragent
	app.Put(base+"/"+c.ID, admin.Token, map[string]any{"notes": "checked"}).Expect(http.StatusOK).JSON(&updated)
	if updated.Notes != "checked" {
		t.Fatalf("admin update: %+v", updated)
	}
	var l contragentList
	app.Get(base, owner.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 1 || l.Contragents[0].Notes != "checked" {
		t.Fatalf("owner's list after the admin's update: %+v", l)
	}
	app.Get(base, admin.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 0 {
		t.Fatalf("admin's own list shows %d", l.Total)
	}
	app.Delete(base+"/"+c.ID, admin.Token).Expect(http.StatusNoContent)
	app.Get(base+"/"+c.ID, owner.Token).Expect(http.StatusNotFound)
}
