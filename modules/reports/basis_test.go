package reports_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/testkit"
)

type basisMonth struct {
	Month       string      `json:"month"`
	Currency    string      `json:"currency"`
	Charged     json.Number `json:"charged"`
	Collected   json.Number `json:"collected"`
	RentIncome  json.Number `json:"rent_income"`
	OtherIncome json.Number `json:"other_income"`
	Income      json.Number `json:"income"`
	Deposits    json.Number `json:"deposits"`
	Prepayments json.Number `json:"prepayments"`
	Advance     json.Number `json:"advance"`
	NonCash     json.Number `json:"non_cash"`
}

type basisReport struct {
	Basis  string       `json:"basis"`
	Months []basisMonth `json:"months"`
	Totals []basisMonth `json:"totals"`
}

// the columns a test compares, in order.
func (m basisMonth) figures() [7]string {
	return [7]string{m.RentIncome.String(), m.OtherIncome.String(), m.Income.String(), m.Deposits.String(),
		m.Prepayments.String(), m.Advance.String(), m.NonCash.String()}
}

// centsText writes cents as the API writes amounts.
func centsText(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}

// classOf is the class of a charge as the test reads it from the API: the
// deposit and the prepayment by their names, late fees and one-off
// charges (no expense) other income, the rest rent.
func classOf(c struct {
	ID        string  `json:"id"`
	Name      string  `json:"name"`
	Kind      string  `json:"kind"`
	Amount    float64 `json:"amount"`
	DueDate   string  `json:"due_date"`
	ExpenseID *string `json:"expense_id"`
	Status    string  `json:"status"`
}) int {
	switch {
	case c.Kind != "regular":
		return 1
	case c.Name == "Deposit":
		return 3
	case strings.HasPrefix(c.Name, "Utility prepayment"):
		return 4
	case c.ExpenseID == nil:
		return 1
	}
	return 0
}

// TestIncomeByCashAndByAccrual books a lease's autumn (deposit, rent,
// prepayments, a key charge, payments in bank and cash with explicit
// allocations, credit, a compensation set off) and checks each month of
// both bases, to the cent, against sums the test makes from the charges
// and payments the API lists.
func TestIncomeByCashAndByAccrual(t *testing.T) {
	app := testkit.Start(t)
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	token := accountstest.NewUser(t, app).Token
	prop := idOf(t, app.Post("/api/v1/properties", token, map[string]any{"name": "Lindenstraße 4", "country_code": "DE"}).Expect(http.StatusCreated))
	tenant := idOf(t, app.Post("/api/v1/contragents", token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Jana Vogel"}).Expect(http.StatusCreated))
	contract := idOf(t, app.Post("/api/v1/contracts", token, map[string]any{"property_id": prop, "tenant_id": tenant, "number": "L-4",
		"terms": []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 800}, {"code": "UTILITY_PREPAYMENT_AMOUNT", "value": 150},
			{"code": "DEPOSIT_AMOUNT", "value": 2400}, {"code": "CONTRACT_START_DATE", "value": "2026-09-01"},
			{"code": "PAYMENT_DAY_OF_MONTH", "value": 3}}}).Expect(http.StatusCreated))
	app.Post("/api/v1/contracts/"+contract+"/activate", token, nil).Expect(http.StatusOK)
	path := "/api/v1/properties/" + prop
	app.Post(path+"/expenses/refresh-all?since=2026-09", token, nil).Expect(http.StatusOK)
	app.Post(path+"/charges", token, map[string]any{"name": "Schlüssel", "amount": 45.5, "due_date": "2026-10-20", "contract_id": contract}).Expect(http.StatusCreated)

	type charge = struct {
		ID        string  `json:"id"`
		Name      string  `json:"name"`
		Kind      string  `json:"kind"`
		Amount    float64 `json:"amount"`
		DueDate   string  `json:"due_date"`
		ExpenseID *string `json:"expense_id"`
		Status    string  `json:"status"`
	}
	var list struct {
		Charges []charge `json:"charges"`
	}
	app.Get(path+"/charges?per_page=200", token).Expect(http.StatusOK).JSON(&list)
	byMonth := func(month string, class int) string {
		for _, c := range list.Charges {
			if strings.HasPrefix(c.DueDate, month) && classOf(c) == class {
				return c.ID
			}
		}
		t.Fatalf("no charge of class %d in %s: %+v", class, month, list.Charges)
		return ""
	}
	deposit, sepRent, sepPre := byMonth("2026-09", 3), byMonth("2026-09", 0), byMonth("2026-09", 4)
	octRent := byMonth("2026-10", 0)
	// September: the deposit, the rent and the prepayment by transfer.
	app.Post(path+"/payments", token, map[string]any{"amount": 3350, "paid_on": "2026-09-02", "method": "bank_transfer", "contract_id": contract,
		"allocations": []map[string]any{{"charge_id": deposit, "amount": 2400}, {"charge_id": sepRent, "amount": 800}, {"charge_id": sepPre, "amount": 150}}}).
		Expect(http.StatusCreated)
	// October: the rent and 20.25 more (credit) in cash.
	app.Post(path+"/payments", token, map[string]any{"amount": 820.25, "paid_on": "2026-10-05", "method": "cash", "contract_id": contract,
		"allocations": []map[string]any{{"charge_id": octRent, "amount": 800}}}).Expect(http.StatusCreated)
	// November: 999.99 by transfer to whatever is oldest, and a rent
	// reduction of 64.10 set off (today, 2026-11-22).
	app.Post(path+"/payments", token, map[string]any{"amount": 999.99, "paid_on": "2026-11-04", "method": "bank_transfer", "contract_id": contract}).
		Expect(http.StatusCreated)
	cp := idOf(t, app.Post(path+"/compensations", token, map[string]any{"contract_id": contract, "kind": "rent_reduction", "amount": 64.10}).
		Expect(http.StatusCreated))
	app.Post(path+"/compensations/"+cp+"/credit", token, nil).Expect(http.StatusOK)

	// The test's own sums: accrual from the charges (re-read: the credit
	// paid some), cash from the payments' live allocations.
	app.Get(path+"/charges?per_page=200", token).Expect(http.StatusOK).JSON(&list)
	class := map[string]int{}
	accrual := map[string]*[7]int64{}
	cash := map[string]*[7]int64{}
	at := func(m map[string]*[7]int64, month string) *[7]int64 {
		if m[month] == nil {
			m[month] = &[7]int64{}
		}
		return m[month]
	}
	for _, c := range list.Charges {
		class[c.ID] = classOf(c)
		if c.Status == "cancelled" {
			continue
		}
		at(accrual, c.DueDate[:7])[classOf(c)] += cents(c.Amount)
	}
	var pays struct {
		Payments []struct {
			Amount      float64 `json:"amount"`
			PaidOn      string  `json:"paid_on"`
			Method      string  `json:"method"`
			Status      string  `json:"status"`
			Unallocated float64 `json:"unallocated"`
			Allocations []struct {
				ChargeID string  `json:"charge_id"`
				Amount   float64 `json:"amount"`
			} `json:"allocations"`
		} `json:"payments"`
	}
	app.Get(path+"/payments?per_page=200", token).Expect(http.StatusOK).JSON(&pays)
	if len(pays.Payments) != 4 {
		t.Fatalf("%d payments", len(pays.Payments))
	}
	for _, p := range pays.Payments {
		m := at(cash, p.PaidOn[:7])
		if p.Method == "set_off" {
			m[6] += cents(p.Amount)
			continue
		}
		for _, a := range p.Allocations {
			m[class[a.ChargeID]] += cents(a.Amount)
		}
		m[5] += cents(p.Unallocated)
	}
	for _, m := range []map[string]*[7]int64{accrual, cash} {
		for _, v := range m {
			v[2] = v[0] + v[1]
		}
	}

	check := func(basis string, want map[string]*[7]int64) {
		var r basisReport
		app.Get("/api/v1/reports/income?year=2026&basis="+basis+"&property_id="+prop, token).Expect(http.StatusOK).JSON(&r)
		if r.Basis != basis || len(r.Months) != 12 || len(r.Totals) != 1 {
			t.Fatalf("%s: %+v", basis, r)
		}
		var total [7]int64
		for _, m := range r.Months {
			w := [7]int64{}
			if want[m.Month] != nil {
				w = *want[m.Month]
			}
			var ws [7]string
			for i := range w {
				ws[i] = centsText(w[i])
				total[i] += w[i]
			}
			if m.figures() != ws {
				t.Errorf("%s %s: rent, other, income, deposits, prepayments, advance, non-cash %v, want %v", basis, m.Month, m.figures(), ws)
			}
		}
		var ts [7]string
		for i := range total {
			ts[i] = centsText(total[i])
		}
		if r.Totals[0].figures() != ts {
			t.Errorf("%s total: %v, want %v", basis, r.Totals[0].figures(), ts)
		}
	}
	check("accrual", accrual)
	check("cash", cash)

	// The figures the test expects, written out: September's rent and
	// prepayment received with the deposit, which is no income.
	var r basisReport
	app.Get("/api/v1/reports/income?year=2026&property_id="+prop, token).Expect(http.StatusOK).JSON(&r)
	sep := r.Months[8]
	if r.Basis != "cash" || sep.Month != "2026-09" || sep.Income.String() != "800.00" || sep.Deposits.String() != "2400.00" ||
		sep.Prepayments.String() != "150.00" || sep.Collected.String() != "3350.00" {
		t.Errorf("September by cash: %+v", sep)
	}
	if oct := r.Months[9]; oct.RentIncome.String() != "800.00" || oct.Advance.String() != "20.25" || oct.Income.String() != "800.00" {
		t.Errorf("October by cash: %+v", oct)
	}
	if nov := r.Months[10]; nov.NonCash.String() != "64.10" || nov.Collected.String() != "1064.09" {
		t.Errorf("November by cash: %+v", nov)
	}
	var acc basisReport
	app.Get("/api/v1/reports/income?year=2026&basis=accrual&property_id="+prop, token).Expect(http.StatusOK).JSON(&acc)
	if oct := acc.Months[9]; oct.RentIncome.String() != "800.00" || oct.OtherIncome.String() != "45.50" || oct.Income.String() != "845.50" ||
		oct.Prepayments.String() != "150.00" || oct.Deposits.String() != "0.00" || oct.Charged.String() != "995.50" {
		t.Errorf("October by accrual: %+v", oct)
	}
	app.Get("/api/v1/reports/income?basis=cashflow", token).Expect(http.StatusBadRequest)
}

func idOf(t testing.TB, r *testkit.Response) string {
	t.Helper()
	var v struct {
		ID string `json:"id"`
	}
	r.JSON(&v)
	return v.ID
}
