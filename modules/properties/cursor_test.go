package properties_test

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// A landlord's properties read through cursors are the same as read in
// one page: every one once, in id order, and a property added during the
// walk shows up at the end instead of shifting a page (as OFFSET would).
func TestCursorWalk(t *testing.T) {
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)
	stranger := accountstest.NewUser(t, app)
	create := func(token, name string) string {
		var p property
		app.Post("/api/v1/properties", token, map[string]any{"name": name, "country_code": "DE"}).Expect(http.StatusCreated).JSON(&p)
		return p.ID
	}
	var want []string
	for i := range 7 {
		want = append(want, create(u.Token, "Unit "+string(rune('A'+i))))
	}
	create(stranger.Token, "Not mine")
	slices.Sort(want)

	if got := app.Walk("/api/v1/properties", u.Token, "properties", 3); !slices.Equal(got, want) {
		t.Fatalf("walk = %v\nwant   %v", got, want)
	}
	if got := app.Walk("/api/v1/properties", u.Token, "properties", 7); !slices.Equal(got, want) {
		t.Fatalf("walk of one full page = %v", got)
	}
	var all propertyList
	app.Get("/api/v1/properties?per_page=200", u.Token).Expect(http.StatusOK).JSON(&all)
	if all.Total != 7 || len(all.Properties) != 7 || all.Properties[6].ID != want[6] {
		t.Fatalf("one page: %+v", all)
	}

	var first struct {
		Properties []property `json:"properties"`
		Next       *string    `json:"next"`
		Total      int        `json:"total"`
	}
	app.Get("/api/v1/properties?per_page=3", u.Token).Expect(http.StatusOK).JSON(&first)
	if first.Next == nil || first.Total != 7 {
		t.Fatalf("first page: %+v", first)
	}
	// A counted page reads its rows and the total in one statement; a page
	// past the end has no row to carry it and counts apart. Either way the
	// total is of the filtered list, not of the page or of everybody's.
	for query, want := range map[string]int{"page=2&per_page=3": 7, "page=3&per_page=3": 7, "page=9&per_page=3": 7,
		"archived=false&per_page=2": 7, "archived=true&per_page=2": 0, "archived=true&page=4": 0} {
		var p propertyList
		app.Get("/api/v1/properties?"+query, u.Token).Expect(http.StatusOK).JSON(&p)
		if p.Total != want {
			t.Fatalf("%s: total %d, want %d", query, p.Total, want)
		}
	}
	added := create(u.Token, "Added while walking")
	var rest []string
	for after := *first.Next; after != ""; {
		var page struct {
			Properties []property `json:"properties"`
			Next       *string    `json:"next"`
		}
		app.Get("/api/v1/properties?per_page=3&after="+url.QueryEscape(after), u.Token).Expect(http.StatusOK).JSON(&page)
		for _, p := range page.Properties {
			rest = append(rest, p.ID)
		}
		after = ""
		if page.Next != nil {
			after = *page.Next
		}
	}
	if wantRest := append(slices.Clone(want[3:]), added); !slices.Equal(rest, wantRest) {
		t.Fatalf("after the first page = %v\nwant %v", rest, wantRest)
	}
}

// A cursor is checked: anything but a next of this list is a 400 that
// names the parameter, and after does not combine with page.
func TestBadCursors(t *testing.T) {
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)
	for range 3 {
		app.Post("/api/v1/properties", u.Token, map[string]any{"name": "P", "country_code": "DE"}).Expect(http.StatusCreated)
	}
	var page struct {
		Next *string `json:"next"`
	}
	app.Get("/api/v1/properties?per_page=1", u.Token).Expect(http.StatusOK).JSON(&page)
	if page.Next == nil {
		t.Fatal("no next on a full first page")
	}
	enc := base64.RawURLEncoding.EncodeToString
	cases := map[string]string{
		"not base64":            "%%%",
		"not JSON":              enc([]byte("hello")),
		"another list":          enc([]byte(`{"o":"charges:due_date,id","k":["2026-01-01","0194f6a4-2c3e-7b1a-9c7d-1e2f3a4b5c6d"]}`)),
		"another order":         enc([]byte(`{"o":"properties:id DESC","k":["0194f6a4-2c3e-7b1a-9c7d-1e2f3a4b5c6d"]}`)),
		"key of the wrong type": enc([]byte(`{"o":"properties:id","k":[42]}`)),
		"not a uuid":            enc([]byte(`{"o":"properties:id","k":["x' OR 1=1 --"]}`)),
		"null key":              enc([]byte(`{"o":"properties:id","k":[null]}`)),
		"too many keys":         enc([]byte(`{"o":"properties:id","k":["0194f6a4-2c3e-7b1a-9c7d-1e2f3a4b5c6d","x"]}`)),
		"too long":              enc(make([]byte, 600)),
	}
	for name, after := range cases {
		t.Run(name, func(t *testing.T) {
			res := app.Get("/api/v1/properties?after="+url.QueryEscape(after), u.Token).Expect(http.StatusBadRequest)
			body := res.Map()
			details, _ := body["details"].([]any)
			if body["error"] != "validation_failed" || len(details) != 1 || details[0] != "after: must be the next value of an earlier answer of this list" {
				t.Fatalf("body %s", res.String())
			}
		})
	}
	res := app.Get("/api/v1/properties?page=2&after="+url.QueryEscape(*page.Next), u.Token).Expect(http.StatusBadRequest)
	if details, _ := res.Map()["details"].([]any); len(details) != 1 || details[0] != "after: cannot be combined with page" {
		t.Fatalf("after with page: %s", res.String())
	}
}
