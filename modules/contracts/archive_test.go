package contracts_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// An archived property takes no new contract: creating, changing or
// activating one answers 409 property_archived and writes nothing; what
// runs goes on; unarchiving lets the draft through again.
func TestArchivedPropertyTakesNoContract(t *testing.T) {
	f := start(t)
	draft := f.create(t, "A-1", rentTerms("2026-12-01")...)
	running := f.create(t, "A-0", term{"MONTHLY_RENT_AMOUNT", 500}, term{"CONTRACT_START_DATE", "2026-01-01"},
		term{"CONTRACT_END_DATE", "2026-11-30"})
	f.app.Post(base+"/"+running.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)

	var prop struct {
		ArchivedAt *string `json:"archived_at"`
	}
	propURL := "/api/v1/properties/" + f.property
	f.app.Post(propURL+"/archive", f.user.Token, nil).Expect(http.StatusOK).JSON(&prop)
	if prop.ArchivedAt == nil {
		t.Fatal("archive: archived_at is null")
	}
	first := *prop.ArchivedAt
	f.app.Post(propURL+"/archive", f.user.Token, nil).Expect(http.StatusOK).JSON(&prop)
	if prop.ArchivedAt == nil || *prop.ArchivedAt != first {
		t.Fatalf("second archive changed archived_at: %v", prop.ArchivedAt)
	}

	before := snapshot(t, f.app)
	refusals := []struct {
		name, method, path string
		body               any
	}{
		{"create", http.MethodPost, base, f.body("A-2", rentTerms("2027-01-01")...)},
		{"update", http.MethodPut, base + "/" + draft.ID, map[string]any{"number": "A-1b"}},
		{"activate", http.MethodPost, base + "/" + draft.ID + "/activate", nil},
	}
	for _, r := range refusals {
		res := f.app.Do(testkit.Request{Method: r.method, Path: r.path, Token: f.user.Token, Body: r.body}).Expect(http.StatusConflict)
		if m := res.Map(); m["error"] != "property_archived" {
			t.Errorf("%s: %s", r.name, res.String())
		}
	}
	if after := snapshot(t, f.app); !reflect.DeepEqual(before, after) {
		t.Fatal("a refused request wrote something")
	}
	// What runs goes on: the running contract is still billed.
	if r := f.refresh(t); r.Created != 1 {
		t.Fatalf("refresh on an archived property: %+v", r)
	}

	var list struct {
		Total int `json:"total"`
	}
	f.app.Get("/api/v1/properties?archived=true", f.user.Token).Expect(http.StatusOK).JSON(&list)
	if list.Total != 1 {
		t.Fatalf("archived list: %d", list.Total)
	}
	f.app.Get("/api/v1/properties?archived=false", f.user.Token).Expect(http.StatusOK).JSON(&list)
	if list.Total != 0 {
		t.Fatalf("in-use list: %d", list.Total)
	}
	f.app.Get("/api/v1/properties?archived=maybe", f.user.Token).Expect(http.StatusBadRequest)

	f.app.Post(propURL+"/unarchive", f.user.Token, nil).Expect(http.StatusOK).JSON(&prop)
	if prop.ArchivedAt != nil {
		t.Fatalf("unarchive left %v", *prop.ArchivedAt)
	}
	f.app.Post(base+"/"+draft.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)

	other := newUserFor(t, f)
	f.app.Post(propURL+"/archive", other.Token, nil).Expect(http.StatusForbidden)
}
