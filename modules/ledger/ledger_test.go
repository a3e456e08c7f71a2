package ledger_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// A German tenancy booked from the deposit to its refund: each money
// event moves exactly the accounts an accountant expects, by the cent.
// Today is 2026-11-22.
func TestEveryMoneyEventIsBooked(t *testing.T) {
	app, token := start(t)
	f := lease(t, app, token, "DE", "de", "DE-7",
		map[string]any{"code": "MONTHLY_RENT_AMOUNT", "value": 1000}, map[string]any{"code": "CONTRACT_START_DATE", "value": "2026-08-01"},
		map[string]any{"code": "DEPOSIT_AMOUNT", "value": 3000})
	// The deposit charge: owed by the tenant, held for the tenant.
	expectBalances(t, app, token, "1200", "3000.00", "3500", "-3000.00")

	app.Post(f.path("/expenses/refresh-all?since=2026-08"), token, nil).Expect(http.StatusOK)
	// Rent of August to November.
	expectBalances(t, app, token, "1200", "7000.00", "3500", "-3000.00", "4100", "-4000.00")

	// 6,100 paid: the deposit and three rents, 100 more of November.
	pay := id(t, app.Post(f.path("/payments"), token, map[string]any{"amount": 6100, "paid_on": "2026-11-01", "method": "bank_transfer",
		"contract_id": f.contract}).Expect(http.StatusCreated))
	expectBalances(t, app, token, "1200", "900.00", "1800", "6100.00", "3500", "-3000.00", "4100", "-4000.00")

	// Reversed (the bank returned it), then paid again in cash, 50 too much.
	app.Post(f.path("/payments/"+pay+"/reverse"), token, map[string]any{"reason": "Rücklastschrift"}).Expect(http.StatusOK)
	expectBalances(t, app, token, "1200", "7000.00", "3500", "-3000.00", "4100", "-4000.00")
	app.Post(f.path("/payments"), token, map[string]any{"amount": 7050, "paid_on": "2026-11-02", "method": "cash",
		"contract_id": f.contract}).Expect(http.StatusCreated)
	expectBalances(t, app, token, "1600", "7050.00", "3520", "-50.00", "3500", "-3000.00", "4100", "-4000.00")

	// The tenant's repair, credited: a set-off, no money.
	cp := id(t, app.Post(f.path("/compensations"), token, map[string]any{"contract_id": f.contract, "kind": "repair_by_tenant", "amount": 75.25}).
		Expect(http.StatusCreated))
	app.Post(f.path("/compensations/"+cp+"/credit"), token, nil).Expect(http.StatusOK)
	// Nothing was owed: the credit is the tenant's until the next charge.
	expectBalances(t, app, token, "1600", "7050.00", "3520", "-125.25", "3500", "-3000.00", "4100", "-4000.00", "6800", "75.25")

	// A manual charge of the property (a key replaced): no contract's
	// credit goes to it.
	app.Post(f.path("/charges"), token, map[string]any{"name": "Schlüssel", "amount": 200, "due_date": "2026-11-20"}).Expect(http.StatusCreated)
	expectBalances(t, app, token, "1200", "200.00", "1600", "7050.00", "3520", "-125.25", "3500", "-3000.00", "4100", "-4000.00",
		"4200", "-200.00", "6800", "75.25")

	// Terminated and settled: nothing of the contract owed, 250.50
	// deducted (other income), 2,749.50 to refund; the refund paid by
	// transfer.
	app.Post("/api/v1/contracts/"+f.contract+"/terminate", token, map[string]any{"date": "2026-11-15", "reason": "Auszug"}).Expect(http.StatusOK)
	var st struct {
		CompensationID *string `json:"compensation_id"`
	}
	app.Post(f.path("/compensations/deposit-settlements"), token, map[string]any{"contract_id": f.contract,
		"deductions": []map[string]any{{"reason": "Sofabezug ersetzt", "amount": 250.50}}}).Expect(http.StatusCreated).JSON(&st)
	expectBalances(t, app, token, "1200", "200.00", "1600", "7050.00", "3520", "-125.25", "3530", "-2749.50", "4100", "-4000.00",
		"4200", "-450.50", "6800", "75.25")
	app.Post(f.path("/compensations/"+*st.CompensationID+"/pay-out"), token, map[string]any{"method": "bank_transfer", "reference": "SEPA-4711"}).
		Expect(http.StatusOK)
	expectBalances(t, app, token, "1200", "200.00", "1600", "7050.00", "1800", "-2749.50", "3520", "-125.25", "4100", "-4000.00",
		"4200", "-450.50", "6800", "75.25")

	// The trial balance: every account, totals that sum to zero; before
	// the payments only the charges due by then.
	var tb struct {
		AsOf string `json:"as_of"`
		Rows []struct {
			Code    string  `json:"code"`
			Name    string  `json:"name"`
			Balance string  `json:"-"`
			Cur     *string `json:"currency"`
		} `json:"rows"`
		Totals []balance `json:"totals"`
	}
	res := app.Get("/api/v1/reports/trial-balance", token).Expect(http.StatusOK)
	res.JSON(&tb)
	if tb.AsOf != "2026-11-22" || len(tb.Totals) != 1 || tb.Totals[0].Balance.String() != "0.00" || tb.Totals[0].Debit.String() != tb.Totals[0].Credit.String() {
		t.Fatalf("trial balance: %s", res.String())
	}
	if len(tb.Rows) != 19 {
		t.Errorf("trial balance has %d rows, want the 19 accounts", len(tb.Rows))
	}
	old := balances(t, app, token, "?as_of=2026-08-31")
	if old["1200"] != "4000.00" || old["3500"] != "-3000.00" || old["4100"] != "-1000.00" || old["1600"] != "0.00" {
		t.Errorf("balances at the end of August: %v", old)
	}

	// The journal: one entry per event, each balanced, reversals new entries.
	all := journal(t, app, token, "")
	kinds := map[string]int{}
	for _, e := range all {
		kinds[e.Kind]++
		var d, c int64
		for _, l := range e.Lines {
			d += cents(t, l.Debit)
			c += cents(t, l.Credit)
		}
		if d != c || d != cents(t, e.Total) {
			t.Errorf("entry %+v does not balance", e)
		}
	}
	want := map[string]int{"charge": 6, "payment": 2, "reversal": 1, "set_off": 1, "deposit_settled": 1, "refund_due": 1, "refund_paid": 1}
	for k, n := range want {
		if kinds[k] != n {
			t.Errorf("%d entries of kind %s, want %d (%v)", kinds[k], k, n, kinds)
		}
	}
	if got := journal(t, app, token, "&from=2026-11-21&to=2026-11-22"); len(got) != 5 {
		t.Errorf("journal of 21-22 November: %d entries, want 5 (reversal, set-off, deduction, refund due, payout)", len(got))
	}
	// Every entry but the property's own charge.
	if got := journal(t, app, token, "&contract_id="+f.contract); len(got) != len(all)-1 {
		t.Errorf("journal of the contract: %d entries of %d", len(got), len(all))
	}

	// The account's movements, keyset-paged.
	accts := chart(t, app, token, "")
	if accts["3500"].Name != "Tenant deposits held" || accts["3500"].Type != "liability" {
		t.Errorf("account 3500: %+v", accts["3500"])
	}
	var walked []int64
	next := ""
	for {
		var page struct {
			Movements []struct {
				ID   int64  `json:"id"`
				Kind string `json:"kind"`
				Date string `json:"date"`
			} `json:"movements"`
			Next *string `json:"next"`
		}
		url := "/api/v1/ledger/accounts/" + accts["1200"].ID + "/movements?per_page=3"
		if next != "" {
			url += "&after=" + next
		}
		app.Get(url, token).Expect(http.StatusOK).JSON(&page)
		for _, m := range page.Movements {
			walked = append(walked, m.ID)
		}
		if page.Next == nil {
			break
		}
		next = *page.Next
	}
	// Six charges, the payment, its reversal, the cash payment.
	if len(walked) != 9 {
		t.Errorf("receivable movements: %d, want 9", len(walked))
	}
}

// The account names and the export's columns are in the reader's
// language: the profile's, or ?locale= for the file.
func TestNamesAndExportInTheReadersLanguage(t *testing.T) {
	app, token := start(t)
	f := lease(t, app, token, "DE", "de", "DE-9",
		map[string]any{"code": "MONTHLY_RENT_AMOUNT", "value": 850.5}, map[string]any{"code": "CONTRACT_START_DATE", "value": "2026-11-01"},
		map[string]any{"code": "DEPOSIT_AMOUNT", "value": 1701})
	app.Post(f.path("/payments"), token, map[string]any{"amount": 1701, "paid_on": "2026-11-03", "method": "bank_transfer",
		"contract_id": f.contract}).Expect(http.StatusCreated)
	for _, c := range []struct{ locale, receivable, deposits, header, debit string }{
		{"de", "Forderungen aus Vermietung", "Erhaltene Mietkautionen", "Buchungsdatum;Buchung;Geschäftsvorfall;Buchungstext;Konto;Kontobezeichnung;Mietvertrag;Objekt;Soll;Haben", "1701,00"},
		{"fr", "Créances sur les locataires", "Dépôts de garantie reçus", "Date;Écriture;Opération;Libellé;Compte;Intitulé du compte;Bail;Bien;Débit;Crédit", "1701,00"},
		{"en", "Rent receivables", "Tenant deposits held", "Date,Entry,Event,Description,Account,Account name,Contract,Property,Debit,Credit", "1701.00"},
	} {
		app.Put("/api/v1/user/profile", token, map[string]any{"locale": c.locale}).Expect(http.StatusOK)
		accts := chart(t, app, token, "")
		if accts["1200"].Name != c.receivable || accts["3500"].Name != c.deposits {
			t.Errorf("%s: names %q, %q", c.locale, accts["1200"].Name, accts["3500"].Name)
		}
		csv := exportCSV(t, app, token, c.locale)
		rows := strings.Split(strings.TrimPrefix(csv, "\ufeff"), "\n")
		if strings.TrimSpace(rows[0]) != c.header {
			t.Errorf("%s: header %q", c.locale, rows[0])
		}
		if !strings.Contains(csv, "2026-11-03") || !strings.Contains(csv, c.debit) || !strings.Contains(csv, c.deposits) {
			t.Errorf("%s: the export lacks the payment:\n%s", c.locale, csv)
		}
	}
	xlsx := app.Get("/api/v1/ledger/journal/export?format=xlsx", token).Expect(http.StatusOK)
	if !strings.HasPrefix(string(xlsx.Body), "PK") {
		t.Errorf("xlsx: %q", xlsx.Body[:8])
	}
}

// Bad input is a clear 4xx and changes nothing; another workspace's
// account is not found.
func TestBadInput(t *testing.T) {
	app, token := start(t)
	lease(t, app, token, "DE", "de", "DE-1", map[string]any{"code": "MONTHLY_RENT_AMOUNT", "value": 500},
		map[string]any{"code": "CONTRACT_START_DATE", "value": "2026-11-01"})
	accts := chart(t, app, token, "")
	other := accountstest.NewUser(t, app)
	for _, c := range []struct {
		path   string
		token  string
		status int
	}{
		{"/api/v1/reports/trial-balance?as_of=2026-13-01", token, http.StatusBadRequest},
		{"/api/v1/reports/trial-balance?as_of=yesterday", token, http.StatusBadRequest},
		{"/api/v1/ledger/accounts?as_of=2026-02-30", token, http.StatusBadRequest},
		{"/api/v1/ledger/journal?from=2026-11-30&to=2026-11-01", token, http.StatusBadRequest},
		{"/api/v1/ledger/journal?contract_id=nope", token, http.StatusBadRequest},
		{"/api/v1/ledger/journal/export?format=json", token, http.StatusBadRequest},
		{"/api/v1/ledger/accounts/not-an-id/movements", token, http.StatusNotFound},
		{"/api/v1/ledger/accounts/0190b3c4-0000-7000-8000-000000000000/movements", token, http.StatusNotFound},
		{"/api/v1/ledger/accounts/" + accts["1200"].ID + "/movements", other.Token, http.StatusNotFound},
	} {
		app.Get(c.path, c.token).Expect(c.status)
	}
	// The stranger's own chart has none of it.
	for _, a := range chart(t, app, other.Token, "") {
		if len(a.Balances) != 0 || a.ID == accts[a.Code].ID {
			t.Errorf("another workspace's chart: %+v", a)
		}
	}
}

// exportCSV reads the journal as CSV in locale. It goes to Fiber
// directly: the response check's CSV reader knows only the comma, and a
// German or French file separates with semicolons (1.701,00 has a comma).
func exportCSV(t *testing.T, app *testkit.App, token, locale string) string {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/api/v1/ledger/journal/export?format=csv&locale="+locale, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := app.Fiber.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("export %s: %d %s", locale, res.StatusCode, body)
	}
	return string(body)
}
