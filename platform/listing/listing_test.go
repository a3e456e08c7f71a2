package listing_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/listing"
)

// parse runs listing.Parse on a request for url inside a Fiber handler and
// returns what it gave; the query is read after the handler returned, as a
// service might keep it.
func parse(t *testing.T, url string, filters ...listing.Filter) (listing.Query, error) {
	t.Helper()
	var (
		got    listing.Query
		gotErr error
		calls  int
	)
	app := fiber.New()
	app.Get("/", func(c *fiber.Ctx) error {
		calls++
		if calls == 1 {
			got, gotErr = listing.Parse(c, filters...)
		}
		return c.SendStatus(fiber.StatusNoContent)
	})
	resp, err := app.Test(httptest.NewRequest("GET", url, nil))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	// A second request reuses the buffers the first one's strings pointed to.
	resp, err = app.Test(httptest.NewRequest("GET", "/?status=XXXX&q=YYYYYYYYYYYYYYYY", nil))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return got, gotErr
}

func TestParse(t *testing.T) {
	filters := []listing.Filter{
		listing.OneOf("status", "open", "closed"),
		listing.UUID("contract_id"),
		listing.Date("from"),
		listing.Month("since"),
		listing.Text("q", 10),
	}
	cases := []struct {
		name    string
		url     string
		page    int
		perPage int
		values  map[string]string
		details []string
	}{
		{name: "defaults", url: "/", page: 1, perPage: 50, values: map[string]string{}},
		{name: "page and size", url: "/?page=3&per_page=200", page: 3, perPage: 200, values: map[string]string{}},
		{
			name: "every filter", url: "/?status=open&contract_id=0194f6a4-2c3e-7b1a-9c7d-1e2f3a4b5c6d&from=2026-01-31&since=2026-02&q=smith",
			page: 1, perPage: 50,
			values: map[string]string{
				"status": "open", "contract_id": "0194f6a4-2c3e-7b1a-9c7d-1e2f3a4b5c6d",
				"from": "2026-01-31", "since": "2026-02", "q": "smith",
			},
		},
		{name: "undeclared parameters are ignored", url: "/?colour=red", page: 1, perPage: 50, values: map[string]string{"colour": ""}},
		{
			name: "every problem at once",
			url:  "/?page=0&per_page=201&status=gone&contract_id=7&from=2026-02-30&since=2026-13&q=" + strings.Repeat("a", 11),
			details: []string{
				"page: must be a whole number from 1",
				"per_page: must be a whole number from 1 to 200",
				"status: must be one of open, closed",
				"contract_id: must be a UUID",
				"from: must be a date (YYYY-MM-DD)",
				"since: must be a month (YYYY-MM)",
				"q: must be at most 10 characters",
			},
		},
		{name: "not a number", url: "/?page=two&per_page=-1", details: []string{
			"page: must be a whole number from 1", "per_page: must be a whole number from 1 to 200",
		}},
		{name: "default length bound", url: "/?status=" + strings.Repeat("x", 201), details: []string{
			"status: must be at most 200 characters",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, err := parse(t, tc.url, filters...)
			if tc.details != nil {
				e, ok := apierror.As(err)
				if !ok || e.Status != 400 || e.Code != "validation_failed" {
					t.Fatalf("error = %v, want 400 validation_failed", err)
				}
				if !reflect.DeepEqual(e.Details, tc.details) {
					t.Fatalf("details = %q, want %q", e.Details, tc.details)
				}
				return
			}
			if err != nil {
				t.Fatalf("error = %v", err)
			}
			if q.Page != tc.page || q.PerPage != tc.perPage {
				t.Errorf("page, per_page = %d, %d, want %d, %d", q.Page, q.PerPage, tc.page, tc.perPage)
			}
			if q.Offset() != (tc.page-1)*tc.perPage {
				t.Errorf("offset = %d", q.Offset())
			}
			for name, want := range tc.values {
				if got := q.Get(name); got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
		})
	}
}

func TestPageJSON(t *testing.T) {
	type rec struct{ N int }
	q, err := parse(t, "/?page=2&per_page=2")
	if err != nil {
		t.Fatal(err)
	}
	double := func(r *rec) int { return r.N * 2 }
	cases := []struct {
		name    string
		records []rec
		res     listing.Result
		want    string
	}{
		{name: "items", records: []rec{{1}, {2}}, res: listing.Result{Total: 7, Counted: true, Next: "abc_-"},
			want: `{"things":[2,4],"total":7,"page":2,"per_page":2,"next":"abc_-"}`},
		{name: "empty is an array", records: nil, res: listing.Result{Total: 7, Counted: true},
			want: `{"things":[],"total":7,"page":2,"per_page":2,"next":null}`},
		{name: "a cursor page has no total and no page", records: []rec{{3}}, res: listing.Result{Next: "xyz"},
			want: `{"things":[6],"per_page":2,"next":"xyz"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// EncodeJSON's bytes go to the client as they are
			// (httpserver.SelfEncoded): compact and valid, and the same
			// inside another body.
			page := listing.NewPage("things", tc.records, double, tc.res, q)
			b, err := page.EncodeJSON()
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Fatalf("got %s, want %s", b, tc.want)
			}
			if !json.Valid(b) {
				t.Fatal("not valid JSON")
			}
			inside, err := json.Marshal(map[string]any{"p": page})
			if err != nil || string(inside) != `{"p":`+tc.want+`}` {
				t.Fatalf("inside another body: %s, %v", inside, err)
			}
		})
	}
}

func TestParseAfter(t *testing.T) {
	good := base64.RawURLEncoding.EncodeToString([]byte(`{"o":"things:id","k":["x"]}`))
	cases := []struct {
		name    string
		url     string
		after   bool
		details []string
	}{
		{name: "none", url: "/"},
		{name: "a cursor", url: "/?after=" + good, after: true},
		{name: "with per_page", url: "/?per_page=5&after=" + good, after: true},
		{name: "padding is not base64url without it", url: "/?after=" + good + "%3D", details: []string{"after: must be the next value of an earlier answer of this list"}},
		{name: "no keys", url: "/?after=" + base64.RawURLEncoding.EncodeToString([]byte(`{"o":"things:id","k":[]}`)), details: []string{"after: must be the next value of an earlier answer of this list"}},
		{name: "no order", url: "/?after=" + base64.RawURLEncoding.EncodeToString([]byte(`{"k":["x"]}`)), details: []string{"after: must be the next value of an earlier answer of this list"}},
		{name: "too long", url: "/?after=" + strings.Repeat("A", 513), details: []string{"after: must be the next value of an earlier answer of this list"}},
		{name: "with page", url: "/?page=1&after=" + good, details: []string{"after: cannot be combined with page"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, err := parse(t, tc.url)
			if tc.details != nil {
				e, ok := apierror.As(err)
				if !ok || e.Status != 400 || !reflect.DeepEqual(e.Details, tc.details) {
					t.Fatalf("error = %v, want %q", err, tc.details)
				}
				return
			}
			if err != nil || q.After() != tc.after {
				t.Fatalf("after = %v, error %v", q.After(), err)
			}
		})
	}
}
