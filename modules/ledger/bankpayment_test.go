package ledger_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
)

// TestPaymentIntoABankAccount: a payment posted with bank_account_id is
// booked to that account's sub-account 1800-N, its reversal takes it back
// from there, and the trial balance still sums to zero; another
// workspace's bank account, an unknown one, one for cash or a set-off are
// a 400 that writes nothing.
func TestPaymentIntoABankAccount(t *testing.T) {
	t.Parallel()
	app, token := start(t)
	f := lease(t, app, token, "DE", "de", "B-1", map[string]any{"code": "MONTHLY_RENT_AMOUNT", "value": 700},
		map[string]any{"code": "CONTRACT_START_DATE", "value": "2026-01-01"})
	app.Post(f.path("/expenses/refresh-all"), token, nil).Expect(http.StatusOK)
	first := id(t, app.Post("/api/v1/bank-accounts", token, map[string]any{"holder": "Vermieter", "iban": "DE89370400440532013000"}).
		Expect(http.StatusCreated))
	second := id(t, app.Post("/api/v1/bank-accounts", token, map[string]any{"holder": "Vermieter", "iban": "DE12500105170648489890"}).
		Expect(http.StatusCreated))
	stranger := accountstest.NewUser(t, app)
	theirs := id(t, app.Post("/api/v1/bank-accounts", stranger.Token, map[string]any{"holder": "Fremd", "iban": "DE02120300000000202051"}).
		Expect(http.StatusCreated))

	pay := func(body map[string]any) map[string]any {
		m := map[string]any{"amount": 100, "method": "bank_transfer", "contract_id": f.contract}
		for k, v := range body {
			m[k] = v
		}
		return m
	}
	before := balances(t, app, token, "")
	for _, c := range []struct {
		name   string
		body   map[string]any
		detail string
	}{
		{"another workspace's account", pay(map[string]any{"bank_account_id": theirs}), "bank_account_id: must be a bank account of the workspace"},
		{"an unknown account", pay(map[string]any{"bank_account_id": "0190b3c4-0000-7000-8000-000000000009"}), "bank_account_id: must be a bank account of the workspace"},
		{"not a UUID", pay(map[string]any{"bank_account_id": "1800-1"}), "bank_account_id: must be a UUID"},
		{"cash", pay(map[string]any{"bank_account_id": first, "method": "cash"}), "bank_account_id: only for money paid into a bank"},
		{"a set-off", pay(map[string]any{"bank_account_id": first, "method": "set_off"}), "bank_account_id: only for money paid into a bank"},
	} {
		r := app.Post(f.path("/payments"), token, c.body).Expect(http.StatusBadRequest)
		if !strings.Contains(r.String(), c.detail) || !strings.Contains(r.String(), "validation_failed") {
			t.Errorf("%s: %s lacks %q", c.name, r.String(), c.detail)
		}
	}
	var list struct {
		Payments []struct{} `json:"payments"`
	}
	app.Get(f.path("/payments"), token).Expect(http.StatusOK).JSON(&list)
	if len(list.Payments) != 0 {
		t.Fatalf("a refused payment was written: %d payments", len(list.Payments))
	}
	if after := balances(t, app, token, ""); len(after) != len(before) {
		t.Fatalf("a refused payment changed the chart: %v, was %v", after, before)
	}

	// 700 into the second account, 250 into the first, 50 without one:
	// 1800-2, 1800-1 and 1800.
	app.Post(f.path("/payments"), token, pay(map[string]any{"amount": 700, "bank_account_id": second})).Expect(http.StatusCreated)
	app.Post(f.path("/payments"), token, pay(map[string]any{"amount": 250, "bank_account_id": first})).Expect(http.StatusCreated)
	app.Post(f.path("/payments"), token, pay(map[string]any{"amount": 50})).Expect(http.StatusCreated)
	// Writers above the pool's size at once, each into the first account.
	const n = 12
	var wg sync.WaitGroup
	codes := make([]int, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			codes[i] = app.Post(f.path("/payments"), token, pay(map[string]any{"amount": 10, "bank_account_id": first})).Status
		}(i)
	}
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusCreated {
			t.Errorf("concurrent payment %d: %d", i, c)
		}
	}
	got := balances(t, app, token, "")
	if got["1800-2"] != "700.00" || got["1800-1"] != "370.00" || got["1800"] != "50.00" {
		t.Errorf("the bank's sub-accounts: 1800 %s, 1800-1 %s, 1800-2 %s", got["1800"], got["1800-1"], got["1800-2"])
	}

	// A reversal takes the money back from the account it came into.
	var p struct {
		ID string `json:"id"`
	}
	app.Post(f.path("/payments"), token, pay(map[string]any{"amount": 33.33, "bank_account_id": second})).Expect(http.StatusCreated).JSON(&p)
	app.Post(f.path("/payments/"+p.ID+"/reverse"), token, map[string]any{"reason": "Rücklastschrift"}).Expect(http.StatusOK)
	if got := balances(t, app, token, ""); got["1800-2"] != "700.00" {
		t.Errorf("1800-2 after the reversal: %s", got["1800-2"])
	}

	var tb struct {
		Rows []struct {
			Code string `json:"code"`
		} `json:"rows"`
		Totals []balance `json:"totals"`
	}
	app.Get("/api/v1/reports/trial-balance", token).Expect(http.StatusOK).JSON(&tb)
	if len(tb.Totals) != 1 || tb.Totals[0].Balance.String() != "0.00" || tb.Totals[0].Debit.String() != tb.Totals[0].Credit.String() {
		t.Errorf("trial balance: %+v", tb.Totals)
	}
	seen := map[string]bool{}
	for _, r := range tb.Rows {
		seen[r.Code] = true
	}
	if !seen["1800-1"] || !seen["1800-2"] {
		t.Errorf("the trial balance lacks the sub-accounts: %+v", tb.Rows)
	}
}
