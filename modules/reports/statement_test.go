package reports_test

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/testkit/requires"
)

// TestOwnerStatementShowsCashSetOffsAndBalances is issue 44's statement:
// November of a lease in which the deposit, the rent, the prepayment and
// 20.25 too much arrive by transfer, a rent reduction is set off (no
// money), one bill is paid and another is still owed. The statement must
// say, in German, French and English, to the cent: the rent as income,
// the deposit and the prepayment received but not income, the bill paid
// as money out, the set-off apart as no money, the deposit held and the
// unpaid bill at the month's end.
func TestOwnerStatementShowsCashSetOffsAndBalances(t *testing.T) {
	pdftotext := requires.Program(t, "pdftotext", "apt-get install poppler-utils")
	app := testkit.Start(t)
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	user := accountstest.NewUser(t, app)
	token := user.Token
	prop := idOf(t, app.Post("/api/v1/properties", token, map[string]any{"name": "Rosenweg 9", "country_code": "DE"}).Expect(http.StatusCreated))
	tenant := idOf(t, app.Post("/api/v1/contragents", token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Timo Berg"}).Expect(http.StatusCreated))
	supplier := idOf(t, app.Post("/api/v1/contragents", token, map[string]any{"kind": "company", "roles": []string{"provider"}, "name": "Glaserei Weiß"}).Expect(http.StatusCreated))
	contract := idOf(t, app.Post("/api/v1/contracts", token, map[string]any{"property_id": prop, "tenant_id": tenant, "number": "R-9",
		"terms": []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 800}, {"code": "UTILITY_PREPAYMENT_AMOUNT", "value": 150},
			{"code": "DEPOSIT_AMOUNT", "value": 2400}, {"code": "CONTRACT_START_DATE", "value": "2026-09-01"},
			{"code": "PAYMENT_DAY_OF_MONTH", "value": 3}}}).Expect(http.StatusCreated))
	app.Post("/api/v1/contracts/"+contract+"/activate", token, nil).Expect(http.StatusOK)
	path := "/api/v1/properties/" + prop
	app.Post(path+"/expenses/refresh-all?since=2026-09", token, nil).Expect(http.StatusOK)

	var list struct {
		Charges []struct {
			ID      string `json:"id"`
			Name    string `json:"name"`
			DueDate string `json:"due_date"`
		} `json:"charges"`
	}
	app.Get(path+"/charges?per_page=200", token).Expect(http.StatusOK).JSON(&list)
	find := func(prefix, month string) string {
		for _, c := range list.Charges {
			if strings.HasPrefix(c.Name, prefix) && strings.HasPrefix(c.DueDate, month) {
				return c.ID
			}
		}
		t.Fatalf("no %s charge in %s: %+v", prefix, month, list.Charges)
		return ""
	}
	app.Post(path+"/payments", token, map[string]any{"amount": 3370.25, "paid_on": "2026-11-03", "method": "bank_transfer", "contract_id": contract,
		"allocations": []map[string]any{{"charge_id": find("Deposit", "2026-09"), "amount": 2400},
			{"charge_id": find("Rent", "2026-11"), "amount": 800}, {"charge_id": find("Utility prepayment", "2026-11"), "amount": 150}}}).
		Expect(http.StatusCreated)
	cp := idOf(t, app.Post(path+"/compensations", token, map[string]any{"contract_id": contract, "kind": "rent_reduction", "amount": 64.10}).
		Expect(http.StatusCreated))
	app.Post(path+"/compensations/"+cp+"/credit", token, nil).Expect(http.StatusOK)
	bill := func(date, paid string, amount float64, category string) {
		body := map[string]any{"supplier_id": supplier, "bill_date": date, "amount": amount, "category": category}
		if paid != "" {
			body["paid_on"] = paid
		}
		app.Post(path+"/bills", token, body).Expect(http.StatusCreated)
	}
	bill("2026-10-15", "2026-11-10", 1190, "insurance")
	bill("2026-11-05", "", 238, "repairs")
	bill("2026-10-01", "2026-10-02", 99.99, "repairs") // paid in October: not November's

	type line struct{ label, amount string }
	cents := func(c int64) money.Amount { return money.Amount(c) }
	for _, lang := range []struct {
		locale string
		want   []line
	}{
		{"de", []line{{"Eigentümerabrechnung", ""}, {"Mieten", "80000"}, {"Einnahmen", "80000"}, {"Mietkautionen (für den Mieter verwahrt, keine Einnahme)", "240000"},
			{"Betriebskostenvorauszahlungen (jährlich abzurechnen, keine Einnahme)", "15000"}, {"Vorauszahlung (Guthaben des Mieters)", "2025"},
			{"Summe der Zahlungseingänge", "337025"}, {"Bezahlte Rechnungen", "119000"}, {"Summe der Zahlungsausgänge", "119000"},
			{"Überschuss (Eingänge abzüglich Ausgänge)", "218025"}, {"Mit offenen Forderungen verrechnete Ansprüche des Mieters", "6410"},
			{"Verwahrte Mietkautionen", "240000"}, {"Noch nicht bezahlte Rechnungen", "23800"}, {"In diesem Monat berechnet", "95000"}}},
		{"fr", []line{{"Relevé propriétaire", ""}, {"Loyers", "80000"}, {"Dépôts de garantie (détenus pour le locataire, hors revenus)", "240000"},
			{"Provisions pour charges (régularisées chaque année, hors revenus)", "15000"}, {"Total des encaissements", "337025"},
			{"Factures réglées", "119000"}, {"Solde (encaissements moins décaissements)", "218025"},
			{"Créances du locataire compensées avec les sommes dues", "6410"}, {"Dépôts de garantie détenus", "240000"}, {"Factures restant à payer", "23800"}}},
		{"en", []line{{"Owner statement", ""}, {"Rent", "80000"}, {"Income", "80000"}, {"Deposits (held for the tenant, not income)", "240000"},
			{"Total received", "337025"}, {"Bills paid", "119000"}, {"Net (received less paid out)", "218025"},
			{"Tenant's claims set off against what they owed", "6410"}, {"Deposits held", "240000"}, {"Refunds due to tenants", "0"},
			{"Bills not yet paid", "23800"}}},
	} {
		app.Put("/api/v1/user/profile", token, map[string]any{"locale": lang.locale}).Expect(http.StatusOK)
		res := app.Get("/api/v1/reports/owner-statement?property_id="+prop+"&month=2026-11", token).Expect(http.StatusOK)
		file := filepath.Join(t.TempDir(), "s.pdf")
		if err := os.WriteFile(file, res.Body, 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(pdftotext, "-enc", "UTF-8", "-layout", file, "-").CombinedOutput()
		if err != nil {
			t.Fatalf("pdftotext: %v\n%s", err, out)
		}
		text := strings.ReplaceAll(string(out), "\u00a0", " ")
		style := printforms.StyleOf(lang.locale)
		for _, w := range lang.want {
			found := false
			for _, l := range strings.Split(text, "\n") {
				l = strings.TrimSpace(l)
				if !strings.HasPrefix(l, w.label) {
					continue
				}
				if w.amount == "" {
					found = true
					break
				}
				var c int64
				for _, r := range w.amount {
					c = c*10 + int64(r-'0')
				}
				amount := strings.ReplaceAll(style.Money(cents(c), "EUR"), "\u00a0", " ")
				if strings.HasSuffix(l, amount) && strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(l, w.label), amount)) == "" {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s: no line %q with %s:\n%s", lang.locale, w.label, w.amount, text)
			}
		}
	}
}
