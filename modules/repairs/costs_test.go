package repairs_test

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/platform/testkit"
)

// scheduled walks a tenant's report of category to a booked visit and
// returns the request's id and the provider's token.
func (l lease) scheduled(t *testing.T, app *testkit.App, title, category string) (string, string) {
	t.Helper()
	var r request
	app.Post(l.tenantPath(), l.tenant.Token, map[string]any{"title": title, "description": "Bitte reparieren.",
		"category": category, "urgency": "normal"}).Expect(http.StatusCreated).JSON(&r)
	app.Post(l.memberPath()+"/"+r.ID+"/transition", l.landlord.Token, map[string]any{"to": "triaged"}).Expect(http.StatusOK)
	token := l.order(t, app, r.ID)
	page := "/api/v1/work-orders/" + token
	app.Post(page+"/accept", "", nil).Expect(http.StatusOK)
	start := app.Clock.Now().UTC().Add(48 * time.Hour).Truncate(time.Hour)
	app.Post(page+"/slots", "", map[string]any{"slots": []map[string]any{{"start": start.Format(time.RFC3339), "end": start.Add(2 * time.Hour).Format(time.RFC3339)}}}).
		Expect(http.StatusOK)
	app.Post(l.tenantPath()+"/"+r.ID+"/slot", l.tenant.Token, map[string]any{"start": start.Format(time.RFC3339)}).Expect(http.StatusOK)
	return r.ID, token
}

type bill struct {
	ID         string      `json:"id"`
	PropertyID string      `json:"property_id"`
	SupplierID string      `json:"supplier_id"`
	BillDate   string      `json:"bill_date"`
	Status     string      `json:"status"`
	Amount     json.Number `json:"amount"`
	VAT        json.Number `json:"vat_amount"`
	Net        json.Number `json:"net_amount"`
	Category   string      `json:"category"`
	DocumentID *string     `json:"document_id"`
	Note       string      `json:"note"`
}

func (l lease) bills(t *testing.T, app *testkit.App) []bill {
	t.Helper()
	var page struct {
		Bills []bill `json:"bills"`
	}
	app.Get("/api/v1/bills", l.landlord.Token).Expect(http.StatusOK).JSON(&page)
	return page.Bills
}

// balance is the ledger balance of the account code ("0.00" for none).
func (l lease) balance(t *testing.T, app *testkit.App, code string) string {
	t.Helper()
	var out struct {
		Accounts []struct {
			Code     string `json:"code"`
			Balances []struct {
				Balance json.Number `json:"balance"`
			} `json:"balances"`
		} `json:"accounts"`
	}
	app.Get("/api/v1/ledger/accounts", l.landlord.Token).Expect(http.StatusOK).JSON(&out)
	for _, a := range out.Accounts {
		if a.Code == code && len(a.Balances) > 0 {
			return a.Balances[len(a.Balances)-1].Balance.String()
		}
	}
	return "0.00"
}

// The provider's invoice becomes one bill of the property when the job is
// marked done, booked to repairs (6300) against bills payable (3600); a
// second done is refused and books nothing; an invoice of 0 or none makes
// no bill; bad VAT changes nothing.
func TestInvoiceBecomesBill(t *testing.T) {
	t.Parallel()
	app := start(t)
	l := newLease(t, app, "de", "auftrag@klempner.example")
	id, token := l.scheduled(t, app, "Wasserhahn tropft", "plumbing")
	done := "/api/v1/work-orders/" + token + "/done"

	for _, body := range []map[string]any{
		{"note": "x", "invoice_amount": 100, "invoice_vat_amount": 100.01},
		{"note": "x", "invoice_vat_amount": 5},
		{"note": "x", "invoice_amount": 100, "invoice_vat_amount": -1},
		{"note": "x", "invoice_amount": 100.001},
	} {
		app.Post(done, "", body).Expect(http.StatusBadRequest)
	}
	if got := l.bills(t, app); len(got) != 0 {
		t.Fatalf("a refused done made bills: %+v", got)
	}

	app.Post(done, "", map[string]any{"note": "Dichtung getauscht.", "invoice_amount": 412.35, "invoice_vat_amount": 65.84}).Expect(http.StatusOK)
	app.Post(done, "", map[string]any{"note": "Noch einmal.", "invoice_amount": 412.35}).Expect(http.StatusConflict)

	got := l.bills(t, app)
	if len(got) != 1 {
		t.Fatalf("bills: %+v", got)
	}
	b := got[0]
	if b.PropertyID != l.property || b.SupplierID != l.provider || b.BillDate != "2026-11-22" || b.Status != "unpaid" ||
		b.Amount.String() != "412.35" || b.VAT.String() != "65.84" || b.Net.String() != "346.51" || b.Category != "repairs" ||
		b.Note != "Wasserhahn tropft\nDichtung getauscht." {
		t.Errorf("the bill: %+v", b)
	}
	var r struct {
		WorkOrder struct {
			BillID     *string      `json:"bill_id"`
			InvoiceVAT *json.Number `json:"invoice_vat_amount"`
		} `json:"work_order"`
	}
	app.Get(l.memberPath()+"/"+id, l.landlord.Token).Expect(http.StatusOK).JSON(&r)
	if r.WorkOrder.BillID == nil || *r.WorkOrder.BillID != b.ID || r.WorkOrder.InvoiceVAT == nil || r.WorkOrder.InvoiceVAT.String() != "65.84" {
		t.Errorf("the order names %+v, the bill is %s", r.WorkOrder, b.ID)
	}
	if got, want := l.balance(t, app, "6300"), "412.35"; got != want {
		t.Errorf("repairs (6300): %s, want %s", got, want)
	}
	if got, want := l.balance(t, app, "3600"), "-412.35"; got != want {
		t.Errorf("bills payable (3600): %s, want %s", got, want)
	}
	var n int
	if err := app.DB.NewRaw("SELECT COUNT(*) FROM ledger_entries WHERE source_id = ?", b.ID).Scan(context.Background(), &n); err != nil || n != 1 {
		t.Errorf("ledger entries of the bill: %d %v", n, err)
	}

	// No amount, no bill.
	_, token = l.scheduled(t, app, "Steckdose lose", "electrical")
	app.Post("/api/v1/work-orders/"+token+"/done", "", map[string]any{"note": "Festgeschraubt.", "invoice_amount": 0}).Expect(http.StatusOK)
	if got := l.bills(t, app); len(got) != 1 {
		t.Errorf("an invoice of 0 made a bill: %+v", got)
	}
}

// Two dones of one order at once: one wins, the other is a 409, and there
// is one bill.
func TestInvoiceBilledOnceUnderRace(t *testing.T) {
	t.Parallel()
	app := start(t)
	l := newLease(t, app, "de", "auftrag@klempner.example")
	_, token := l.scheduled(t, app, "Wasserhahn tropft", "plumbing")
	codes := make(chan int, 4)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			codes <- app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/work-orders/" + token + "/done",
				Body: map[string]any{"note": "x", "invoice_amount": 50}}).Status
		})
	}
	wg.Wait()
	close(codes)
	got := map[int]int{}
	for c := range codes {
		got[c]++
	}
	if got[http.StatusOK] != 1 || got[http.StatusConflict] != 3 {
		t.Errorf("answers %v, want one 200 and three 409", got)
	}
	if b := l.bills(t, app); len(b) != 1 || b[0].Amount.String() != "50.00" {
		t.Errorf("bills %+v", b)
	}
}
