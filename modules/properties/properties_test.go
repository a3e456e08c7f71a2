package properties_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

type property struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Address     string `json:"address"`
	City        string `json:"city"`
	PostalCode  string `json:"postal_code"`
	CountryCode string `json:"country_code"`
	Currency    string `json:"currency"`
	CreatedAt   string `json:"created_at"`
	UpdatedAt   string `json:"updated_at"`
}

type propertyList struct {
	Properties []property `json:"properties"`
	Total      int        `json:"total"`
	Page       int        `json:"page"`
	PerPage    int        `json:"per_page"`
}

func count(t *testing.T, app *testkit.App) int {
	t.Helper()
	n, err := app.DB.NewSelect().Table("properties").Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func TestCreateGetUpdateDelete(t *testing.T) {
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)

	var created property
	app.Post("/api/v1/properties", u.Token, map[string]any{
		"name": "  Flat 3, Hauptstr. 5 ", "address": "Hauptstr. 5", "city": "Berlin",
		"postal_code": "10115", "country_code": "de",
		// Not settable: ignored.
		"id": "01900000-0000-7000-8000-000000000000", "owner_id": 999, "created_at": "2000-01-01T00:00:00Z",
	}).Expect(http.StatusCreated).JSON(&created)
	want := property{ID: created.ID, Name: "Flat 3, Hauptstr. 5", Address: "Hauptstr. 5", City: "Berlin",
		PostalCode: "10115", CountryCode: "DE", Currency: "EUR",
		CreatedAt: "2026-11-22T10:00:00Z", UpdatedAt: "2026-11-22T10:00:00Z"}
	if created != want {
		t.Fatalf("created %+v\nwant    %+v", created, want)
	}
	if created.ID == "01900000-0000-7000-8000-000000000000" || len(created.ID) != 36 || created.ID[14] != '7' {
		t.Fatalf("id %q is not a fresh UUID v7", created.ID)
	}

	var got property
	app.Get("/api/v1/properties/"+created.ID, u.Token).Expect(http.StatusOK).JSON(&got)
	if got != want {
		t.Fatalf("get %+v, want %+v", got, want)
	}

	app.Clock.Advance(time.Hour)
	var updated property
	app.Put("/api/v1/properties/"+created.ID, u.Token, map[string]any{
		"name": "Flat 3", "country_code": "CH", "updated_at": "2000-01-01T00:00:00Z", "id": "x",
	}).Expect(http.StatusOK).JSON(&updated)
	want.Name, want.CountryCode, want.Currency, want.UpdatedAt = "Flat 3", "CH", "CHF", "2026-11-22T11:00:00Z"
	if updated != want {
		t.Fatalf("updated %+v\nwant    %+v", updated, want)
	}
	// An explicit currency wins over the country's.
	app.Put("/api/v1/properties/"+created.ID, u.Token, map[string]any{"currency": "usd"}).Expect(http.StatusOK).JSON(&updated)
	if updated.Currency != "USD" || updated.CountryCode != "CH" || updated.Name != "Flat 3" {
		t.Fatalf("after currency change: %+v", updated)
	}
	app.Get("/api/v1/properties/"+created.ID, u.Token).Expect(http.StatusOK).JSON(&got)
	if got != updated {
		t.Fatalf("stored %+v, answered %+v", got, updated)
	}

	app.Delete("/api/v1/properties/"+created.ID, u.Token).Expect(http.StatusNoContent)
	app.Get("/api/v1/properties/"+created.ID, u.Token).Expect(http.StatusNotFound)
	app.Delete("/api/v1/properties/"+created.ID, u.Token).Expect(http.StatusNotFound)
	if n := count(t, app); n != 0 {
		t.Fatalf("%d properties left", n)
	}
}

func TestCreateRejectsBadInput(t *testing.T) {
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)
	long := strings.Repeat("x", 201)
	cases := []struct {
		name   string
		body   any
		detail string
	}{
		{"no body", "", "body: a JSON object is required"},
		{"malformed", `{"name":`, "body: the JSON ends too early"},
		{"not an object", `[1]`, "body: must be a JSON object"},
		{"name missing", map[string]any{"country_code": "DE"}, "name: is required"},
		{"name blank", map[string]any{"name": "   ", "country_code": "DE"}, "name: must be at least 1 characters"},
		{"name too long", map[string]any{"name": long, "country_code": "DE"}, "name: must be at most 200 characters"},
		{"name not a string", map[string]any{"name": 5, "country_code": "DE"}, "name: must be a string, not number"},
		{"country missing", map[string]any{"name": "A"}, "country_code: is required"},
		{"country unknown", map[string]any{"name": "A", "country_code": "XX"}, "country_code: must be the code of an active country (GET /api/v1/countries)"},
		{"country too long", map[string]any{"name": "A", "country_code": "DEU"}, "country_code: must be exactly 2 characters"},
		{"currency unknown", map[string]any{"name": "A", "country_code": "DE", "currency": "XYZ"}, "currency: must be an ISO 4217 currency code such as EUR"},
		{"currency wrong length", map[string]any{"name": "A", "country_code": "DE", "currency": "EURO"}, "currency: must be exactly 3 characters"},
		{"address too long", map[string]any{"name": "A", "country_code": "DE", "address": strings.Repeat("a", 501)}, "address: must be at most 500 characters"},
		{"postal code too long", map[string]any{"name": "A", "country_code": "DE", "postal_code": strings.Repeat("1", 21)}, "postal_code: must be at most 20 characters"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := app.Post("/api/v1/properties", u.Token, tc.body).Expect(http.StatusBadRequest)
			body := res.Map()
			if body["error"] != "validation_failed" || !strings.Contains(res.String(), tc.detail) {
				t.Fatalf("body %s, want validation_failed with %q", res.String(), tc.detail)
			}
		})
	}
	if n := count(t, app); n != 0 {
		t.Fatalf("bad input stored %d properties", n)
	}
}

func TestUpdateRejectsBadInputAndChangesNothing(t *testing.T) {
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)
	var p property
	app.Post("/api/v1/properties", u.Token, map[string]any{"name": "A", "country_code": "FR"}).Expect(http.StatusCreated).JSON(&p)
	app.Clock.Advance(time.Minute)
	for _, body := range []any{
		map[string]any{"name": ""},
		map[string]any{"name": "B", "country_code": "ZZ"},
		map[string]any{"name": "B", "currency": "ABC"},
		`{"name": "B"`,
	} {
		app.Put("/api/v1/properties/"+p.ID, u.Token, body).Expect(http.StatusBadRequest)
	}
	var got property
	app.Get("/api/v1/properties/"+p.ID, u.Token).Expect(http.StatusOK).JSON(&got)
	if got != p {
		t.Fatalf("after rejected updates %+v, want %+v", got, p)
	}
	// An empty update changes nothing, not even updated_at.
	app.Put("/api/v1/properties/"+p.ID, u.Token, map[string]any{}).Expect(http.StatusOK).JSON(&got)
	if got != p {
		t.Fatalf("after empty update %+v, want %+v", got, p)
	}
}

func TestListIsPaginatedAndOwnOnly(t *testing.T) {
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)
	other := accountstest.NewUser(t, app)
	admin := accountstest.NewUser(t, app, "ROLE_USER", "ROLE_ADMIN")
	app.Post("/api/v1/properties", other.Token, map[string]any{"name": "Other's", "country_code": "DE"}).Expect(http.StatusCreated)
	var ids []string
	for i := range 5 {
		var p property
		app.Post("/api/v1/properties", u.Token, map[string]any{"name": "P" + string(rune('1'+i)), "country_code": "DE"}).
			Expect(http.StatusCreated).JSON(&p)
		ids = append(ids, p.ID)
	}
	var l propertyList
	app.Get("/api/v1/properties", u.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 5 || l.Page != 1 || l.PerPage != 50 || len(l.Properties) != 5 || l.Properties[0].ID != ids[0] || l.Properties[4].ID != ids[4] {
		t.Fatalf("default page: %+v", l)
	}
	app.Get("/api/v1/properties?page=2&per_page=2", u.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 5 || l.Page != 2 || l.PerPage != 2 || len(l.Properties) != 2 || l.Properties[0].ID != ids[2] || l.Properties[1].ID != ids[3] {
		t.Fatalf("page 2 of 2: %+v", l)
	}
	app.Get("/api/v1/properties?page=9&per_page=200", u.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 5 || len(l.Properties) != 0 {
		t.Fatalf("past the end: %+v", l)
	}
	for _, q := range []string{"page=0", "page=x", "per_page=0", "per_page=201", "per_page=-1", "page=1.5"} {
		res := app.Get("/api/v1/properties?"+q, u.Token).Expect(http.StatusBadRequest)
		if res.Map()["error"] != "validation_failed" {
			t.Fatalf("%s: %s", q, res.String())
		}
	}
	// An admin's list holds the admin's own properties; others' are reached by id.
	app.Get("/api/v1/properties", admin.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 0 || len(l.Properties) != 0 {
		t.Fatalf("admin list: %+v", l)
	}
}

func TestAccess(t *testing.T) {
	app := testkit.Start(t)
	owner := accountstest.NewUser(t, app)
	stranger := accountstest.NewUser(t, app)
	admin := accountstest.NewUser(t, app, "ROLE_USER", "ROLE_ADMIN")
	var p property
	app.Post("/api/v1/properties", owner.Token, map[string]any{"name": "Mine", "country_code": "DE"}).Expect(http.StatusCreated).JSON(&p)
	path := "/api/v1/properties/" + p.ID

	res := app.Get(path, stranger.Token).Expect(http.StatusForbidden)
	if m := res.Map(); m["error"] != "forbidden" || m["message"] == "" {
		t.Fatalf("403 body: %s", res.String())
	}
	app.Put(path, stranger.Token, map[string]any{"name": "Theirs"}).Expect(http.StatusForbidden)
	app.Put(path, stranger.Token, map[string]any{"name": ""}).Expect(http.StatusForbidden)
	app.Delete(path, stranger.Token).Expect(http.StatusForbidden)

	res = app.Get(path, "").Expect(http.StatusUnauthorized)
	if m := res.Map(); m["code"] != float64(401) || m["message"] != "JWT Token not found" {
		t.Fatalf("401 body: %s", res.String())
	}
	for _, id := range []string{"nope", "01900000-0000-7000-8000-00000000000", strings.ToUpper(p.ID[:35]) + "Z", "019a0000-0000-7000-8000-000000000000"} {
		res := app.Get("/api/v1/properties/"+id, owner.Token).Expect(http.StatusNotFound)
		if res.Map()["error"] != "not_found" {
			t.Fatalf("404 body: %s", res.String())
		}
	}

	var got property
	app.Get(path, admin.Token).Expect(http.StatusOK).JSON(&got)
	if got != p {
		t.Fatalf("admin sees %+v, want %+v", got, p)
	}
	app.Put(path, admin.Token, map[string]any{"name": "Renamed by admin"}).Expect(http.StatusOK).JSON(&got)
	if got.Name != "Renamed by admin" {
		t.Fatalf("admin update: %+v", got)
	}
	app.Get(path, owner.Token).Expect(http.StatusOK).JSON(&got)
	if got.Name != "Renamed by admin" {
		t.Fatalf("owner sees %+v", got)
	}
	app.Delete(path, admin.Token).Expect(http.StatusNoContent)
	if n := count(t, app); n != 0 {
		t.Fatalf("%d properties left", n)
	}
}
