package billing_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/testkit/requires"
)

const secret = "whsec_test_propman"

// stripeMock starts stripe-mock on a free port for the test and returns
// its URL. Without the binary the test is skipped, except in CI, where
// .ci/needs/billing.sh installs it and its absence is a failure.
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
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			c.Close()
			return url
		}
		if time.Now().After(deadline) {
			t.Fatalf("stripe-mock did not listen on %s", url)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

type world struct {
	app   *testkit.App
	q     *jobs.Queue
	owner accountstest.User
	ws    int64
}

func newWorld(t *testing.T, extra ...testkit.Option) *world {
	t.Helper()
	w := &world{}
	opts := []testkit.Option{
		testkit.WithPopulate(&w.q),
		testkit.WithConfig("modules.billing.stripekey", "sk_test_123"),
		testkit.WithConfig("modules.billing.stripeurl", stripeMock(t)),
		testkit.WithConfig("modules.billing.webhooksecret", secret),
		testkit.WithConfig("jobs.poll", "20ms"),
		testkit.WithConfig("auth.ttl", "20000h"), testkit.WithConfig("auth.maxage", "20000h"),
	}
	w.app = testkit.Start(t, append(opts, extra...)...)
	w.owner = accountstest.NewUser(t, w.app)
	var list struct {
		Workspaces []struct {
			ID int64 `json:"id"`
		} `json:"workspaces"`
	}
	w.app.Get("/api/v1/workspaces", w.owner.Token).Expect(http.StatusOK).JSON(&list)
	w.ws = list.Workspaces[0].ID
	return w
}

func (w *world) property(t *testing.T, name string) *testkit.Response {
	t.Helper()
	return w.app.Post("/api/v1/properties", w.owner.Token, map[string]any{"name": name, "country_code": "DE",
		"address": "Lindenstraße 5", "postal_code": "10969", "city": "Berlin"})
}

// at sets the clock and ticks the periodic runs, waiting for them.
func (w *world) at(t *testing.T, when time.Time) {
	t.Helper()
	w.app.Clock.Set(when)
	if _, err := w.q.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		var open int
		if err := w.app.DB.NewRaw(`SELECT COUNT(*) FROM job_runs WHERE state <> 'finished'`).Scan(t.Context(), &open); err != nil {
			t.Fatal(err)
		}
		if open == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("runs not finished after 30 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

type subscription struct {
	Plan          string  `json:"plan"`
	Status        string  `json:"status"`
	UnitLimit     *int    `json:"unit_limit"`
	ReadOnly      bool    `json:"read_only"`
	PaymentMethod *string `json:"payment_method"`
}

func (w *world) subscription(t *testing.T) subscription {
	t.Helper()
	var s subscription
	w.app.Get("/api/v1/billing/subscription", w.owner.Token).Expect(http.StatusOK).JSON(&s)
	return s
}

type invoice struct {
	ID            string  `json:"id"`
	Number        string  `json:"number"`
	Period        string  `json:"period"`
	Status        string  `json:"status"`
	Net           float64 `json:"net"`
	Credit        float64 `json:"credit"`
	VATRate       string  `json:"vat_rate"`
	VAT           float64 `json:"vat"`
	Total         float64 `json:"total"`
	ReverseCharge bool    `json:"reverse_charge"`
	Lines         []struct {
		Description string  `json:"description"`
		Amount      float64 `json:"amount"`
	} `json:"lines"`
}

func (w *world) invoices(t *testing.T) []invoice {
	t.Helper()
	var page struct {
		Invoices []invoice `json:"invoices"`
	}
	w.app.Get("/api/v1/billing/invoices", w.owner.Token).Expect(http.StatusOK).JSON(&page)
	return page.Invoices
}

// signed posts a Stripe event signed with key at ts.
func (w *world) signed(t *testing.T, key string, ts time.Time, ev map[string]any) *testkit.Response {
	t.Helper()
	body, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: key, Timestamp: ts})
	return w.app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/billing/webhooks/stripe", Body: body,
		Headers: map[string]string{"Stripe-Signature": sp.Header, "Content-Type": "application/json"}})
}

func intentEvent(id, typ, invoiceID string, created int64) map[string]any {
	return map[string]any{"id": id, "object": "event", "type": typ, "created": created, "api_version": "2025-01-01",
		"data": map[string]any{"object": map[string]any{"id": "pi_" + id, "object": "payment_intent", "metadata": map[string]any{"invoice_id": invoiceID}}}}
}
