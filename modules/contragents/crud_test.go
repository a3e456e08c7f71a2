package contragents_test

import (
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/propman/propman/platform/testkit"
)

func TestCreateGetUpdateDelete(t *testing.T) {
	app := testkit.Start(t)
	u := newUser(t, app)

	created := create(t, app, u.Token, map[string]any{
		"kind": "company", "roles": []string{"provider", "tenant"}, "name": "  Stadtwerke GmbH ",
		"email": " Service@Stadtwerke.Example ", "phone": "+4930123456", "address": "Str. 1\nBerlin",
		"tax_id": " DE123 ", "notes": "pays late",
		// Not settable or unknown: ignored.
		"id": "01900000-0000-7000-8000-000000000000", "owner_id": 999, "created_at": "2000-01-01T00:00:00Z", "colour": "red",
	})
	want := contragent{ID: created.ID, Kind: "company", Roles: []string{"tenant", "provider"}, Name: "Stadtwerke GmbH",
		Email: "service@stadtwerke.example", Phone: "+4930123456", Address: "Str. 1\nBerlin", TaxID: "DE123", Notes: "pays late",
		CreatedAt: "2026-11-22T10:00:00Z", UpdatedAt: "2026-11-22T10:00:00Z"}
	if !reflect.DeepEqual(created, want) {
		t.Fatalf("created %+v\nwant    %+v", created, want)
	}
	if created.ID == "01900000-0000-7000-8000-000000000000" || len(created.ID) != 36 || created.ID[14] != '7' {
		t.Fatalf("id %q is not a fresh UUID v7", created.ID)
	}
	var got contragent
	app.Get(base+"/"+created.ID, u.Token).Expect(http.StatusOK).JSON(&got)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("get %+v, want %+v", got, want)
	}

	// PUT is partial: fields left out (or null) keep their value, "" clears.
	app.Clock.Advance(10 * time.Minute)
	var updated contragent
	app.Put(base+"/"+created.ID, u.Token, map[string]any{
		"roles": []string{"guarantor"}, "phone": "", "notes": nil, "updated_at": "2000-01-01T00:00:00Z",
	}).Expect(http.StatusOK).JSON(&updated)
	want.Roles, want.Phone, want.UpdatedAt = []string{"guarantor"}, "", "2026-11-22T10:10:00Z"
	if !reflect.DeepEqual(updated, want) {
		t.Fatalf("updated %+v\nwant    %+v", updated, want)
	}
	// A PUT that changes nothing keeps updated_at.
	app.Clock.Advance(10 * time.Minute)
	app.Put(base+"/"+created.ID, u.Token, map[string]any{"name": "Stadtwerke GmbH"}).Expect(http.StatusOK).JSON(&updated)
	if updated.UpdatedAt != "2026-11-22T10:10:00Z" {
		t.Fatalf("no-op update moved updated_at to %s", updated.UpdatedAt)
	}

	app.Delete(base+"/"+created.ID, u.Token).Expect(http.StatusNoContent)
	app.Get(base+"/"+created.ID, u.Token).Expect(http.StatusNotFound)
	app.Delete(base+"/"+created.ID, u.Token).Expect(http.StatusNotFound)
}
