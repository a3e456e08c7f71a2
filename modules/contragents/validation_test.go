package contragents_test

import (
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

func details(t *testing.T, res *testkit.Response) []string {
	t.Helper()
	var body struct {
		Error   string   `json:"error"`
		Details []string `json:"details"`
	}
	res.Expect(http.StatusBadRequest).JSON(&body)
	if body.Error != "validation_failed" {
		t.Fatalf("error %q, want validation_failed: %s", body.Error, res.String())
	}
	return body.Details
}

func TestEveryBrokenFieldIsNamedAndNothingWritten(t *testing.T) {
	app := testkit.Start(t)
	u := newUser(t, app)

	got := details(t, app.Post(base, u.Token, map[string]any{"email": "x"}))
	want := []string{"kind: is required", "roles: is required", "name: is required", "email: must be a valid email address"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("details %q\nwant    %q", got, want)
	}
	got = details(t, app.Post(base, u.Token, map[string]any{
		"kind": "robot", "roles": []string{"tenant", "landlord"}, "name": "  ", "email": strings.Repeat("a", 250) + "@x.de",
		"phone": "0049301234", "address": strings.Repeat("a", 501), "tax_id": strings.Repeat("1", 51),
		"notes": strings.Repeat("n", 2001),
	}))
	for _, field := range []string{"kind:", "roles:", "name:", "email:", "phone:", "address:", "tax_id:", "notes:"} {
		if !slices.ContainsFunc(got, func(d string) bool { return strings.HasPrefix(d, field) }) {
			t.Errorf("no detail for %s in %q", field, got)
		}
	}
	if len(got) != 8 {
		t.Errorf("%d details, want 8: %q", len(got), got)
	}
	for _, roles := range [][]string{{}, {"tenant", "tenant"}, {"Tenant"}} {
		got = details(t, app.Post(base, u.Token, map[string]any{"kind": "person", "roles": roles, "name": "A"}))
		if len(got) != 1 || !strings.HasPrefix(got[0], "roles: ") {
			t.Errorf("roles %q: details %q", roles, got)
		}
	}
	// Control characters in one-line fields.
	got = details(t, app.Post(base, u.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "A\x00B", "tax_id": "1\n2"}))
	if len(got) != 2 {
		t.Errorf("control characters: %q", got)
	}
	// Wrong JSON types and malformed JSON are 400 too.
	app.Post(base, u.Token, map[string]any{"kind": "person", "roles": "tenant", "name": "A"}).Expect(http.StatusBadRequest)
	app.Post(base, u.Token, "{").Expect(http.StatusBadRequest)
	if rows := snapshot(t, app); len(rows) != 0 {
		t.Fatalf("%d rows written by refused requests", len(rows))
	}

	// The bounds themselves are accepted (names count characters, not bytes).
	c := create(t, app, u.Token, map[string]any{
		"kind": "person", "roles": []string{"tenant", "guarantor", "provider"}, "name": strings.Repeat("ä", 200),
		"email": strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 61),
		"phone": "+123456789012345", "address": strings.Repeat("ü", 500), "tax_id": strings.Repeat("1", 50),
		"notes": strings.Repeat("n", 2000),
	})
	if len(c.Email) != 254 || len([]rune(c.Name)) != 200 {
		t.Fatalf("bounds: email %d, name %d", len(c.Email), len([]rune(c.Name)))
	}
	got = details(t, app.Post(base, u.Token, map[string]any{"kind": "person", "roles": []string{"tenant"},
		"name": strings.Repeat("ä", 201), "phone": "+1234567890123456", "email": "a" + c.Email}))
	if len(got) != 3 {
		t.Fatalf("one over the bounds: %q", got)
	}

	// PUT checks the fields given, and writes nothing when one is broken.
	before := snapshot(t, app)
	got = details(t, app.Put(base+"/"+c.ID, u.Token, map[string]any{"name": "", "roles": []string{}, "phone": "12", "kind": "x"}))
	if len(got) != 4 {
		t.Fatalf("PUT details %q", got)
	}
	if after := snapshot(t, app); !reflect.DeepEqual(before, after) {
		t.Fatal("a refused PUT changed the row")
	}
}

func TestListFiltersSearchAndPages(t *testing.T) {
	app := testkit.Start(t)
	u := newUser(t, app)
	other := newUser(t, app)
	create(t, app, other.Token, tenant("Anna Other"))

	anna := create(t, app, u.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Änna Schmidt", "email": "anna@example.com"})
	bob := create(t, app, u.Token, map[string]any{"kind": "person", "roles": []string{"tenant", "guarantor"}, "name": "Bob", "email": "BOB@SCHMIDT.example"})
	werke := create(t, app, u.Token, map[string]any{"kind": "company", "roles": []string{"provider"}, "name": "100% Strom_Werke"})
	plain := create(t, app, u.Token, map[string]any{"kind": "company", "roles": []string{"provider"}, "name": "1000 Strom Werke"})

	list := func(query string) []string {
		t.Helper()
		var l contragentList
		app.Get(base+query, u.Token).Expect(http.StatusOK).JSON(&l)
		var ids []string
		for _, c := range l.Contragents {
			ids = append(ids, c.ID)
		}
		if l.Total != len(ids) && !strings.Contains(query, "per_page") {
			t.Errorf("%s: total %d for %d items", query, l.Total, len(ids))
		}
		return ids
	}
	cases := map[string][]string{
		"":                          {anna.ID, bob.ID, werke.ID, plain.ID},
		"?role=tenant":              {anna.ID, bob.ID},
		"?role=guarantor":           {bob.ID},
		"?role=provider":            {werke.ID, plain.ID},
		"?kind=company":             {werke.ID, plain.ID},
		"?q=SCHMIDT":                {anna.ID, bob.ID}, // name of one, email of the other
		"?q=%C3%A4NNA":              {anna.ID},         // "äNNA": Unicode case folding, same on both engines
		"?q=%C3%84nna":              {anna.ID},
		"?q=%20anna%20":             {anna.ID},  // trimmed
		"?q=100%25":                 {werke.ID}, // "%" is a plain character
		"?q=m_w":                    {werke.ID}, // and so is "_"
		"?q=m%20w":                  {plain.ID},
		"?q=!":                      nil,
		"?q=schmidt&role=guarantor": {bob.ID},
		"?q=nobody":                 nil,
	}
	for query, want := range cases {
		if got := list(query); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", query, got, want)
		}
	}

	var l contragentList
	app.Get(base+"?per_page=3&page=2", u.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 4 || l.Page != 2 || l.PerPage != 3 || len(l.Contragents) != 1 || l.Contragents[0].ID != plain.ID {
		t.Fatalf("page 2 of 3: %+v", l)
	}
	got := details(t, app.Get(base+"?role=landlord&kind=robot&page=0&per_page=201&q="+strings.Repeat("x", 201), u.Token))
	if len(got) != 5 {
		t.Fatalf("bad filters: %q", got)
	}
}
