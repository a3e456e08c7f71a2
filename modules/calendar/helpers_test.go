package calendar_test

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

func init() {
	// The validator reads the feed as the string doc.json says it is.
	openapi3filter.RegisterBodyDecoder("text/calendar", func(body io.Reader, _ http.Header, _ *openapi3.SchemaRef,
		_ openapi3filter.EncodingFn) (any, error) {
		b, err := io.ReadAll(body)
		return string(b), err
	})
}

const base = "/api/v1/calendar-events"

type event struct {
	ID         string   `json:"id"`
	Title      string   `json:"title"`
	Kind       string   `json:"kind"`
	StartsAt   string   `json:"starts_at"`
	EndsAt     string   `json:"ends_at"`
	AllDay     bool     `json:"all_day"`
	TimeZone   string   `json:"time_zone"`
	RRule      *string  `json:"rrule"`
	ExDates    []string `json:"exdates"`
	PropertyID *string  `json:"property_id"`
	ContractID *string  `json:"contract_id"`
	Attendees  []string `json:"attendees"`
	Reminders  []int    `json:"reminders"`
	Sequence   int      `json:"sequence"`
}

type occurrence struct {
	ID           string  `json:"id"`
	Source       string  `json:"source"`
	EventID      *string `json:"event_id"`
	Kind         string  `json:"kind"`
	Title        string  `json:"title"`
	StartsAt     string  `json:"starts_at"`
	EndsAt       string  `json:"ends_at"`
	AllDay       bool    `json:"all_day"`
	RecurrenceID *string `json:"recurrence_id"`
	ContractID   *string `json:"contract_id"`
}

type windowAnswer struct {
	Occurrences []occurrence `json:"occurrences"`
}

type fixture struct {
	app      *testkit.App
	user     accountstest.User
	property string
	tenant   string
}

func start(t testing.TB, opts ...testkit.Option) fixture {
	t.Helper()
	app := testkit.Start(t, opts...)
	u := accountstest.NewUser(t, app)
	f := fixture{app: app, user: u}
	var p struct {
		ID string `json:"id"`
	}
	app.Post("/api/v1/properties", u.Token, map[string]any{"name": "Flat", "country_code": "DE"}).Expect(http.StatusCreated).JSON(&p)
	f.property = p.ID
	app.Post("/api/v1/contragents", u.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Anna"}).
		Expect(http.StatusCreated).JSON(&p)
	f.tenant = p.ID
	return f
}

// contract makes an active contract of the fixture's property.
func (f fixture) contract(t testing.TB, number string, terms ...map[string]any) string {
	t.Helper()
	var c struct {
		ID string `json:"id"`
	}
	f.app.Post("/api/v1/contracts", f.user.Token, map[string]any{"property_id": f.property, "tenant_id": f.tenant,
		"number": number, "terms": terms}).Expect(http.StatusCreated).JSON(&c)
	f.app.Post("/api/v1/contracts/"+c.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	return c.ID
}

func term(code string, value any) map[string]any { return map[string]any{"code": code, "value": value} }

func (f fixture) create(t testing.TB, body map[string]any) event {
	t.Helper()
	var e event
	f.app.Post(base, f.user.Token, body).Expect(http.StatusCreated).JSON(&e)
	return e
}

func (f fixture) window(t testing.TB, query string) []occurrence {
	t.Helper()
	var w windowAnswer
	f.app.Get(base+"?"+query, f.user.Token).Expect(http.StatusOK).JSON(&w)
	return w.Occurrences
}

func count(t testing.TB, app *testkit.App, table string) int {
	t.Helper()
	n, err := app.DB.NewSelect().Table(table).Count(context.Background())
	if err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return int(n)
}
