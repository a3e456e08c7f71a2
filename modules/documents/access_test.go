package documents_test

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// documentRoutes are the module's routes, read from Fiber's route table so
// that a route added later is covered without touching this test.
func documentRoutes(t *testing.T, app *testkit.App) [][2]string {
	t.Helper()
	return app.RoutesUnder("/api/v1/properties/:propertyId/documents")
}

func snapshot(t *testing.T, f *fixture) ([]map[string]any, []string) {
	t.Helper()
	var rows []map[string]any
	if err := f.app.DB.NewSelect().Table("documents").Order("id").Scan(context.Background(), &rows); err != nil {
		t.Fatal(err)
	}
	return rows, f.blobs()
}

// Another user sends the first user's ids to every route of the module and
// gets 403; malformed or unknown property ids get 404, a document of
// another property 404, no token 401; nothing changes in the database or
// the storage.
func TestAccessControlOnEveryRoute(t *testing.T) {
	f := start(t, "file")
	doc := f.uploadOK(t, "lease.pdf", pdfFile(), "contract")
	stranger := accountstest.NewUser(t, f.app)
	strangersProperty := newProperty(t, f.app, stranger.Token)
	f.app.Clock.Advance(time.Minute)

	routes := documentRoutes(t, f.app)
	if len(routes) != 6 {
		t.Fatalf("found %d document routes, want 6: %v", len(routes), routes)
	}
	before, beforeBlobs := snapshot(t, f)
	fill := func(path, propertyID, documentID string) string {
		return strings.ReplaceAll(strings.ReplaceAll(path, ":propertyId", propertyID), ":documentId", documentID)
	}
	send := func(method, path, token string) response {
		switch method {
		case http.MethodPost:
			body, ct := form(text("title", "Taken over"), text("category", "other"), file("x.pdf", pdfFile()))
			return f.send(t, method, path, token, ct, strings.NewReader(string(body)))
		case http.MethodPut:
			return f.send(t, method, path, token, "application/json", strings.NewReader(`{"title":"Taken over","category":"other"}`))
		}
		return f.send(t, method, path, token, "", nil)
	}
	for _, r := range routes {
		method, path := r[0], r[1]
		t.Run(method+" "+path, func(t *testing.T) {
			if res := send(method, fill(path, f.property, doc.ID), stranger.Token); res.Status != http.StatusForbidden || res.Map(t)["error"] != "forbidden" {
				t.Errorf("stranger: %d %s, want 403 forbidden", res.Status, res.Body)
			}
			if res := send(method, fill(path, f.property, doc.ID), ""); res.Status != http.StatusUnauthorized {
				t.Errorf("no token: %d %s, want 401", res.Status, res.Body)
			}
			for _, bad := range []string{"not-a-uuid", "019a0000-0000-7000-8000-000000000000", f.property + "0"} {
				if res := send(method, fill(path, bad, doc.ID), f.user.Token); res.Status != http.StatusNotFound || res.Map(t)["error"] != "not_found" {
					t.Errorf("property id %q: %d %s, want 404 not_found", bad, res.Status, res.Body)
				}
			}
			if strings.Contains(path, ":documentId") {
				// The stranger's own property does not hold the document.
				if res := send(method, fill(path, strangersProperty, doc.ID), stranger.Token); res.Status != http.StatusNotFound {
					t.Errorf("document under another property: %d %s, want 404", res.Status, res.Body)
				}
				for _, bad := range []string{"x", "019a0000-0000-7000-8000-000000000000", doc.ID + "0"} {
					if res := send(method, fill(path, f.property, bad), f.user.Token); res.Status != http.StatusNotFound {
						t.Errorf("document id %q: %d %s, want 404", bad, res.Status, res.Body)
					}
				}
			}
		})
	}
	after, afterBlobs := snapshot(t, f)
	if !reflect.DeepEqual(before, after) || !reflect.DeepEqual(beforeBlobs, afterBlobs) {
		t.Fatalf("something changed:\nbefore %v %v\nafter  %v %v", before, beforeBlobs, after, afterBlobs)
	}
	// An admin reaches the document.
	admin := accountstest.NewUser(t, f.app, "ROLE_USER", "ROLE_ADMIN")
	f.app.Get(f.documents()+"/"+doc.ID+"/content", admin.Token).Expect(http.StatusOK)
}
