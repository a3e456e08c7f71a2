package reports_test

import (
	"net/http"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

type arrearsReport struct {
	AsOf    string `json:"as_of"`
	Arrears []struct {
		PropertyID     string  `json:"property_id"`
		PropertyName   string  `json:"property_name"`
		ContractID     *string `json:"contract_id"`
		ContractNumber *string `json:"contract_number"`
		TenantName     *string `json:"tenant_name"`
		Currency       string  `json:"currency"`
		D30            float64 `json:"days_0_30"`
		D60            float64 `json:"days_31_60"`
		D90            float64 `json:"days_61_90"`
		Over           float64 `json:"days_over_90"`
		Total          float64 `json:"total"`
		OldestDue      string  `json:"oldest_due_date"`
	} `json:"arrears"`
	Totals []struct {
		Currency string  `json:"currency"`
		Total    float64 `json:"total"`
	} `json:"totals"`
}

type rentRoll struct {
	Units []struct {
		PropertyID     string   `json:"property_id"`
		ContractID     *string  `json:"contract_id"`
		ContractNumber *string  `json:"contract_number"`
		TenantName     *string  `json:"tenant_name"`
		Rent           *float64 `json:"rent"`
		DepositHeld    *float64 `json:"deposit_held"`
		Outstanding    float64  `json:"outstanding"`
		Overdue        float64  `json:"overdue"`
		Currency       string   `json:"currency"`
		StartDate      *string  `json:"start_date"`
	} `json:"units"`
	Totals []struct {
		Currency    string  `json:"currency"`
		Units       int     `json:"units"`
		Let         int     `json:"let"`
		Outstanding float64 `json:"outstanding"`
	} `json:"totals"`
}

type incomeReport struct {
	Year   int `json:"year"`
	Months []struct {
		Month       string  `json:"month"`
		Currency    string  `json:"currency"`
		Charged     float64 `json:"charged"`
		Collected   float64 `json:"collected"`
		Outstanding float64 `json:"outstanding"`
	} `json:"months"`
	Totals []struct {
		Currency    string  `json:"currency"`
		Charged     float64 `json:"charged"`
		Collected   float64 `json:"collected"`
		Outstanding float64 `json:"outstanding"`
	} `json:"totals"`
}

// bucket is the arrears column of a charge due on due at asOf, "" when it
// is not overdue.
func bucket(due, asOf string) string {
	d := days(asOf) - days(due)
	switch {
	case d <= 0:
		return ""
	case d <= 30:
		return "30"
	case d <= 60:
		return "60"
	case d <= 90:
		return "90"
	}
	return "over"
}

// TestReportsEqualThePerPropertyBalances builds a generated portfolio
// through the API and checks every report against what the per-property
// routes (balance, charges) say, summed by the test: arrears per property
// and age, rent roll per unit, income per currency.
func TestReportsEqualThePerPropertyBalances(t *testing.T) {
	app := testkit.Start(t)
	p := generate(t, app, 9, 33)
	other := generate(t, app, 2, 34) // another workspace: never in p's reports
	for _, asOf := range []string{"2026-11-22", "2026-06-30", "2026-03-01"} {
		var ar arrearsReport
		app.Get(base+"/arrears?as_of="+asOf, p.user.Token).Expect(http.StatusOK).JSON(&ar)
		// per property and bucket, from the report
		got := map[string]map[string]int64{}
		totals := map[string]int64{}
		for _, r := range ar.Arrears {
			if r.Total <= 0 || cents(r.D30)+cents(r.D60)+cents(r.D90)+cents(r.Over) != cents(r.Total) {
				t.Errorf("%s: row %+v: buckets do not add up", asOf, r)
			}
			if got[r.PropertyID] == nil {
				got[r.PropertyID] = map[string]int64{}
			}
			got[r.PropertyID]["30"] += cents(r.D30)
			got[r.PropertyID]["60"] += cents(r.D60)
			got[r.PropertyID]["90"] += cents(r.D90)
			got[r.PropertyID]["over"] += cents(r.Over)
			got[r.PropertyID]["total"] += cents(r.Total)
			if (r.ContractID == nil) != (r.TenantName == nil) {
				t.Errorf("%s: row %+v: contract without tenant", asOf, r)
			}
		}
		for _, tot := range ar.Totals {
			totals[tot.Currency] = cents(tot.Total)
		}
		want := map[string]int64{}
		for _, u := range p.units {
			b := p.balance(t, u, asOf)
			want[b.Currency] += cents(b.Overdue)
			if got[u.ID]["total"] != cents(b.Overdue) {
				t.Errorf("%s: %s: arrears %d, balance overdue %d", asOf, u.Name, got[u.ID]["total"], cents(b.Overdue))
			}
			byAge := map[string]int64{}
			for _, c := range p.charges(t, u) {
				if k := bucket(c.DueDate, asOf); k != "" && c.Status != "cancelled" {
					byAge[k] += cents(c.Amount) - cents(c.PaidAmount)
				}
			}
			for _, k := range []string{"30", "60", "90", "over"} {
				if got[u.ID][k] != byAge[k] {
					t.Errorf("%s: %s: bucket %s: report %d, charges %d", asOf, u.Name, k, got[u.ID][k], byAge[k])
				}
			}
		}
		for _, cur := range keys(want) {
			if want[cur] != totals[cur] {
				t.Errorf("%s: %s: totals %d, sum of balances %d", asOf, cur, totals[cur], want[cur])
			}
		}
		if len(ar.Arrears) == 0 && asOf == "2026-11-22" {
			t.Fatal("the generated portfolio owes nothing: the test would prove nothing")
		}

		t.Logf("%s: %d arrears rows, totals %+v", asOf, len(ar.Arrears), ar.Totals)
		var rr rentRoll
		app.Get(base+"/rent-roll?as_of="+asOf, p.user.Token).Expect(http.StatusOK).JSON(&rr)
		if len(rr.Units) != len(p.units) {
			t.Fatalf("%s: %d units, want %d", asOf, len(rr.Units), len(p.units))
		}
		byID := map[string]int{}
		for i, r := range rr.Units {
			byID[r.PropertyID] = i
		}
		for _, u := range p.units {
			r := rr.Units[byID[u.ID]]
			b := p.balance(t, u, asOf)
			if cents(r.Outstanding) != cents(b.Outstanding) || cents(r.Overdue) != cents(b.Overdue) || r.Currency != b.Currency {
				t.Errorf("%s: %s: rent roll %+v, balance %+v", asOf, u.Name, r, b)
			}
			let := u.Contract != "" && r.StartDate != nil
			if u.Contract == "" && r.ContractID != nil || let && (*r.ContractID != u.Contract || *r.TenantName != u.Tenant || cents(*r.Rent) != cents(u.Rent)) {
				t.Errorf("%s: %s: unit %+v, made %+v", asOf, u.Name, r, u)
			}
			if r.ContractID != nil {
				var held int64
				for _, c := range p.charges(t, u) {
					if c.Name == "Deposit" && c.ContractID != nil && *c.ContractID == u.Contract {
						held += cents(c.PaidAmount)
					}
				}
				if r.DepositHeld == nil || cents(*r.DepositHeld) != held {
					t.Errorf("%s: %s: deposit held %v, charges say %d", asOf, u.Name, r.DepositHeld, held)
				}
			}
		}
	}
	// A unit whose contract starts after as_of is vacant then.
	var early rentRoll
	app.Get(base+"/rent-roll?as_of=2025-12-31", p.user.Token).Expect(http.StatusOK).JSON(&early)
	for _, r := range early.Units {
		if r.ContractID != nil {
			t.Errorf("2025-12-31: unit %+v let before any contract began", r)
		}
	}

	// Income over 2026 (every charge and payment of the portfolio is of
	// 2026): the year's totals are the balances' charged, paid and
	// outstanding, per currency; and per property with property_id.
	var inc incomeReport
	app.Get(base+"/income?year=2026", p.user.Token).Expect(http.StatusOK).JSON(&inc)
	want := map[string][3]int64{}
	for _, u := range p.units {
		b := p.balance(t, u, "2026-11-22")
		w := want[b.Currency]
		w[0] += cents(b.Charged)
		w[1] += cents(b.Paid)
		w[2] += cents(b.Outstanding)
		want[b.Currency] = w

		var one incomeReport
		app.Get(base+"/income?year=2026&property_id="+u.ID, p.user.Token).Expect(http.StatusOK).JSON(&one)
		if len(one.Months) != 12 || len(one.Totals) != 1 || cents(one.Totals[0].Charged) != cents(b.Charged) ||
			cents(one.Totals[0].Collected) != cents(b.Paid) || cents(one.Totals[0].Outstanding) != cents(b.Outstanding) {
			t.Errorf("%s: income %+v, balance %+v", u.Name, one.Totals, b)
		}
	}
	t.Logf("income totals %+v", inc.Totals)
	if len(inc.Totals) != len(want) {
		t.Fatalf("income totals %+v, balances %+v", inc.Totals, want)
	}
	for _, tot := range inc.Totals {
		var months [3]int64
		for _, m := range inc.Months {
			if m.Currency == tot.Currency {
				months[0] += cents(m.Charged)
				months[1] += cents(m.Collected)
				months[2] += cents(m.Outstanding)
			}
		}
		w := want[tot.Currency]
		if [3]int64{cents(tot.Charged), cents(tot.Collected), cents(tot.Outstanding)} != w || months != w {
			t.Errorf("%s: income %+v (months %v), balances %v", tot.Currency, tot, months, w)
		}
	}
	var empty incomeReport
	app.Get(base+"/income?year=2025", p.user.Token).Expect(http.StatusOK).JSON(&empty)
	if len(empty.Months) != 0 || len(empty.Totals) != 0 {
		t.Errorf("2025: %+v", empty)
	}

	// Another workspace's property is not found; its data is not in p's.
	app.Get(base+"/income?property_id="+other.units[0].ID, p.user.Token).Expect(http.StatusNotFound)
	var ar arrearsReport
	app.Get(base+"/arrears", other.user.Token).Expect(http.StatusOK).JSON(&ar)
	for _, r := range ar.Arrears {
		if r.PropertyID != other.units[0].ID && r.PropertyID != other.units[1].ID {
			t.Errorf("other workspace sees %+v", r)
		}
	}
}

func TestReportInputIsChecked(t *testing.T) {
	app := testkit.Start(t)
	p := generate(t, app, 1, 1)
	for _, path := range []string{
		base + "/arrears?as_of=2026-02-30", base + "/rent-roll?as_of=yesterday", base + "/arrears?format=pdf",
		base + "/income?year=20260", base + "/income?year=1800", base + "/income?property_id=nope", base + "/income?format=doc",
		base + "/charges?format=json", base + "/owner-statement", base + "/owner-statement?property_id=" + p.units[0].ID + "&month=2026-13",
	} {
		res := app.Get(path, p.user.Token).Expect(http.StatusBadRequest)
		if res.Map()["error"] != "validation_failed" {
			t.Errorf("%s: %s", path, res.String())
		}
	}
	app.Get(base+"/income?property_id=018f4e2a-0000-7000-8000-000000000000", p.user.Token).Expect(http.StatusNotFound)
}

func days(date string) int {
	t, err := timeParse(date)
	if err != nil {
		panic(err)
	}
	return int(t.Unix() / 86400)
}
