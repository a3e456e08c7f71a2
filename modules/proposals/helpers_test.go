package proposals_test

import (
	"context"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

type proposal struct {
	ID            string `json:"id"`
	Slug          string `json:"slug"`
	Status        string `json:"status"`
	Title         string `json:"title"`
	Rent          any    `json:"rent"`
	Deposit       any    `json:"deposit"`
	DepositMonths int    `json:"deposit_months"`
	PublicPath    string `json:"public_path"`
}

type application struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Name   string `json:"name"`
	Email  string `json:"email"`
	Locale string `json:"locale"`
}

type applicationList struct {
	Applications []application `json:"applications"`
	Next         *string       `json:"next"`
}

type applied struct {
	ApplicationID string `json:"application_id"`
	ExpiresIn     int    `json:"expires_in"`
}

// fixture is a running app with a landlord who has a property in Berlin
// and a published proposal for it.
type fixture struct {
	app      *testkit.App
	user     accountstest.User
	property string
	proposal proposal
}

func start(t testing.TB, opts ...testkit.Option) fixture {
	t.Helper()
	app := testkit.Start(t, opts...)
	u := accountstest.NewUser(t, app)
	f := fixture{app: app, user: u, property: newProperty(t, app, u.Token)}
	f.proposal = f.create(t)
	f.proposal = f.publish(t, f.proposal.ID)
	return f
}

func newProperty(t testing.TB, app *testkit.App, token string) string {
	t.Helper()
	var p struct {
		ID string `json:"id"`
	}
	app.Post("/api/v1/properties", token, map[string]any{"name": "Flat 3", "country_code": "DE",
		"address": "Parkstraße 7", "city": "Berlin", "postal_code": "10115"}).Expect(http.StatusCreated).JSON(&p)
	return p.ID
}

func (f fixture) base() string { return "/api/v1/properties/" + f.property + "/proposals" }

func (f fixture) create(t testing.TB) proposal {
	t.Helper()
	var p proposal
	f.app.Post(f.base(), f.user.Token, map[string]any{"title": "Two rooms by the park", "rent": 950, "deposit_months": 3,
		"available_from": "2027-01-01", "min_term_months": 12,
		"terms": []map[string]any{{"code": "PAYMENT_DAY_OF_MONTH", "value": 3}}}).Expect(http.StatusCreated).JSON(&p)
	return p
}

func (f fixture) publish(t testing.TB, id string) proposal {
	t.Helper()
	var p proposal
	f.app.Post(f.base()+"/"+id+"/publish", f.user.Token, nil).Expect(http.StatusOK).JSON(&p)
	return p
}

func applyBody(email string) map[string]any {
	return map[string]any{"name": "Maria Muster", "email": email, "phone": "+4915112345678",
		"message": "We would like to see it.", "desired_start": "2027-01-01", "household_size": 2, "locale": "de"}
}

func (f fixture) applyPath() string {
	return "/api/v1/public/proposals/" + f.proposal.Slug + "/applications"
}

var codePattern = regexp.MustCompile(`\b[0-9]{6}\b`)

// apply sends an application and returns its id and the mailed code.
func (f fixture) apply(t testing.TB, email string) (string, string) {
	t.Helper()
	var a applied
	f.app.Post(f.applyPath(), "", applyBody(email)).Expect(http.StatusAccepted).JSON(&a)
	m, ok := f.app.Mail.Last(email)
	if !ok {
		t.Fatalf("no code mailed to %s", email)
	}
	code := codePattern.FindString(m.Text)
	if code == "" {
		t.Fatalf("no code in %q", m.Text)
	}
	return a.ApplicationID, code
}

func (f fixture) confirm(id, code string) *testkit.Response {
	return f.app.Post(f.applyPath()+"/"+id+"/confirm", "", map[string]any{"code": code})
}

func (f fixture) applications(t testing.TB) []application {
	t.Helper()
	var l applicationList
	f.app.Get(f.base()+"/"+f.proposal.ID+"/applications", f.user.Token).Expect(http.StatusOK).JSON(&l)
	return l.Applications
}

// count is how many rows table holds.
func count(t testing.TB, app *testkit.App, table string) int {
	t.Helper()
	n, err := app.DB.NewSelect().Table(table).Count(context.Background())
	if err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return int(n)
}

// waitForMail waits until a message whose subject contains part reaches
// addr (sent by a job).
func waitForMail(t testing.TB, app *testkit.App, addr string, match func(subject string) bool) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, m := range app.Mail.Messages() {
			if m.To == addr && match(m.Subject) {
				return m.Text
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no matching mail to %s", addr)
	return ""
}
