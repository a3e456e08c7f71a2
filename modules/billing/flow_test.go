package billing_test

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/testkit/requires"
)

func TestPlanLimitInvoiceAndWebhooks(t *testing.T) {
	w := newWorld(t)
	tok := w.owner.Token
	if s := w.subscription(t); s.Status != "trialing" || s.Plan != "pro" || s.UnitLimit != nil {
		t.Fatalf("new workspace: %+v, want a pro trial without limit", s)
	}
	w.app.Put("/api/v1/billing/subscription", tok, map[string]any{"plan": "free"}).Expect(http.StatusOK)
	for i := range 3 {
		w.property(t, "Flat "+string(rune('A'+i))).Expect(http.StatusCreated)
	}
	over := w.property(t, "Flat D").Expect(http.StatusPaymentRequired).Map()
	if over["error"] != "plan_limit" || over["limit"] != float64(3) || over["upgrade"].(map[string]any)["plan"] != "pro" {
		t.Fatalf("402 body: %v", over)
	}
	var count int
	if err := w.app.DB.NewRaw("SELECT COUNT(*) FROM properties").Scan(t.Context(), &count); err != nil || count != 3 {
		t.Fatalf("properties after the 402: %d (%v), want 3", count, err)
	}
	w.app.Put("/api/v1/billing/subscription", tok, map[string]any{"plan": "pro"}).Expect(http.StatusConflict)
	w.app.Put("/api/v1/billing/subscription", tok, map[string]any{"country": "AT", "vat_id": "ATU1234"}).Expect(http.StatusBadRequest)
	w.app.Post("/api/v1/billing/payment-methods", tok, map[string]any{"payment_method": "pm_card_visa"}).Expect(http.StatusCreated)
	s := w.subscription(t)
	if s.PaymentMethod == nil {
		t.Fatalf("no payment method after adding one: %+v", s)
	}
	w.app.Put("/api/v1/billing/subscription", tok, map[string]any{"plan": "pro", "country": "AT", "vat_id": "atu 1234 5678", "company": "Muster GmbH"}).Expect(http.StatusOK)
	w.property(t, "Flat D").Expect(http.StatusCreated)

	// December 1st: November is invoiced, one line per property.
	w.at(t, time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC))
	list := w.invoices(t)
	if len(list) != 1 {
		t.Fatalf("invoices after the 1st: %d, want 1", len(list))
	}
	var inv invoice
	w.app.Get("/api/v1/billing/invoices/"+list[0].ID, tok).Expect(http.StatusOK).JSON(&inv)
	if inv.Number != "PM-2026-000001" || inv.Period != "2026-11" || len(inv.Lines) != 4 || inv.Net != 19.60 ||
		!inv.ReverseCharge || inv.VAT != 0 || inv.Total != 19.60 {
		t.Fatalf("invoice: %+v", inv)
	}
	// The run charged it through Stripe (stripe-mock answers a payment
	// intent that waits for its webhook).
	var intent string
	if err := w.app.DB.NewRaw("SELECT COALESCE(payment_intent, '') FROM billing_invoices").Scan(t.Context(), &intent); err != nil || !strings.HasPrefix(intent, "pi_") {
		t.Fatalf("payment intent of the invoice: %q (%v)", intent, err)
	}
	// A second run of the day issues nothing more.
	w.at(t, time.Date(2026, 12, 1, 7, 0, 0, 0, time.UTC))
	if n := len(w.invoices(t)); n != 1 {
		t.Fatalf("invoices after a second run: %d", n)
	}

	pdf := w.app.Get("/api/v1/billing/invoices/"+inv.ID+"/pdf", tok).Expect(http.StatusOK).Body
	text := pdfText(t, pdf)
	for _, want := range []string{"PM-2026-000001", "Muster GmbH", "ATU12345678", "reverse charge", "Flat D", "19.60"} {
		if !strings.Contains(text, want) {
			t.Fatalf("PDF text lacks %q:\n%s", want, text)
		}
	}

	// Webhooks: a bad signature, a stale timestamp and an unknown type
	// change nothing; the payment applies once.
	now := time.Now()
	ev := intentEvent("evt_paid_1", "payment_intent.succeeded", inv.ID, now.Unix())
	w.signed(t, "whsec_other", now, ev).Expect(http.StatusBadRequest)
	w.signed(t, secret, now.Add(-10*time.Minute), ev).Expect(http.StatusBadRequest)
	if got := w.invoices(t)[0].Status; got != "open" {
		t.Fatalf("after refused webhooks the invoice is %s", got)
	}
	var events int
	if err := w.app.DB.NewRaw("SELECT COUNT(*) FROM billing_events").Scan(t.Context(), &events); err != nil || events != 0 {
		t.Fatalf("events stored from refused webhooks: %d (%v)", events, err)
	}
	if r := w.signed(t, secret, now, map[string]any{"id": "evt_x", "object": "event", "type": "customer.created", "created": now.Unix(),
		"data": map[string]any{"object": map[string]any{"id": "cus_1"}}}).Expect(http.StatusOK).Map(); r["applied"] != false {
		t.Fatalf("unknown type: %v", r)
	}
	if r := w.signed(t, secret, now, ev).Expect(http.StatusOK).Map(); r["applied"] != true {
		t.Fatalf("payment: %v", r)
	}
	if r := w.signed(t, secret, now, ev).Expect(http.StatusOK).Map(); r["applied"] != false {
		t.Fatalf("replay: %v", r)
	}
	// A failure Stripe sent before the success, arriving after it.
	w.signed(t, secret, now, intentEvent("evt_failed_0", "payment_intent.payment_failed", inv.ID, now.Unix()-60)).Expect(http.StatusOK)
	if got := w.invoices(t)[0]; got.Status != "paid" {
		t.Fatalf("invoice after the late failure: %+v", got)
	}
	if s := w.subscription(t); s.Status != "active" {
		t.Fatalf("subscription after payment: %+v", s)
	}
	w.app.Post("/api/v1/billing/invoices/"+inv.ID+"/pay", tok, nil).Expect(http.StatusConflict)
}

func TestPastDueReadOnlyLiftedByPayment(t *testing.T) {
	w := newWorld(t, testkit.WithConfig("modules.billing.grace", "72h"))
	tok := w.owner.Token
	w.app.Post("/api/v1/billing/payment-methods", tok, map[string]any{"payment_method": "pm_card_visa"}).Expect(http.StatusCreated)
	w.app.Put("/api/v1/billing/subscription", tok, map[string]any{"country": "DE"}).Expect(http.StatusOK)
	w.property(t, "Flat 1").Expect(http.StatusCreated)
	// The trial ends with a payment method: pro; January invoices December.
	w.at(t, time.Date(2026, 12, 10, 6, 0, 0, 0, time.UTC))
	if s := w.subscription(t); s.Status != "active" || s.Plan != "pro" {
		t.Fatalf("after the trial: %+v", s)
	}
	w.at(t, time.Date(2027, 1, 1, 6, 0, 0, 0, time.UTC))
	list := w.invoices(t)
	if len(list) != 1 || list[0].VATRate != "19" || list[0].Total != 5.83 || list[0].Number != "PM-2027-000001" {
		t.Fatalf("January invoice: %+v", list)
	}
	id := list[0].ID
	fail := time.Now()
	w.signed(t, secret, fail, intentEvent("evt_fail_1", "payment_intent.payment_failed", id, fail.Unix())).Expect(http.StatusOK)
	if s := w.subscription(t); s.Status != "past_due" || s.ReadOnly {
		t.Fatalf("after the failure: %+v", s)
	}
	w.at(t, time.Date(2027, 1, 2, 6, 0, 0, 0, time.UTC))
	if got := reminders(w); got != 1 {
		t.Fatalf("reminders on day 1: %d", got)
	}
	w.at(t, time.Date(2027, 1, 2, 8, 0, 0, 0, time.UTC))
	if got := reminders(w); got != 1 {
		t.Fatalf("reminders after a second run of day 1: %d", got)
	}
	w.property(t, "Flat 2").Expect(http.StatusCreated)
	w.at(t, time.Date(2027, 1, 5, 6, 0, 0, 0, time.UTC))
	if s := w.subscription(t); !s.ReadOnly {
		t.Fatalf("after the grace period: %+v", s)
	}
	res := w.property(t, "Flat 3").Expect(http.StatusForbidden).Map()
	if res["error"] != "read_only" {
		t.Fatalf("write in a read-only workspace: %v", res)
	}
	w.app.Get("/api/v1/properties", tok).Expect(http.StatusOK)
	paid := time.Now()
	w.signed(t, secret, paid, intentEvent("evt_paid_2", "payment_intent.succeeded", id, paid.Unix()+1)).Expect(http.StatusOK)
	if s := w.subscription(t); s.ReadOnly || s.Status != "active" {
		t.Fatalf("after payment: %+v", s)
	}
	w.property(t, "Flat 3").Expect(http.StatusCreated)
}

// TestConcurrentWebhooks sends more webhooks at once than the pool has
// connections, each event twice: every event is applied exactly once.
func TestConcurrentWebhooks(t *testing.T) {
	w := newWorld(t, testkit.WithConfig("database.maxopen", 4))
	now := time.Now()
	var wg sync.WaitGroup
	results := make(chan bool, 32)
	for i := range 16 {
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ev := map[string]any{"id": "evt_c" + string(rune('a'+i)), "object": "event", "type": "payment_intent.succeeded",
					"created": now.Unix(), "data": map[string]any{"object": map[string]any{"id": "pi_x", "metadata": map[string]any{}}}}
				res := w.signed(t, secret, now, ev)
				results <- res.Status == http.StatusOK
			}()
		}
	}
	wg.Wait()
	close(results)
	for ok := range results {
		if !ok {
			t.Fatal("a webhook was not answered 200")
		}
	}
	var n int
	if err := w.app.DB.NewRaw("SELECT COUNT(*) FROM billing_events").Scan(t.Context(), &n); err != nil || n != 16 {
		t.Fatalf("events stored: %d (%v), want 16", n, err)
	}
}

func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	requires.Program(t, "pdftotext", "apt-get install poppler-utils")
	p := filepath.Join(t.TempDir(), "invoice.pdf")
	if err := os.WriteFile(p, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", p, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func reminders(w *world) int {
	n := 0
	for _, m := range w.app.Mail.Messages() {
		if strings.HasPrefix(m.Subject, "Payment reminder") {
			n++
		}
	}
	return n
}
