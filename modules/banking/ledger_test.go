package banking_test

import (
	"encoding/json"
	"net/http"
	"testing"
)

// A payment imported from a bank account's statement is booked to that
// account's own sub-account of the bank (1800-n, made with the account);
// a cash payment keeps the cash account, and the books still balance.
func TestImportedPaymentsBookToTheirBankAccount(t *testing.T) {
	f := start(t)
	second := id(t, f.app.Post("/api/v1/bank-accounts", f.user.Token, map[string]any{"holder": "Hausverwaltung Schmidt",
		"iban": "DE02120300000000202051", "label": "Mietkonto"}).Expect(http.StatusCreated))
	anna := f.contract(t, "MV-1", "Anna Schmidt", 800, "2026-10-01")
	f.bill(t)
	if r := f.importFile(t, camt(2, "", []entry{{Ref: "A", Date: "2026-10-02", Cents: 80000, Name: "Anna Schmidt", IBAN: annaIBAN, Text: "Miete MV-1"}}), nil); r.Posted != 1 {
		t.Fatalf("import %+v", r)
	}
	f.app.Post("/api/v1/properties/"+f.propOf[anna]+"/payments", f.user.Token, map[string]any{"amount": 25.00, "paid_on": "2026-10-05",
		"method": "cash", "contract_id": anna}).Expect(http.StatusCreated)

	var chart struct {
		Accounts []struct {
			ID            string  `json:"id"`
			Code          string  `json:"code"`
			Role          string  `json:"role"`
			Name          string  `json:"name"`
			BankAccountID *string `json:"bank_account_id"`
			Balances      []struct {
				Balance json.Number `json:"balance"`
			} `json:"balances"`
		} `json:"accounts"`
	}
	f.app.Get("/api/v1/ledger/accounts", f.user.Token).Expect(http.StatusOK).JSON(&chart)
	got := map[string]string{}
	subs := map[string]string{}
	for _, a := range chart.Accounts {
		if len(a.Balances) == 1 {
			got[a.Code] = a.Balances[0].Balance.String()
		}
		if a.BankAccountID != nil {
			subs[a.Code] = *a.BankAccountID
			if a.Role != "bank" || a.Name == "" {
				t.Errorf("sub-account %+v", a)
			}
		}
	}
	if subs["1800-1"] != f.account || subs["1800-2"] != second || len(subs) != 2 {
		t.Fatalf("sub-accounts %v, want 1800-1 %s and 1800-2 %s", subs, f.account, second)
	}
	if got["1800-1"] != "800.00" || got["1600"] != "25.00" || got["1800"] != "" || got["1800-2"] != "" {
		t.Fatalf("balances %v", got)
	}
	var tb struct {
		Rows []struct {
			Code    string      `json:"code"`
			Balance json.Number `json:"balance"`
		} `json:"rows"`
		Totals []struct {
			Balance json.Number `json:"balance"`
		} `json:"totals"`
	}
	f.app.Get("/api/v1/reports/trial-balance", f.user.Token).Expect(http.StatusOK).JSON(&tb)
	found := false
	for _, r := range tb.Rows {
		found = found || (r.Code == "1800-1" && r.Balance.String() == "800.00")
	}
	if !found || len(tb.Totals) != 1 || tb.Totals[0].Balance.String() != "0.00" {
		t.Fatalf("trial balance %+v", tb)
	}
	for _, a := range chart.Accounts {
		if a.Code == "1800-1" {
			var mv struct {
				Movements []struct {
					Debit json.Number `json:"debit"`
				} `json:"movements"`
			}
			f.app.Get("/api/v1/ledger/accounts/"+a.ID+"/movements", f.user.Token).Expect(http.StatusOK).JSON(&mv)
			if len(mv.Movements) != 1 || mv.Movements[0].Debit.String() != "800.00" {
				t.Fatalf("movements %+v", mv)
			}
		}
	}
}
