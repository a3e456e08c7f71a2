package validate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/validate"
)

// world is a user who owns a property with a payment, on a running app.
type world struct {
	app      *testkit.App
	user     accountstest.User
	property string
	payment  string
}

func newWorld(t *testing.T) world {
	t.Helper()
	// No job worker: River's leader and its periodic runs write their own
	// rows while the test compares the database before and after a request.
	// Jobs a request queues are still written, and seen.
	app := testkit.Start(t, testkit.WithConfig("jobs.work", false))
	w := world{app: app, user: accountstest.NewUser(t, app)}
	var p struct {
		ID string `json:"id"`
	}
	app.Post("/api/v1/properties", w.user.Token, map[string]any{"name": "Flat", "country_code": "DE"}).Expect(http.StatusCreated).JSON(&p)
	w.property = p.ID
	app.Post(w.url("/payments"), w.user.Token, map[string]any{"amount": 10, "method": "cash"}).Expect(http.StatusCreated).JSON(&p)
	w.payment = p.ID
	return w
}

func (w world) url(rest string) string { return "/api/v1/properties/" + w.property + rest }

// dbSnapshot is every row of every table, each table's rows sorted: what a
// refused request must leave as it was.
func dbSnapshot(t *testing.T, app *testkit.App) map[string][]string {
	t.Helper()
	ctx := context.Background()
	var tables []string
	q := "SELECT name FROM sqlite_master WHERE type = 'table'"
	if app.Engine == "postgres" {
		q = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
	}
	if err := app.DB.NewRaw(q).Scan(ctx, &tables); err != nil {
		t.Fatalf("tables: %v", err)
	}
	out := map[string][]string{}
	for _, table := range tables {
		var rows []map[string]any
		if err := app.DB.NewSelect().Table(table).Scan(ctx, &rows); err != nil {
			t.Fatalf("snapshot %s: %v", table, err)
		}
		lines := make([]string, 0, len(rows))
		for _, r := range rows {
			keys := make([]string, 0, len(r))
			for k := range r {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var b strings.Builder
			for _, k := range keys {
				fmt.Fprintf(&b, "%s=%v;", k, r[k])
			}
			lines = append(lines, b.String())
		}
		sort.Strings(lines)
		out[table] = lines
	}
	return out
}

// expectRefused checks a 400 validation_failed whose details are exactly want.
func expectRefused(t *testing.T, res *testkit.Response, want ...string) {
	t.Helper()
	res.Expect(http.StatusBadRequest)
	var body struct {
		Error   string   `json:"error"`
		Details []string `json:"details"`
	}
	res.JSON(&body)
	// Details follow the body's order; maps are sent with sorted keys.
	slices.Sort(body.Details)
	slices.Sort(want)
	if body.Error != "validation_failed" || !slices.Equal(body.Details, want) {
		t.Fatalf("error %q details %q, want validation_failed %q", body.Error, body.Details, want)
	}
}

// The five 500s of issue 25: a NUL in these fields reached the database
// (SQLite: "unrecognized token"). Each is now a 400 naming the field, and
// the database is untouched; the login's before any authentication.
func TestControlCharactersInBodiesAreRefused(t *testing.T) {
	w := newWorld(t)
	const text = "~TEXT~" // where the broken text goes
	// A reversal reason may have line breaks (validate:"multiline"), and is
	// told so.
	single, multi := validate.ProblemControl, validate.ProblemControlMultiline
	for _, c := range []struct {
		name, path, token string
		body              map[string]any
		field, problem    string
	}{
		{"property name", "/api/v1/properties", w.user.Token, map[string]any{"name": text, "country_code": "DE"}, "name", single},
		{"payment reference", w.url("/payments"), w.user.Token, map[string]any{"amount": 10, "method": "cash", "reference": text}, "reference", single},
		{"charge name", w.url("/charges"), w.user.Token, map[string]any{"name": text, "amount": 10, "due_date": "2026-11-01"}, "name", single},
		{"reversal reason", w.url("/payments/" + w.payment + "/reverse"), w.user.Token, map[string]any{"reason": text}, "reason", multi},
		{"login email", "/api/v1/auth/login", "", map[string]any{"email": "anna" + text + "@example.com", "password": "Tenant-Ledger-2026"}, "email", single},
	} {
		t.Run(c.name, func(t *testing.T) {
			body, err := json.Marshal(c.body)
			if err != nil {
				t.Fatal(err)
			}
			before := dbSnapshot(t, w.app)
			// The input: a JSON-escaped NUL.
			res := w.app.Post(c.path, c.token, strings.Replace(string(body), text, `a\u0000b`, 1))
			expectRefused(t, res, c.field+": "+c.problem)
			// A raw invalid byte, which encoding/json would have made U+FFFD.
			res = w.app.Post(c.path, c.token, strings.Replace(string(body), text, "a\xffb", 1))
			expectRefused(t, res, c.field+": must be valid UTF-8")
			if after := dbSnapshot(t, w.app); !reflect.DeepEqual(before, after) {
				t.Fatalf("a refused request changed the database:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

// Multi-line text where a field declares it, one line everywhere else, and
// every control character but tab and line breaks nowhere.
func TestMultilineFields(t *testing.T) {
	w := newWorld(t)
	base := "/api/v1/contragents"
	w.app.Post(base, w.user.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Anna",
		"address": "Hauptstraße 5\r\n10115 Berlin", "notes": "line 1\n\tline 2"}).Expect(http.StatusCreated)
	before := dbSnapshot(t, w.app)
	expectRefused(t, w.app.Post(base, w.user.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Anna\nB",
		"notes": "bell\a", "tax_id": "1\t2", "email": "a\u0085@b.de"}),
		"name: must not contain control characters",
		"notes: must not contain control characters other than tab and line breaks",
		"tax_id: must not contain control characters",
		"email: must not contain control characters")
	// Fields the handler does not know are checked too: they are strings a
	// client sent.
	expectRefused(t, w.app.Post(base, w.user.Token, `{"kind":"person","roles":["tenant"],"name":"A","extra":{"x":["\u001b"]}}`),
		"extra.x[0]: must not contain control characters")
	expectRefused(t, w.app.Post(w.url("/payments/"+w.payment+"/reverse"), w.user.Token, `{"reason":"\ud800"}`),
		"reason: must be valid UTF-8")
	if after := dbSnapshot(t, w.app); !reflect.DeepEqual(before, after) {
		t.Fatal("a refused request changed the database")
	}
}

// Query and path parameters follow the same rule, before the route's own
// handlers (the guard included) run.
func TestControlCharactersInParametersAreRefused(t *testing.T) {
	w := newWorld(t)
	before := dbSnapshot(t, w.app)
	// Query: contragent search used to reach SQLite with the NUL (500).
	expectRefused(t, w.app.Get("/api/v1/contragents?q=a%00b", w.user.Token), "q: must not contain control characters")
	expectRefused(t, w.app.Get("/api/v1/contragents?q=%FF", w.user.Token), "q: must be valid UTF-8")
	expectRefused(t, w.app.Get(w.url("/payments?status=posted&from=%0A"), w.user.Token), "from: must not contain control characters")
	expectRefused(t, w.app.Get("/api/v1/contragents?%00=1", w.user.Token), "query: parameter names must not contain control characters")
	// Undeclared parameters too: every operation documents the 400.
	expectRefused(t, w.app.Get("/api/v1/auth/me?x=%7F", w.user.Token), "x: must not contain control characters")
	// Path: the agreements module decodes its parameter, so %00 would be a NUL.
	expectRefused(t, w.app.Get("/api/v1/agreement-blocks/RENT%00", ""), "code: must not contain control characters")
	expectRefused(t, w.app.Get("/api/v1/properties/%C2%85", w.user.Token), "propertyId: must not contain control characters")
	expectRefused(t, w.app.Post(w.url("/payments/%FF/reverse"), w.user.Token, map[string]any{"reason": "x"}), "paymentId: must be valid UTF-8")
	// Without a token: the rule answers first.
	expectRefused(t, w.app.Get("/api/v1/properties/%00", ""), "propertyId: must not contain control characters")
	// What stays allowed: percent-encoded UTF-8 and plain escapes.
	w.app.Get("/api/v1/contragents?q=M%C3%BCller+%26+S%C3%B6hne", w.user.Token).Expect(http.StatusOK)
	w.app.Get("/api/v1/agreement-blocks/RENT%20X", "").Expect(http.StatusNotFound)
	if after := dbSnapshot(t, w.app); !reflect.DeepEqual(before, after) {
		t.Fatal("a refused request changed the database")
	}
}
