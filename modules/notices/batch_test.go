package notices_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/notices"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/mail/mailtest"
	"github.com/propman/propman/platform/testkit"
)

// lease is a contract of a seeded notices portfolio.
type lease struct {
	number, country, locale, tenant, email, from, to string
	rent                                             float64
	// own is the contract's notice settings, when it has its own.
	own map[string]any
}

// leases are the notices' edge cases: German and French law (German
// leases claim the statutory interest, so reminders name it), German,
// French and English letters, a tenant without an email address (the
// portal), a contract starting in the middle of a month, one ending in
// the middle of one (its end is announced), reminders paused for one
// contract and contract ends switched off for another, a contract with
// its own ladder delay, and (below) a partial and a full payment.
var leases = []lease{
	{"L-1", "DE", "de", "Anna Schmidt", "anna@example.com", "2026-12-01", "2027-11-30", 950, nil},
	{"L-2", "FR", "fr", "Claire Martin", "claire@example.com", "2026-12-01", "2027-11-30", 800, nil},
	{"L-3", "DE", "en", "Bob Jones", "", "2026-11-15", "2026-12-20", 700, nil},
	{"L-4", "DE", "de", "Dora Weiß", "dora@example.com", "2026-12-01", "2027-11-30", 650, map[string]any{"reminder": false}},
	{"L-5", "FR", "fr", "Émile Roux", "emile@example.com", "2026-12-01", "2027-01-10", 720, map[string]any{"contract_end": false, "reminder_step2_days": 3}},
	{"L-6", "FR", "fr", "Fanny Petit", "fanny@example.com", "2026-12-01", "2027-11-30", 610, nil},
}

// noticesPortfolio is a landlord with leases, whose notices a test runs
// itself (their schedule is off; billing and late fees run at 00:30).
type noticesPortfolio struct {
	token     string
	ws        int64
	contracts map[string]string // number to id
	props     map[string]string // number to property id
}

func seedNotices(t *testing.T, app *testkit.App, leases []lease) noticesPortfolio {
	t.Helper()
	u := accountstest.NewUser(t, app)
	p := noticesPortfolio{token: u.Token, contracts: map[string]string{}, props: map[string]string{}}
	var list struct {
		Workspaces []struct {
			ID int64 `json:"id"`
		} `json:"workspaces"`
	}
	app.Get("/api/v1/workspaces", u.Token).Expect(http.StatusOK).JSON(&list)
	p.ws = list.Workspaces[0].ID
	app.Do(testkit.Request{Method: http.MethodPatch, Path: fmt.Sprintf("/api/v1/workspaces/%d", p.ws), Token: u.Token,
		Body: map[string]any{"time_zone": "Europe/Berlin", "schedule": map[string]any{"billing": "00:30", "late_fees": "00:30", "notices": "off", "invoices": "off"}}}).Expect(http.StatusOK)
	for i, l := range leases {
		prop := created(t, app.Post("/api/v1/properties", u.Token, map[string]any{"name": "Flat " + l.number, "country_code": l.country,
			"address": fmt.Sprintf("Street %d", i+1), "postal_code": "10969", "city": "Town"}))
		tenant := map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": l.tenant}
		if l.email != "" {
			tenant["email"] = l.email
		}
		tid := created(t, app.Post("/api/v1/contragents", u.Token, tenant))
		terms := []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": l.rent},
			{"code": "CONTRACT_START_DATE", "value": l.from}, {"code": "CONTRACT_END_DATE", "value": l.to},
			{"code": "PAYMENT_DAY_OF_MONTH", "value": 3}}
		if l.country == "DE" {
			terms = append(terms, map[string]any{"code": "DE_STATUTORY_INTEREST", "value": true})
		}
		id := created(t, app.Post("/api/v1/contracts", u.Token, map[string]any{"property_id": prop, "tenant_id": tid,
			"number": l.number, "locale": l.locale, "terms": terms}))
		app.Post("/api/v1/contracts/"+id+"/activate", u.Token, nil).Expect(http.StatusOK)
		if l.own != nil {
			app.Do(testkit.Request{Method: http.MethodPatch, Path: "/api/v1/contracts/" + id + "/notice-settings", Token: u.Token,
				Body: l.own}).Expect(http.StatusOK)
		}
		p.contracts[l.number], p.props[l.number] = id, prop
	}
	return p
}

func (p noticesPortfolio) pay(t *testing.T, app *testkit.App, number string, amount float64, day string) {
	t.Helper()
	app.Post("/api/v1/properties/"+p.props[number]+"/payments", p.token, map[string]any{"amount": amount,
		"method": "bank_transfer", "paid_on": day, "contract_id": p.contracts[number]}).Expect(http.StatusCreated)
}

// noticesOf is every notice of p's workspace as one line each (contract
// number, key with the contract's number for its id, channel, delivery,
// address, attachments, subject, body with the landlord's name left
// out), sorted, and its dunning as lines too.
func noticesOf(t *testing.T, app *testkit.App, p noticesPortfolio) (notices, dunning []string) {
	t.Helper()
	var rows []struct {
		Number      string  `bun:"number"`
		Key         string  `bun:"notice_key"`
		Channel     *string `bun:"channel"`
		Delivery    *string `bun:"delivery"`
		Address     string  `bun:"address"`
		Attachments string  `bun:"attachments"`
		Subject     string  `bun:"subject"`
		Body        string  `bun:"body"`
	}
	err := app.DB.NewRaw(`SELECT c.number, m.notice_key, m.channel, m.delivery, m.address, CAST(m.attachments AS TEXT) AS attachments, m.subject, m.body
		FROM messages AS m JOIN contracts AS c ON c.id = m.contract_id
		WHERE c.workspace_id = ? AND m.notice_key IS NOT NULL AND m.notice_key NOT LIKE 'receipt:%'`, p.ws).Scan(t.Context(), &rows)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		key := r.Key
		for number, id := range p.contracts {
			key = strings.ReplaceAll(key, id, number)
		}
		attachments := strings.Count(r.Attachments, "-") / 4
		notices = append(notices, fmt.Sprintf("%s %s %v %v %s %d %q %q", r.Number, key, deref(r.Channel), deref(r.Delivery), r.Address,
			attachments, r.Subject, landlordName.ReplaceAllString(r.Body, "LANDLORD")))
	}
	var steps []string
	err = app.DB.NewRaw(`SELECT c.number || ' ' || d.step || ' ' || CAST(d.since AS TEXT) || ' ' || CAST(d.sent_on AS TEXT)
		FROM notice_dunning AS d JOIN contracts AS c ON c.id = d.contract_id WHERE d.workspace_id = ?`, p.ws).Scan(t.Context(), &steps)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(notices)
	slices.Sort(steps)
	return notices, steps
}

// landlordName is the test users' name (accountstest), different in the
// two portfolios.
var landlordName = regexp.MustCompile(`Test User [0-9]+`)

func deref(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}

// startNotices starts the app with a mail server, at 2026-11-26 in
// Berlin.
func startNotices(t *testing.T, svc **notices.Service, q **jobs.Queue) (*testkit.App, *mailtest.Server) {
	t.Helper()
	srv := mailtest.Start(t)
	app := testkit.Start(t, testkit.WithPopulate(q, svc),
		testkit.WithConfig("mail.url", "smtp://"+srv.Addr),
		testkit.WithConfig("mail.from", "Propman <no-reply@propman.test>"),
		testkit.WithConfig("modules.messages.retry", "50ms"),
		testkit.WithConfig("modules.documents.storage", "file:"+t.TempDir()),
		testkit.WithConfig("jobs.poll", "20ms"),
		testkit.WithConfig("auth.ttl", "20000h"), testkit.WithConfig("auth.maxage", "20000h"))
	app.Clock.Set(time.Date(2026, 11, 26, 10, 0, 0, 0, berlin))
	return app, srv
}

// tickAt sets the clock to the local time on day and runs what is due
// (the billing and late fees), waiting for every run and job.
func tickAt(t *testing.T, app *testkit.App, q *jobs.Queue, day time.Time, hour int) {
	t.Helper()
	app.Clock.Set(time.Date(day.Year(), day.Month(), day.Day(), hour, 0, 0, 0, berlin))
	if _, err := q.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	w := &world{app: app}
	w.settle(t)
	w.quiet(t)
}

// The batched run writes what the run notice by notice wrote: two
// identical portfolios over a month (rent calls, the ladder's three steps
// with the last one's letter, contract ends, payments in part and in
// full, switched-off kinds, a tenant without email), one run a day each,
// the first notice by notice, the second in batches of two; every
// notice's wording, channel, delivery and attachments, the ladder's steps
// and the runs' counts are the same, and every mail went out once.
func TestBatchedNoticesEqualContractByContract(t *testing.T) {
	if testing.Short() {
		t.Skip("a month of days")
	}
	t.Parallel()
	var svc *notices.Service
	var q *jobs.Queue
	app, srv := startNotices(t, &svc, &q)
	loop, batched := seedNotices(t, app, leases), seedNotices(t, app, leases)
	ctx := context.Background()
	total := map[string]map[string]int{"loop": {}, "batched": {}}
	for day := time.Date(2026, 11, 26, 0, 0, 0, 0, berlin); day.Before(time.Date(2026, 12, 28, 0, 0, 0, 0, berlin)); day = day.AddDate(0, 0, 1) {
		date := day.Format("2006-01-02")
		tickAt(t, app, q, day, 1)
		switch date {
		case "2026-12-05":
			for _, p := range []noticesPortfolio{loop, batched} {
				p.pay(t, app, "L-2", 300, date)
				p.pay(t, app, "L-6", 610, date)
			}
			(&world{app: app}).quiet(t)
		}
		app.Clock.Set(time.Date(day.Year(), day.Month(), day.Day(), 8, 0, 0, 0, berlin))
		notices.SetNoticeBatches(svc, 0, true, nil)
		a, problems, err := notices.RunNotices(ctx, svc, loop.ws, date)
		if err != nil || len(problems) > 0 {
			t.Fatalf("%s: run notice by notice: %v %v", date, err, problems)
		}
		notices.SetNoticeBatches(svc, 2, false, nil)
		b, problems, err := notices.RunNotices(ctx, svc, batched.ws, date)
		if err != nil || len(problems) > 0 {
			t.Fatalf("%s: batched run: %v %v", date, err, problems)
		}
		for k, v := range a {
			total["loop"][k] += v
		}
		for k, v := range b {
			total["batched"][k] += v
		}
	}
	(&world{app: app}).quiet(t)
	if fmt.Sprint(total["loop"]) != fmt.Sprint(total["batched"]) {
		t.Fatalf("counts: notice by notice %v, batched %v", total["loop"], total["batched"])
	}
	na, da := noticesOf(t, app, loop)
	nb, db := noticesOf(t, app, batched)
	if !slices.Equal(na, nb) || !slices.Equal(da, db) {
		t.Fatalf("notices differ:\nnotice by notice\n%s\n%s\nbatched\n%s\n%s", strings.Join(na, "\n"), strings.Join(da, "\n"),
			strings.Join(nb, "\n"), strings.Join(db, "\n"))
	}
	// The month's edge cases are there: each step of the ladder, the
	// last with its letter, a French reminder, a portal notice, contract
	// ends, and nothing for what is switched off.
	joined := strings.Join(nb, "\n")
	for _, want := range []string{
		"L-1 reminder:L-1:2026-12-04+1 email sent anna@example.com 0 \"Zahlungserinnerung",
		"L-1 reminder:L-1:2026-12-04+2 email sent",
		"L-1 reminder:L-1:2026-12-04+3 email sent anna@example.com 1 \"Letzte Mahnung",
		"L-2 reminder:L-2:2026-12-04+2 email sent claire@example.com 0 \"Deuxième rappel",
		"L-3 contract_end:L-3:2026-12-20 portal sent  0",
		"L-5 reminder:L-5:2026-12-04+2 email sent",
		"L-1 rent_call:L-1:2026-12-03 email sent anna@example.com 1",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("no notice %q in\n%s", want, joined)
		}
	}
	for _, not := range []string{"L-4 reminder:", "L-5 contract_end:", "L-6 reminder:L-6:2026-12-04+2"} {
		if strings.Contains(joined, not) {
			t.Errorf("a notice %q should not exist:\n%s", not, joined)
		}
	}
	emails := 0
	for _, n := range append(na, nb...) {
		if strings.Contains(n, " email ") {
			emails++
		}
	}
	var receipts int
	if err := app.DB.NewRaw(`SELECT COUNT(*) FROM messages WHERE notice_key LIKE 'receipt:%' AND channel = 'email'`).Scan(ctx, &receipts); err != nil {
		t.Fatal(err)
	}
	if got := len(srv.Received()); got != emails+receipts {
		t.Fatalf("%d mails received; want %d notices and %d receipts, each once", got, emails, receipts)
	}
}

// A run that stops between two batches (a crash, a cancelled context)
// keeps the batches it committed, and the next run writes the rest: every
// reminder, its mail and its step exactly once.
func TestNoticesResumeAfterAStopBetweenBatches(t *testing.T) {
	t.Parallel()
	var svc *notices.Service
	var q *jobs.Queue
	app, srv := startNotices(t, &svc, &q)
	var many []lease
	for i := range 7 {
		many = append(many, lease{fmt.Sprintf("R-%d", i+1), []string{"DE", "FR"}[i%2], []string{"de", "fr"}[i%2],
			fmt.Sprintf("Tenant %d", i+1), fmt.Sprintf("tenant%d@example.com", i+1), "2026-12-01", "2027-11-30", float64(500 + i), nil})
	}
	p := seedNotices(t, app, many)
	day := time.Date(2026, 12, 4, 0, 0, 0, 0, berlin)
	tickAt(t, app, q, day, 1)
	app.Clock.Set(time.Date(2026, 12, 4, 8, 0, 0, 0, berlin))
	ctx := context.Background()
	reminders := func() int {
		var n int
		if err := app.DB.NewRaw(`SELECT COUNT(*) FROM messages AS m JOIN contracts AS c ON c.id = m.contract_id
			WHERE c.workspace_id = ? AND m.notice_key LIKE 'reminder:%'`, p.ws).Scan(ctx, &n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	crash := errors.New("injected crash")
	var batches atomic.Int32
	notices.SetNoticeBatches(svc, 2, false, func() error {
		if batches.Add(1) == 2 {
			return crash
		}
		return nil
	})
	if _, _, err := notices.RunNotices(ctx, svc, p.ws, "2026-12-04"); !errors.Is(err, crash) {
		t.Fatalf("run with a crash after the second batch: %v", err)
	}
	if got := reminders(); got != 4 {
		t.Fatalf("%d reminders after the crash; want the first two batches' 4", got)
	}
	cctx, cancel := context.WithCancel(ctx)
	batches.Store(0)
	notices.SetNoticeBatches(svc, 2, false, func() error {
		if batches.Add(1) == 1 {
			cancel()
		}
		return nil
	})
	if _, _, err := notices.RunNotices(cctx, svc, p.ws, "2026-12-04"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
	if got := reminders(); got != 6 {
		t.Fatalf("%d reminders after the cancelled run; want 6", got)
	}
	notices.SetNoticeBatches(svc, 2, false, nil)
	counts, problems, err := notices.RunNotices(ctx, svc, p.ws, "2026-12-04")
	if err != nil || len(problems) > 0 || counts["reminders"] != 1 {
		t.Fatalf("resumed run %v %v %v; want the last reminder", counts, problems, err)
	}
	// Once more: nothing new.
	counts, _, err = notices.RunNotices(ctx, svc, p.ws, "2026-12-04")
	if err != nil || counts["reminders"] != 0 {
		t.Fatalf("second run %v %v", counts, err)
	}
	list, steps := noticesOf(t, app, p)
	if len(list) != 7 || len(steps) != 7 {
		t.Fatalf("%d notices and %d steps; want 7 each:\n%s\n%s", len(list), len(steps), strings.Join(list, "\n"), strings.Join(steps, "\n"))
	}
	for i, s := range steps {
		if want := fmt.Sprintf("R-%d 1 2026-12-04 2026-12-04", i+1); s != want {
			t.Errorf("step %q; want %q", s, want)
		}
	}
	if _, err := srv.Wait(7, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	(&world{app: app}).quiet(t)
	if got := len(srv.Received()); got != 7 {
		t.Fatalf("%d mails; want 7, one a reminder", got)
	}
}
