package taxyear_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/testkit"
)

type taxLine struct {
	Line   string       `json:"line"`
	Key    string       `json:"key"`
	Kind   string       `json:"kind"`
	Label  string       `json:"label"`
	Amount *json.Number `json:"amount"`
}

type taxBlock struct {
	PropertyID   *string   `json:"property_id"`
	PropertyName *string   `json:"property_name"`
	Currency     string    `json:"currency"`
	Lines        []taxLine `json:"lines"`
}

type taxYear struct {
	Form       string     `json:"form"`
	Year       int        `json:"year"`
	From       string     `json:"from"`
	To         string     `json:"to"`
	Basis      string     `json:"basis"`
	Locale     string     `json:"locale"`
	Title      string     `json:"title"`
	Properties []taxBlock `json:"properties"`
	Totals     []taxBlock `json:"totals"`
}

func id(t testing.TB, r *testkit.Response) string {
	t.Helper()
	var v struct {
		ID string `json:"id"`
	}
	r.JSON(&v)
	return v.ID
}

// centsText writes cents as the API writes amounts.
func centsText(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}

// What the test posts, as it counts for a cash-basis tax year.
const (
	rent    = "rent"
	other   = "other_income" // not the bills' category "other"
	prepay  = "prepay"
	deposit = "deposit"
	comp    = "comp"
)

// event is money the test moved: on a day, for one of its properties,
// of a kind (an income class above, or a bill's category).
type event struct {
	day   string
	prop  int
	what  string
	cents int64
}

// portfolio is one landlord's year: two properties in one country, a
// tenant on each, bills, and everything the test posted.
type portfolio struct {
	app      *testkit.App
	userID   int64
	token    string
	props    [2]string
	currency string
	supplier string
	events   []event
}

func (p *portfolio) path(i int, s string) string { return "/api/v1/properties/" + p.props[i] + s }

// at moves the clock to 10:00 on day and signs in again (a token of the
// day before would have expired).
func (p *portfolio) at(t testing.TB, day string) {
	t.Helper()
	d, err := time.Parse("2006-01-02", day)
	if err != nil {
		t.Fatal(err)
	}
	p.app.Clock.Set(d.Add(10 * time.Hour))
	if p.token, err = p.app.Tokens.Issue(p.userID, 0, p.app.Clock.Now()); err != nil {
		t.Fatal(err)
	}
}

type charge struct {
	ID        string  `json:"id"`
	Name      string  `json:"name"`
	NameKind  string  `json:"name_kind"`
	Kind      string  `json:"kind"`
	Amount    float64 `json:"amount"`
	DueDate   string  `json:"due_date"`
	ExpenseID *string `json:"expense_id"`
	Status    string  `json:"status"`
}

// charge finds the property's charge of a class due in month.
func (p *portfolio) charge(t testing.TB, i int, month, class string) string {
	t.Helper()
	var list struct {
		Charges []charge `json:"charges"`
	}
	p.app.Get(p.path(i, "/charges?per_page=200"), p.token).Expect(http.StatusOK).JSON(&list)
	for _, c := range list.Charges {
		var k string
		switch {
		case c.NameKind == "deposit": // the name is in the reader's language
			k = deposit
		case c.NameKind == "utility_prepayment":
			k = prepay
		case c.ExpenseID != nil:
			k = rent
		default:
			k = other
		}
		if k == class && strings.HasPrefix(c.DueDate, month) && c.Status != "cancelled" {
			return c.ID
		}
	}
	t.Fatalf("property %d has no %s charge due in %s: %+v", i, class, month, list.Charges)
	return ""
}

type part struct {
	class string
	cents int64
}

// pay posts a bank transfer on day paying the parts, each to the
// property's charge of its class due in month, and records it.
func (p *portfolio) pay(t testing.TB, i int, contract, day, month string, parts ...part) {
	t.Helper()
	var total int64
	var allocs []map[string]any
	for _, pt := range parts {
		allocs = append(allocs, map[string]any{"charge_id": p.charge(t, i, month, pt.class), "amount": json.Number(centsText(pt.cents))})
		total += pt.cents
		p.events = append(p.events, event{day, i, pt.class, pt.cents})
	}
	p.app.Post(p.path(i, "/payments"), p.token, map[string]any{"amount": json.Number(centsText(total)), "paid_on": day,
		"method": "bank_transfer", "contract_id": contract, "allocations": allocs}).Expect(http.StatusCreated)
}

// bill records a bill of the property, paid on paid (or not, ""); only
// a paid one is an event of the cash basis.
func (p *portfolio) bill(t testing.TB, i int, category, billDate, paid string, cents int64, extra ...map[string]any) {
	t.Helper()
	body := map[string]any{"supplier_id": p.supplier, "bill_date": billDate, "amount": json.Number(centsText(cents)), "category": category}
	if paid != "" {
		body["paid_on"] = paid
		p.events = append(p.events, event{paid, i, category, cents})
	}
	for _, e := range extra {
		for k, v := range e {
			body[k] = v
		}
	}
	p.app.Post(p.path(i, "/bills"), p.token, body).Expect(http.StatusCreated)
}

func (p *portfolio) refresh(t testing.TB) {
	t.Helper()
	for i := range p.props {
		if p.props[i] == "" {
			continue
		}
		p.app.Post(p.path(i, "/expenses/refresh-all?since=2025-01"), p.token, nil).Expect(http.StatusOK)
	}
}

func (p *portfolio) lease(t testing.TB, i int, number, start string, terms ...map[string]any) string {
	t.Helper()
	tenant := id(t, p.app.Post("/api/v1/contragents", p.token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Mieter " + number}).
		Expect(http.StatusCreated))
	terms = append(terms, map[string]any{"code": "CONTRACT_START_DATE", "value": start}, map[string]any{"code": "PAYMENT_DAY_OF_MONTH", "value": 3})
	c := id(t, p.app.Post("/api/v1/contracts", p.token, map[string]any{"property_id": p.props[i], "tenant_id": tenant, "number": number,
		"terms": terms}).Expect(http.StatusCreated))
	p.app.Post("/api/v1/contracts/"+c+"/activate", p.token, nil).Expect(http.StatusOK)
	return c
}

// newPortfolio walks a landlord through 2025 and into 2026 with the
// clock: two leases (one ending in September, its deposit applied to the
// unpaid rent and a deduction kept), rent paid on time, late and across
// both year ends (the calendar's and the UK's 5 April), a compensation
// set off, prepayments, a one-off charge, bills of every category paid,
// paid the next year or not at all.
func newPortfolio(t *testing.T, country string) *portfolio {
	t.Helper()
	app := testkit.Start(t, testkit.WithClock(time.Date(2025, 1, 1, 10, 0, 0, 0, time.UTC)))
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	u := accountstest.NewUser(t, app)
	p := &portfolio{app: app, userID: u.ID, token: u.Token}
	var prop struct {
		ID       string `json:"id"`
		Currency string `json:"currency"`
	}
	for i, name := range []string{"Lindenstraße 4", "Am Markt 9"} {
		app.Post("/api/v1/properties", p.token, map[string]any{"name": name, "country_code": country, "address": name, "city": "Musterstadt"}).
			Expect(http.StatusCreated).JSON(&prop)
		p.props[i], p.currency = prop.ID, prop.Currency
	}
	p.supplier = id(t, app.Post("/api/v1/contragents", p.token, map[string]any{"kind": "company", "roles": []string{"provider"}, "name": "Stadtwerke"}).
		Expect(http.StatusCreated))

	a := p.lease(t, 0, "A-1", "2025-01-01", map[string]any{"code": "MONTHLY_RENT_AMOUNT", "value": 800},
		map[string]any{"code": "UTILITY_PREPAYMENT_AMOUNT", "value": 150}, map[string]any{"code": "DEPOSIT_AMOUNT", "value": 2400})
	b := p.lease(t, 1, "B-1", "2025-02-01", map[string]any{"code": "MONTHLY_RENT_AMOUNT", "value": 600},
		map[string]any{"code": "DEPOSIT_AMOUNT", "value": 1200})

	for m := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC); m.Before(time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)); m = m.AddDate(0, 1, 0) {
		month := m.Format("2006-01")
		day := func(d int) string { return fmt.Sprintf("%s-%02d", month, d) }
		p.at(t, day(1))
		if month == "2025-10" {
			// B moved out at the end of September, its rent unpaid.
			p.app.Post("/api/v1/contracts/"+b+"/terminate", p.token, map[string]any{"date": "2025-09-30", "reason": "Auszug"}).Expect(http.StatusOK)
		}
		p.refresh(t)
		p.at(t, day(3))
		switch month {
		case "2025-01":
			p.pay(t, 0, a, day(3), month, part{deposit, 240000}, part{rent, 80000}, part{prepay, 15000})
		case "2025-06":
			// The prepayment on time; the tenant's repair of 64.10 set
			// off against the rent (the only charge open), the rest of
			// the rent later.
			p.pay(t, 0, a, day(3), month, part{prepay, 15000})
			p.at(t, day(10))
			cp := id(t, p.app.Post(p.path(0, "/compensations"), p.token, map[string]any{"contract_id": a, "kind": "repair_by_tenant", "amount": 64.10}).
				Expect(http.StatusCreated))
			p.app.Post(p.path(0, "/compensations/"+cp+"/credit"), p.token, nil).Expect(http.StatusOK)
			p.events = append(p.events, event{day(10), 0, rent, 6410}, event{day(10), 0, comp, 6410})
			p.at(t, day(20))
			p.pay(t, 0, a, day(20), month, part{rent, 73590})
		case "2025-03", "2025-12":
			// The rent late: March's on 8 April (after the UK's year
			// end), December's on 5 January.
			p.pay(t, 0, a, day(3), month, part{prepay, 15000})
		default:
			p.pay(t, 0, a, day(3), month, part{rent, 80000}, part{prepay, 15000})
		}
		switch {
		case month == "2025-02":
			p.pay(t, 1, b, day(3), month, part{deposit, 120000}, part{rent, 60000})
		case month > "2025-02" && month < "2025-09":
			p.pay(t, 1, b, day(3), month, part{rent, 60000})
		}
		switch month {
		case "2025-01":
			p.at(t, day(20))
			p.bill(t, 0, "insurance", day(15), day(20), 48000)
		case "2025-02":
			p.at(t, day(15))
			p.bill(t, 0, "property_tax", day(15), day(15), 31040)
		case "2025-03":
			p.at(t, day(5))
			p.bill(t, 0, "operating", day(1), day(5), 96000, map[string]any{"allocable": true, "operating_cost_category": "heating"})
		case "2025-04":
			p.bill(t, 1, "insurance", day(1), day(2), 20000) // before 6 April: the UK's tax year 2024
			p.at(t, day(8))
			p.pay(t, 0, a, day(8), "2025-03", part{rent, 80000})
		case "2025-05":
			p.at(t, day(20))
			key := id(t, p.app.Post(p.path(0, "/charges"), p.token, map[string]any{"name": "Schlüssel", "amount": 45.5, "due_date": day(20),
				"contract_id": a}).Expect(http.StatusCreated))
			p.at(t, day(30))
			// A charge of the property, no contract's: paid on its own.
			p.app.Post(p.path(0, "/payments"), p.token, map[string]any{"amount": 45.5, "paid_on": day(25), "method": "bank_transfer",
				"allocations": []map[string]any{{"charge_id": key, "amount": 45.5}}}).Expect(http.StatusCreated)
			p.events = append(p.events, event{day(25), 0, other, 4550})
			p.bill(t, 0, "repairs", day(10), day(30), 125000)
		case "2025-07":
			p.bill(t, 0, "management", "2025-06-30", day(2), 30000)
			// The interest part of the half-year's loan instalments
			// (the repayment of principal is no bill).
			p.bill(t, 0, "loan_interest", day(1), day(3), 41237)
		case "2025-08":
			p.at(t, day(16))
			p.bill(t, 0, "property_tax", day(15), day(16), 31040)
		case "2025-09":
			p.at(t, day(10))
			p.bill(t, 1, "other", day(1), day(10), 8999)
			p.bill(t, 1, "loan_interest", day(1), day(10), 15000)
		case "2025-10":
			// B's deposit settled: 600 applied to September's rent (a
			// set-off: rent received that day), 100.50 kept for a
			// repair (other income), the rest refunded.
			p.at(t, day(10))
			var st struct {
				CompensationID *string `json:"compensation_id"`
			}
			p.app.Post(p.path(1, "/compensations/deposit-settlements"), p.token, map[string]any{"contract_id": b,
				"deductions": []map[string]any{{"reason": "Wand gestrichen", "amount": 100.50}}}).Expect(http.StatusCreated).JSON(&st)
			p.events = append(p.events, event{day(10), 1, rent, 60000}, event{day(10), 1, other, 10050})
			p.at(t, day(15))
			p.app.Post(p.path(1, "/compensations/"+*st.CompensationID+"/pay-out"), p.token, map[string]any{"method": "bank_transfer"}).
				Expect(http.StatusOK)
		case "2025-11":
			p.at(t, day(11))
			p.bill(t, 0, "repairs", day(11), "", 5500) // never paid
		case "2026-01":
			p.at(t, day(10))
			p.pay(t, 0, a, "2026-01-05", "2025-12", part{rent, 80000})
			p.bill(t, 0, "repairs", "2025-12-20", day(10), 70000) // billed in 2025, paid in 2026
		}
	}
	return p
}

// The forms' lines as the test maps what it posted to them (the code's
// table, written again from the forms).
var expected = map[string][]struct {
	line, key string
	from      []string
}{
	"anlage-v": {{"9", "rent", []string{rent}}, {"13", "allocations", []string{prepay}}, {"20", "other_income", []string{other}},
		{"40", "maintenance", []string{"repairs"}}, {"46", "running_costs", []string{"property_tax", "insurance", "operating"}},
		{"37", "interest", []string{"loan_interest"}}, {"47", "management", []string{"management"}}, {"48", "other_costs", []string{"other", comp}}},
	"2044": {{"211", "rent", []string{rent, other}}, {"221", "administration", []string{"management"}},
		{"222", "management_other", []string{"other", comp}}, {"223", "insurance", []string{"insurance"}}, {"224", "works", []string{"repairs"}},
		{"227", "property_tax", []string{"property_tax"}}, {"229", "provisions", []string{"operating"}}, {"250", "interest", []string{"loan_interest"}}},
	"sa105": {{"20", "income", []string{rent, other, prepay}}, {"24", "rent_rates_insurance", []string{"property_tax", "insurance"}},
		{"25", "repairs", []string{"repairs"}}, {"27", "professional_fees", []string{"management"}}, {"28", "services", []string{"operating"}},
		{"29", "other", []string{"other", comp}}},
	"schedule-e": {{"3", "rents", []string{rent, other, prepay}}, {"9", "insurance", []string{"insurance"}}, {"11", "management", []string{"management"}},
		{"12", "mortgage_interest", []string{"loan_interest"}},
		{"14", "repairs", []string{"repairs"}}, {"16", "taxes", []string{"property_tax"}}, {"17", "utilities", []string{"operating"}},
		{"19", "other", []string{"other", comp}}},
}

var incomeClasses = map[string]bool{rent: true, other: true, prepay: true}

// want is what the test expects of each line key of the form for the
// properties (indexes), from its events dated from..to.
func (p *portfolio) want(form, from, to string, props ...int) map[string]int64 {
	sums := map[string]int64{}
	for _, e := range p.events {
		for _, i := range props {
			if e.prop == i && e.day >= from && e.day <= to {
				sums[e.what] += e.cents
			}
		}
	}
	out := map[string]int64{"deposits": sums[deposit]}
	var income, expense int64
	for _, l := range expected[form] {
		var v int64
		for _, src := range l.from {
			v += sums[src]
		}
		out[l.key] = v
		if incomeClasses[l.from[0]] {
			income += v
		} else {
			expense += v
		}
	}
	out["expense_total"], out["result"] = expense, income-expense
	switch form {
	case "2044":
		out["tenant_provisions"] = sums[prepay]
		// Ligne 240 is the costs without the interest of ligne 250; the
		// result 261 takes both off.
		out["expense_total"] -= sums["loan_interest"]
	case "sa105":
		// Box 44: residential finance costs are a tax reduction, shown
		// and in no total.
		out["residential_finance_costs"] = sums["loan_interest"]
	}
	if form != "schedule-e" {
		out["income_total"] = income
	}
	return out
}

// check compares every line of a block with want: each line the test
// expects, each manual line null, nothing else.
func check(t *testing.T, what string, b taxBlock, want map[string]int64) {
	t.Helper()
	seen := map[string]bool{}
	for _, l := range b.Lines {
		seen[l.Key] = true
		if l.Label == "" {
			t.Errorf("%s: line %s %s has no label", what, l.Line, l.Key)
		}
		if l.Kind == "manual" {
			if l.Amount != nil {
				t.Errorf("%s: manual line %s %s has an amount %s", what, l.Line, l.Key, *l.Amount)
			}
			continue
		}
		w, ok := want[l.Key]
		if !ok {
			t.Errorf("%s: line %s %s is not expected", what, l.Line, l.Key)
			continue
		}
		if l.Amount == nil || l.Amount.String() != centsText(w) {
			t.Errorf("%s: line %s %s (%s) is %v, want %s", what, l.Line, l.Key, l.Label, l.Amount, centsText(w))
		}
	}
	for k := range want {
		if !seen[k] {
			t.Errorf("%s: no line %s", what, k)
		}
	}
}

// TestTaxYearFromTheBooks walks a year of a small portfolio in each of
// the four countries and checks every line of its form, per property, for
// one property asked alone and for the workspace, against the sums the
// test makes of what it posted.
func TestTaxYearFromTheBooks(t *testing.T) {
	for _, c := range []struct{ country, form, from, to string }{
		{"DE", "anlage-v", "2025-01-01", "2025-12-31"},
		{"FR", "2044", "2025-01-01", "2025-12-31"},
		{"GB", "sa105", "2025-04-06", "2026-04-05"},
		{"US", "schedule-e", "2025-01-01", "2025-12-31"},
	} {
		t.Run(c.form, func(t *testing.T) {
			t.Parallel()
			p := newPortfolio(t, c.country)
			var all taxYear
			p.app.Get("/api/v1/reports/tax-year?year=2025", p.token).Expect(http.StatusOK).JSON(&all)
			if all.Form != c.form || all.Year != 2025 || all.From != c.from || all.To != c.to || all.Basis != "cash" ||
				len(all.Properties) != 2 || len(all.Totals) != 1 || all.Title == "" {
				t.Fatalf("the workspace's year: %+v", all)
			}
			for i, b := range all.Properties {
				// By name: Am Markt 9 (the second property) first.
				prop := 1 - i
				if b.PropertyID == nil || *b.PropertyID != p.props[prop] || b.Currency != p.currency {
					t.Fatalf("block %d: %+v", i, b)
				}
				check(t, fmt.Sprintf("property %d", prop), b, p.want(c.form, c.from, c.to, prop))
			}
			check(t, "workspace", all.Totals[0], p.want(c.form, c.from, c.to, 0, 1))
			if all.Totals[0].PropertyID != nil || all.Totals[0].Currency != p.currency {
				t.Errorf("totals: %+v", all.Totals[0])
			}

			if c.form == "anlage-v" {
				// The figures written out for Lindenstraße 4: eleven rents
				// (December's came in January), twelve prepayments, the
				// key; insurance, property tax twice and the heating on
				// line 46; the loan interest on line 37; the compensation set off
				// on line 48.
				got := map[string]string{}
				for _, l := range all.Properties[1].Lines {
					if l.Amount != nil {
						got[l.Line+" "+l.Key] = l.Amount.String()
					}
				}
				want := map[string]string{"9 rent": "8800.00", "13 allocations": "1800.00", "20 other_income": "45.50",
					" income_total": "10645.50", "40 maintenance": "1250.00", "46 running_costs": "2060.80", "47 management": "300.00",
					"37 interest": "412.37", "48 other_costs": "64.10", " expense_total": "4087.27", " result": "6558.23", " deposits": "2400.00"}
				for k, v := range want {
					if got[k] != v {
						t.Errorf("Lindenstraße 4, line %s: %s, want %s", k, got[k], v)
					}
				}
			}

			var one taxYear
			p.app.Get("/api/v1/reports/tax-year?year=2025&form="+c.form+"&property_id="+p.props[0], p.token).Expect(http.StatusOK).JSON(&one)
			if len(one.Properties) != 1 || len(one.Totals) != 1 {
				t.Fatalf("one property: %+v", one)
			}
			check(t, "property 0 alone", one.Properties[0], p.want(c.form, c.from, c.to, 0))
			check(t, "property 0's totals", one.Totals[0], p.want(c.form, c.from, c.to, 0))

			// The year before holds only what fell in it: nothing for the
			// calendar's forms, March's rent and April's early bill of
			// the UK's 2024-25.
			var before taxYear
			p.app.Get("/api/v1/reports/tax-year?year=2024", p.token).Expect(http.StatusOK).JSON(&before)
			from, to := "2024-01-01", "2024-12-31"
			if c.form == "sa105" {
				from, to = "2024-04-06", "2025-04-05"
			}
			check(t, "the year before", before.Totals[0], p.want(c.form, from, to, 0, 1))
		})
	}
}
