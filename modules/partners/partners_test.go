package partners_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/testkit/requires"
)

const secret = "whsec_test_partners"

// stripeMock starts stripe-mock on a free port (skipped without it,
// except in CI, where .ci/needs/billing.sh installs it).
func stripeMock(t *testing.T) string {
	t.Helper()
	bin := requires.Program(t, "stripe-mock", "go install github.com/stripe/stripe-mock@v0.203.0")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(bin, "-http-port", fmt.Sprint(port), "-https-port", "-1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(30 * time.Second); ; {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return "http://" + addr
		}
		if time.Now().After(deadline) {
			t.Fatal("stripe-mock did not listen")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

var codePattern = regexp.MustCompile(`\b[0-9]{6}\b`)

type invoice struct {
	ID     string  `json:"id"`
	Period string  `json:"period"`
	Credit float64 `json:"credit"`
	Total  float64 `json:"total"`
	Lines  []struct {
		Description string  `json:"description"`
		Amount      float64 `json:"amount"`
	} `json:"lines"`
}

func invoices(t *testing.T, app *testkit.App, tok string) []invoice {
	t.Helper()
	var page struct {
		Invoices []invoice `json:"invoices"`
	}
	app.Get("/api/v1/billing/invoices", tok).Expect(http.StatusOK).JSON(&page)
	return page.Invoices
}

func pay(t *testing.T, app *testkit.App, id, evt string) {
	t.Helper()
	now := time.Now()
	body, _ := json.Marshal(map[string]any{"id": evt, "object": "event", "type": "payment_intent.succeeded", "created": now.Unix(),
		"data": map[string]any{"object": map[string]any{"id": "pi_" + evt, "metadata": map[string]any{"invoice_id": id}}}})
	sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: secret, Timestamp: now})
	app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/billing/webhooks/stripe", Body: body,
		Headers: map[string]string{"Stripe-Signature": sp.Header, "Content-Type": "application/json"}}).Expect(http.StatusOK)
}

func tick(t *testing.T, app *testkit.App, q *jobs.Queue, when time.Time) {
	t.Helper()
	app.Clock.Set(when)
	if _, err := q.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; {
		var open int
		if err := app.DB.NewRaw(`SELECT COUNT(*) FROM job_runs WHERE state <> 'finished'`).Scan(t.Context(), &open); err != nil {
			t.Fatal(err)
		}
		if open == 0 {
			return
		}
		if time.Now().After(deadline) {
			var runs []string
			_ = app.DB.NewRaw(`SELECT kind || ' ' || local_date || ' ' || state || ' ' || COALESCE(error, '') FROM job_runs WHERE state <> 'finished'`).Scan(t.Context(), &runs)
			t.Fatalf("runs not finished: %v", runs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// goPro gives the workspace of tok a card, the pro plan and n properties.
func goPro(t *testing.T, app *testkit.App, tok string, n int) {
	t.Helper()
	app.Post("/api/v1/billing/payment-methods", tok, map[string]any{"payment_method": "pm_card_visa"}).Expect(http.StatusCreated)
	app.Put("/api/v1/billing/subscription", tok, map[string]any{"plan": "pro", "country": "DE"}).Expect(http.StatusOK)
	for i := range n {
		app.Post("/api/v1/properties", tok, map[string]any{"name": fmt.Sprintf("Flat %d", i), "country_code": "DE"}).Expect(http.StatusCreated)
	}
}

func TestReferralConvertsOnFirstPaidInvoiceAndCreditsOnce(t *testing.T) {
	var q *jobs.Queue
	app := testkit.Start(t, testkit.WithPopulate(&q),
		testkit.WithConfig("modules.billing.stripekey", "sk_test_123"),
		testkit.WithConfig("modules.billing.stripeurl", stripeMock(t)),
		testkit.WithConfig("modules.billing.webhooksecret", secret),
		testkit.WithConfig("jobs.poll", "20ms"),
		testkit.WithConfig("auth.ttl", "20000h"), testkit.WithConfig("auth.maxage", "20000h"))
	partner := accountstest.NewUser(t, app)
	other := accountstest.NewUser(t, app)
	tok := partner.Token

	app.Post("/api/v1/partner-invitations", tok, map[string]any{"channel": "email", "email": partner.Email}).Expect(http.StatusConflict)
	app.Post("/api/v1/partner-invitations", tok, map[string]any{"channel": "email", "email": other.Email}).Expect(http.StatusConflict)
	app.Post("/api/v1/partner-invitations", tok, map[string]any{"channel": "email", "email": "not an email"}).Expect(http.StatusBadRequest)
	var inv struct {
		ID, Code, Status string
	}
	app.Post("/api/v1/partner-invitations", tok, map[string]any{"channel": "email", "email": "New@Example.com"}).Expect(http.StatusCreated).JSON(&inv)
	if inv.Status != "sent" || len(inv.Code) != 10 {
		t.Fatalf("invitation: %+v", inv)
	}
	if m, ok := app.Mail.Last("new@example.com"); !ok || !strings.Contains(m.Text, inv.Code) {
		t.Fatalf("invitation mail: %+v %v", m, ok)
	}
	app.Post("/api/v1/partner-invitations", tok, map[string]any{"channel": "email", "email": "new@example.com"}).Expect(http.StatusConflict)
	var shared struct{ Code string }
	app.Post("/api/v1/partner-invitations", tok, map[string]any{"channel": "email"}).Expect(http.StatusBadRequest)
	app.Post("/api/v1/partner-invitations", tok, map[string]any{"channel": "code"}).Expect(http.StatusCreated).JSON(&shared)

	// Registration: another email's code and an unknown code are refused
	// and make no account; the invitee's own code links it.
	register := func(email string) string {
		// One code a minute per email.
		app.Clock.Set(app.Clock.Now().Add(2 * time.Minute))
		app.Post("/api/v1/auth/register", "", map[string]any{"name": "New Landlord", "email": email}).Expect(http.StatusOK)
		m, _ := app.Mail.Last(email)
		return codePattern.FindString(m.Text)
	}
	code := register("stranger@example.com")
	app.Post("/api/v1/auth/register/verify", "", map[string]any{"channel": "email", "email": "stranger@example.com", "code": code,
		"password": "Tenant-Ledger-2026", "country_code": "DE", "referral_code": inv.Code}).Expect(http.StatusBadRequest)
	code = register("new@example.com")
	app.Post("/api/v1/auth/register/verify", "", map[string]any{"channel": "email", "email": "new@example.com", "code": code,
		"password": "Tenant-Ledger-2026", "country_code": "DE", "referral_code": "NOSUCHCODE"}).Expect(http.StatusBadRequest)
	var users int
	if err := app.DB.NewRaw("SELECT COUNT(*) FROM users WHERE email = 'new@example.com'").Scan(t.Context(), &users); err != nil || users != 0 {
		t.Fatalf("a refused referral made an account: %d %v", users, err)
	}
	code = register("new@example.com")
	app.Post("/api/v1/auth/register/verify", "", map[string]any{"channel": "email", "email": "new@example.com", "code": code,
		"password": "Tenant-Ledger-2026", "country_code": "DE", "referral_code": strings.ToLower(inv.Code)}).Expect(http.StatusCreated)
	var login struct{ Token string }
	app.Post("/api/v1/auth/login", "", map[string]any{"channel": "email", "email": "new@example.com", "password": "Tenant-Ledger-2026"}).Expect(http.StatusOK).JSON(&login)

	status := func() map[string]string {
		var page struct {
			Invitations []struct{ Code, Status string } `json:"invitations"`
		}
		app.Get("/api/v1/partner-invitations", tok).Expect(http.StatusOK).JSON(&page)
		out := map[string]string{}
		for _, i := range page.Invitations {
			out[i.Code] = i.Status
		}
		return out
	}
	if s := status(); s[inv.Code] != "registered" || s[shared.Code] != "sent" {
		t.Fatalf("after registration: %v", s)
	}

	goPro(t, app, tok, 3)
	goPro(t, app, login.Token, 1)
	// The trials end with a card: pro from then on.
	tick(t, app, q, time.Date(2026, 12, 10, 6, 0, 0, 0, time.UTC))
	tick(t, app, q, time.Date(2027, 1, 1, 6, 0, 0, 0, time.UTC))
	mine, theirs := invoices(t, app, tok), invoices(t, app, login.Token)
	if len(mine) != 1 || len(theirs) != 1 {
		var runs []string
		_ = app.DB.NewRaw(`SELECT kind || ' ' || local_date || ' ' || state || ' ' || COALESCE(error, '') || ' ' || COALESCE(CAST(counts AS TEXT), '') FROM job_runs`).Scan(t.Context(), &runs)
		var subs []string
		_ = app.DB.NewRaw(`SELECT plan || ' ' || status || ' ' || COALESCE(CAST(billed_from AS TEXT), 'nil') FROM billing_subscriptions`).Scan(t.Context(), &subs)
		t.Logf("runs %v subs %v", runs, subs)
		t.Fatalf("January invoices: partner %d, invitee %d", len(mine), len(theirs))
	}
	pay(t, app, mine[0].ID, "evt_partner_1")
	if s := status(); s[inv.Code] != "registered" {
		t.Fatalf("the partner's own payment converted: %v", s)
	}
	pay(t, app, theirs[0].ID, "evt_invitee_1")
	if s := status(); s[inv.Code] != "converted" {
		t.Fatalf("after the invitee's first payment: %v", s)
	}

	// February: the partner's invoice takes the credit off; the invitee's
	// second payment credits nothing more.
	tick(t, app, q, time.Date(2027, 2, 1, 6, 0, 0, 0, time.UTC))
	theirs = invoices(t, app, login.Token)
	pay(t, app, theirs[0].ID, "evt_invitee_2")
	mine = invoices(t, app, tok)
	var jan invoice
	app.Get("/api/v1/billing/invoices/"+mine[0].ID, tok).Expect(http.StatusOK).JSON(&jan)
	if jan.Period != "2027-01" || jan.Credit != 10 || jan.Total != 5.59 {
		t.Fatalf("partner's January invoice: %+v", jan)
	}
	found := false
	for _, l := range jan.Lines {
		if strings.Contains(l.Description, "referral of new@example.com") && l.Amount == -10 {
			found = true
		}
	}
	if !found {
		t.Fatalf("no credit line: %+v", jan.Lines)
	}
	var credits int
	if err := app.DB.NewRaw("SELECT COUNT(*) FROM billing_credits").Scan(t.Context(), &credits); err != nil || credits != 1 {
		t.Fatalf("credits: %d (%v), want 1", credits, err)
	}
}

// The invitation mail names who invites, in their language, with the
// code to register with.
func TestInvitationMailInTheInvitersLanguage(t *testing.T) {
	app := testkit.Start(t)
	partner := accountstest.NewUser(t, app)
	for _, tc := range []struct{ locale, subject, code string }{
		{"de", "Lena Vermieter lädt Sie zu propman ein", "Registrieren Sie sich mit dem Empfehlungscode "},
		{"fr", "Lena Vermieter vous invite sur propman", "Inscrivez-vous avec le code de parrainage "},
		{"en", "Lena Vermieter invites you to propman", "Register with the referral code "},
	} {
		app.Put("/api/v1/user/profile", partner.Token, map[string]any{"name": "Lena Vermieter", "locale": tc.locale}).Expect(http.StatusOK)
		to := tc.locale + "@example.org"
		var inv struct{ Code string }
		app.Post("/api/v1/partner-invitations", partner.Token, map[string]any{"channel": "email", "email": to}).Expect(http.StatusCreated).JSON(&inv)
		m, ok := app.Mail.Last(to)
		if !ok || m.Subject != tc.subject || !strings.Contains(m.Text, tc.code+inv.Code+".") || !strings.Contains(m.Text, "Lena Vermieter") {
			t.Errorf("%s: the invitation reads %q:\n%s", tc.locale, m.Subject, m.Text)
		}
	}
}
