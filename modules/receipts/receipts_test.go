package receipts_test

import (
	"fmt"
	"net/http"
	"sort"
	"sync"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/testkit"
)

type line struct {
	ChargeName string `json:"charge_name"`
	Period     string `json:"period"`
	Amount     any    `json:"amount"`
}

type receipt struct {
	ID         string  `json:"id"`
	PaymentID  string  `json:"payment_id"`
	Number     string  `json:"number"`
	Amount     any     `json:"amount"`
	Payer      string  `json:"payer"`
	Lines      []line  `json:"lines"`
	Credit     any     `json:"credit"`
	Status     string  `json:"status"`
	VoidedAt   *string `json:"voided_at"`
	VoidReason *string `json:"void_reason"`
}

type receiptList struct {
	Receipts []receipt `json:"receipts"`
	Total    int       `json:"total"`
}

func newProperty(t *testing.T, app *testkit.App, token string) string {
	t.Helper()
	var p struct {
		ID string `json:"id"`
	}
	app.Post("/api/v1/properties", token, map[string]any{"name": "Flat", "country_code": "DE"}).Expect(http.StatusCreated).JSON(&p)
	return p.ID
}

// A payment gets its receipt with the payer, the lines it paid and its
// credit; reversing the payment voids the receipt with the reason.
func TestReceiptOfAPaymentAndItsVoid(t *testing.T) {
	app := testkit.Start(t)
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	u := accountstest.NewUser(t, app)
	prop := newProperty(t, app, u.Token)
	base := "/api/v1/properties/" + prop
	app.Post(base+"/charges", u.Token, map[string]any{"name": "Rent", "amount": 950, "due_date": "2026-11-03"}).Expect(http.StatusCreated)
	var payer struct {
		ID string `json:"id"`
	}
	app.Post("/api/v1/contragents", u.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Tom Tenant"}).
		Expect(http.StatusCreated).JSON(&payer)
	var p struct {
		ID string `json:"id"`
	}
	app.Post(base+"/payments", u.Token, map[string]any{"amount": 1000, "method": "cash", "payer_id": payer.ID}).
		Expect(http.StatusCreated).JSON(&p)
	var l receiptList
	app.Get(base+"/receipts", u.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 1 {
		t.Fatalf("receipts %+v", l)
	}
	r := l.Receipts[0]
	if r.Number != "2026-000001" || r.PaymentID != p.ID || r.Payer != "Tom Tenant" || r.Status != "issued" ||
		len(r.Lines) != 1 || r.Lines[0].ChargeName != "Rent" || r.Lines[0].Period != "2026-11" || fmt.Sprint(r.Credit) != "50" {
		t.Fatalf("receipt %+v", r)
	}
	app.Post(base+"/payments/"+p.ID+"/reverse", u.Token, map[string]any{"reason": "cheque bounced"}).Expect(http.StatusOK)
	var got receipt
	app.Get(base+"/receipts/"+r.ID, u.Token).Expect(http.StatusOK).JSON(&got)
	if got.Status != "void" || got.VoidedAt == nil || got.VoidReason == nil || *got.VoidReason != "cheque bounced" || got.Number != r.Number {
		t.Fatalf("voided %+v", got)
	}
	app.Get(base+"/receipts?status=void", u.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 1 {
		t.Fatalf("void list %+v", l)
	}
	stranger := accountstest.NewUser(t, app)
	app.Get(base+"/receipts/"+r.ID, stranger.Token).Expect(http.StatusForbidden)
	app.Get(base+"/receipts", stranger.Token).Expect(http.StatusForbidden)
	app.Get(base+"/receipts/not-a-uuid", u.Token).Expect(http.StatusNotFound)
	app.Get(base+"/receipts/"+r.PaymentID, u.Token).Expect(http.StatusNotFound)
	other := newProperty(t, app, u.Token)
	app.Get("/api/v1/properties/"+other+"/receipts/"+r.ID, u.Token).Expect(http.StatusNotFound)
}

// 20 concurrent payments of one owner, on two properties, get receipt
// numbers 1..20: no gap, no repeat. Another owner counts on its own.
func TestConcurrentReceiptNumbersHaveNoGap(t *testing.T) {
	app := testkit.Start(t)
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	u := accountstest.NewUser(t, app)
	props := []string{newProperty(t, app, u.Token), newProperty(t, app, u.Token)}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/properties/" + props[i%2] + "/payments",
				Token: u.Token, Body: map[string]any{"amount": i + 1, "method": "card"}})
			if res.Status != http.StatusCreated {
				t.Errorf("payment %d: %d %s", i, res.Status, res.String())
			}
		}()
	}
	wg.Wait()
	var numbers []string
	for _, p := range props {
		var l receiptList
		app.Get("/api/v1/properties/"+p+"/receipts?per_page=200", u.Token).Expect(http.StatusOK).JSON(&l)
		for _, r := range l.Receipts {
			numbers = append(numbers, r.Number)
		}
	}
	sort.Strings(numbers)
	if len(numbers) != 20 {
		t.Fatalf("%d receipts: %v", len(numbers), numbers)
	}
	for i, n := range numbers {
		if want := fmt.Sprintf("2026-%06d", i+1); n != want {
			t.Fatalf("receipt %d is %s, want %s (all: %v)", i, n, want, numbers)
		}
	}
	v := accountstest.NewUser(t, app)
	vp := newProperty(t, app, v.Token)
	app.Post("/api/v1/properties/"+vp+"/payments", v.Token, map[string]any{"amount": 1, "method": "cash"}).Expect(http.StatusCreated)
	var l receiptList
	app.Get("/api/v1/properties/"+vp+"/receipts", v.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 1 || l.Receipts[0].Number != "2026-000001" {
		t.Fatalf("another owner's first receipt %+v", l)
	}
}
