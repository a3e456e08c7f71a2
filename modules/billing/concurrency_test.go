package billing_test

import (
	"fmt"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// TestPlanLimitUnderConcurrency adds properties to a free workspace from
// more clients at once than the pool has connections: exactly the limit
// is created, every other answer is 402.
func TestPlanLimitUnderConcurrency(t *testing.T) {
	w := newWorld(t, testkit.WithConfig("database.maxopen", 4))
	w.app.Put("/api/v1/billing/subscription", w.owner.Token, map[string]any{"plan": "free"}).Expect(http.StatusOK)
	var wg sync.WaitGroup
	statuses := make(chan int, 10)
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses <- w.property(t, fmt.Sprintf("Flat %d", i)).Status
		}()
	}
	wg.Wait()
	close(statuses)
	got := map[int]int{}
	for s := range statuses {
		got[s]++
	}
	if got[http.StatusCreated] != 3 || got[http.StatusPaymentRequired] != 7 {
		t.Fatalf("answers %v, want 3 created and 7 plan_limit", got)
	}
}

// TestInvoiceNumbersAreGapFree has several workspaces invoiced by the same
// run at once (the jobs' workers in parallel, a pool of 4): the numbers
// of the year are 1..n, each once.
func TestInvoiceNumbersAreGapFree(t *testing.T) {
	w := newWorld(t, testkit.WithConfig("database.maxopen", 4))
	tokens := []string{w.owner.Token}
	for range 5 {
		tokens = append(tokens, accountstest.NewUser(t, w.app).Token)
	}
	for i, tok := range tokens {
		w.app.Post("/api/v1/billing/payment-methods", tok, map[string]any{"payment_method": "pm_card_visa"}).Expect(http.StatusCreated)
		w.app.Put("/api/v1/billing/subscription", tok, map[string]any{"plan": "pro", "country": "DE"}).Expect(http.StatusOK)
		w.app.Post("/api/v1/properties", tok, map[string]any{"name": fmt.Sprintf("Flat %d", i), "country_code": "DE"}).Expect(http.StatusCreated)
	}
	w.at(t, time.Date(2026, 12, 10, 6, 0, 0, 0, time.UTC))
	w.at(t, time.Date(2027, 1, 1, 6, 0, 0, 0, time.UTC))
	var numbers []string
	if err := w.app.DB.NewRaw("SELECT number FROM billing_invoices").Scan(t.Context(), &numbers); err != nil {
		t.Fatal(err)
	}
	sort.Strings(numbers)
	if len(numbers) != len(tokens) {
		t.Fatalf("invoices: %v, want %d", numbers, len(tokens))
	}
	for i, n := range numbers {
		if want := fmt.Sprintf("PM-2027-%06d", i+1); n != want {
			t.Fatalf("numbers %v: #%d is %s, want %s", numbers, i+1, n, want)
		}
	}
}
