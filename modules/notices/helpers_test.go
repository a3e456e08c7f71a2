package notices_test

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/mail/mailtest"
	"github.com/propman/propman/platform/testkit"
)

var berlin = func() *time.Location {
	l, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		panic(err)
	}
	return l
}()

// world is a German landlord's flat let to a tenant with an email address,
// the app sending mail to a real SMTP server, and the jobs' queue to tick.
type world struct {
	app      *testkit.App
	srv      *mailtest.Server
	q        *jobs.Queue
	landlord accountstest.User
	ws       int64
	property string
	tenant   string
	contract string
}

func created(t *testing.T, res *testkit.Response) string {
	t.Helper()
	res.Expect(http.StatusCreated)
	return res.Map()["id"].(string)
}

// newWorld starts the app at start (Berlin time) with a German flat's
// contract from from to to in locale, rent 950.00 due on the 3rd.
func newWorld(t *testing.T, start time.Time, locale, from, to string, extra ...testkit.Option) *world {
	t.Helper()
	return newWorldIn(t, germany, start, locale, from, to, extra...)
}

// place is where the let flat is and who rents it.
type place struct {
	country, address, postal, city, tenant, email string
}

var (
	germany = place{"DE", "Lindenstraße 5", "10969", "Berlin", "Anna Schmidt", "anna@example.com"}
	france  = place{"FR", "12 rue des Lilas", "75011", "Paris", "Claire Martin", "claire@example.com"}
	britain = place{"GB", "5 Mill Lane", "M1 2AB", "Manchester", "Emma Brown", "emma@example.com"}
)

// newWorldIn is newWorld with the flat at p; in Germany the lease claims
// the statutory default interest.
func newWorldIn(t *testing.T, p place, start time.Time, locale, from, to string, extra ...testkit.Option) *world {
	t.Helper()
	w := &world{srv: mailtest.Start(t)}
	w.app = testkit.Start(t, append([]testkit.Option{
		testkit.WithPopulate(&w.q),
		testkit.WithConfig("mail.url", "smtp://"+w.srv.Addr),
		testkit.WithConfig("mail.from", "Propman <no-reply@propman.test>"),
		testkit.WithConfig("modules.messages.retry", "50ms"),
		testkit.WithConfig("modules.documents.storage", "file:"+filepath.Join(t.TempDir(), "documents")),
		testkit.WithConfig("jobs.poll", "20ms"),
		// The clock moves a year on: tokens must outlive it.
		testkit.WithConfig("auth.ttl", "20000h"), testkit.WithConfig("auth.maxage", "20000h"),
	}, extra...)...)
	w.app.Clock.Set(start)
	w.landlord = accountstest.NewUser(t, w.app)
	tok := w.landlord.Token
	var list struct {
		Workspaces []struct {
			ID int64 `json:"id"`
		} `json:"workspaces"`
	}
	w.app.Get("/api/v1/workspaces", tok).Expect(http.StatusOK).JSON(&list)
	w.ws = list.Workspaces[0].ID
	w.property = created(t, w.app.Post("/api/v1/properties", tok, map[string]any{"name": "Flat 3", "country_code": p.country,
		"address": p.address, "postal_code": p.postal, "city": p.city}))
	w.tenant = created(t, w.app.Post("/api/v1/contragents", tok, map[string]any{"kind": "person", "roles": []string{"tenant"},
		"name": p.tenant, "email": p.email}))
	terms := []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 950},
		{"code": "CONTRACT_START_DATE", "value": from}, {"code": "CONTRACT_END_DATE", "value": to},
		{"code": "PAYMENT_DAY_OF_MONTH", "value": 3}}
	if p.country == "DE" {
		terms = append(terms, map[string]any{"code": "DE_STATUTORY_INTEREST", "value": true})
	}
	w.contract = created(t, w.app.Post("/api/v1/contracts", tok, map[string]any{"property_id": w.property, "tenant_id": w.tenant,
		"number": "L-7", "locale": locale, "terms": terms}))
	w.app.Post("/api/v1/contracts/"+w.contract+"/activate", tok, nil).Expect(http.StatusOK)
	w.app.Do(testkit.Request{Method: http.MethodPatch, Path: fmt.Sprintf("/api/v1/workspaces/%d", w.ws), Token: tok,
		Body: map[string]any{"time_zone": "Europe/Berlin", "schedule": map[string]any{"billing": "00:30", "late_fees": "00:30", "notices": "08:00", "invoices": "off"}}}).Expect(http.StatusOK)
	return w
}

// at sets the clock to the local time of day on date and ticks: every run
// it queues finishes before at returns. It returns how many it queued.
func (w *world) at(t *testing.T, date time.Time, hour, minute int) int {
	t.Helper()
	w.app.Clock.Set(time.Date(date.Year(), date.Month(), date.Day(), hour, minute, 0, 0, berlin))
	n, err := w.q.Tick(context.Background())
	if err != nil {
		t.Fatalf("tick at %s: %v", w.app.Clock.Now(), err)
	}
	w.settle(t)
	return n
}

// settle waits until every run queued has finished.
func (w *world) settle(t *testing.T) {
	t.Helper()
	w.wait(t, `SELECT COUNT(*) FROM job_runs WHERE state <> 'finished'`)
}

// quiet waits until no job at all is left to do (the mail sent, the
// receipts written): River marks its jobs done in batches, so this takes
// longer than settle.
func (w *world) quiet(t *testing.T) {
	t.Helper()
	w.wait(t, `SELECT COUNT(*) FROM river_job WHERE state IN ('available', 'running', 'retryable', 'scheduled')`)
}

// wait polls count until it is 0.
func (w *world) wait(t *testing.T, count string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var open int
		if err := w.app.DB.NewRaw(count).Scan(t.Context(), &open); err != nil {
			t.Fatal(err)
		}
		if open == 0 {
			return
		}
		if time.Now().After(deadline) {
			var runs []string
			_ = w.app.DB.NewRaw(`SELECT kind || ' ' || local_date || ' ' || state || ' ' || COALESCE(error, '') FROM job_runs WHERE state <> 'finished'`).Scan(t.Context(), &runs)
			t.Fatalf("work left after 30 s at %s: %d (runs %v)", w.app.Clock.Now(), open, runs)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type message struct {
	ID          string    `json:"id"`
	Subject     string    `json:"subject"`
	Body        string    `json:"body"`
	Channel     *string   `json:"channel"`
	Delivery    *string   `json:"delivery"`
	Attachments []string  `json:"attachments"`
	CreatedAt   time.Time `json:"created_at"`
	Author      struct {
		Type string `json:"type"`
	} `json:"author"`
}

// messages is the contract's thread, oldest first, read page by page.
func (w *world) messages(t *testing.T) []message {
	t.Helper()
	var all []message
	path := "/api/v1/properties/" + w.property + "/messages?contract_id=" + w.contract + "&per_page=100"
	for after := ""; ; {
		var page struct {
			Messages []message `json:"messages"`
			Next     *string   `json:"next"`
		}
		p := path
		if after != "" {
			p += "&after=" + after
		}
		w.app.Get(p, w.landlord.Token).Expect(http.StatusOK).JSON(&page)
		all = append(all, page.Messages...)
		if page.Next == nil {
			break
		}
		after = *page.Next
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].CreatedAt.Before(all[j].CreatedAt) })
	return all
}

// pay posts a payment of the contract made on day.
func (w *world) pay(t *testing.T, amount float64, day string) {
	t.Helper()
	w.app.Post("/api/v1/properties/"+w.property+"/payments", w.landlord.Token, map[string]any{"amount": amount,
		"method": "bank_transfer", "paid_on": day, "contract_id": w.contract}).Expect(http.StatusCreated)
	w.quiet(t) // the receipt goes out on the day of the payment
}
