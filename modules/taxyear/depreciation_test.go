package taxyear_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// yearAmount is the basis's year_amount for year, as the API writes it.
func yearAmount(t *testing.T, app *testkit.App, token, prop string, year int) string {
	t.Helper()
	var v struct {
		YearAmount json.Number `json:"year_amount"`
		Year       int         `json:"year"`
	}
	app.Get(fmt.Sprintf("/api/v1/properties/%s/depreciation?year=%d", prop, year), token).Expect(http.StatusOK).JSON(&v)
	if v.Year != year {
		t.Fatalf("year %d answered as %d", year, v.Year)
	}
	return v.YearAmount.String()
}

// line finds the line of key in the form of year for one property.
func line(t *testing.T, app *testkit.App, token, prop, form string, year int, key string) taxLine {
	t.Helper()
	var y taxYear
	app.Get(fmt.Sprintf("/api/v1/reports/tax-year?year=%d&form=%s&property_id=%s", year, form, prop), token).Expect(http.StatusOK).JSON(&y)
	for _, l := range y.Properties[0].Lines {
		if l.Key == key {
			return l
		}
	}
	t.Fatalf("%s %d of %s has no line %s: %+v", form, year, prop, key, y.Properties[0].Lines)
	return taxLine{}
}

func amountOf(l taxLine) string {
	if l.Amount == nil {
		return "null"
	}
	return l.Amount.String()
}

func newProperty(t *testing.T, app *testkit.App, token, name, country string) string {
	t.Helper()
	return id(t, app.Post("/api/v1/properties", token, map[string]any{"name": name, "country_code": country, "address": name, "city": "X"}).
		Expect(http.StatusCreated))
}

// TestDepreciationGermany: the linear AfA of § 7 Abs. 4 EStG, 2 % for a
// building completed 1925-2022, 3 % after 2022, 2.5 % before 1925, the
// first year pro rata by month (the month of acquisition counts), never
// more in total than the basis; Anlage V Zeile 33 computed from it, a
// property without a basis keeping the line manual.
func TestDepreciationGermany(t *testing.T) {
	t.Parallel()
	app := testkit.Start(t, testkit.WithClock(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)))
	u := accountstest.NewUser(t, app)
	old := newProperty(t, app, u.Token, "Altbau", "DE")
	build := newProperty(t, app, u.Token, "Neubau", "DE")
	villa := newProperty(t, app, u.Token, "Gründerzeitvilla", "DE")
	none := newProperty(t, app, u.Token, "Ohne AfA", "DE")
	put := func(prop string, body map[string]any) *testkit.Response {
		return app.Put("/api/v1/properties/"+prop+"/depreciation", u.Token, body)
	}

	// Completed 1990, bought 15 April 2025: 2 %, nine months in 2025
	// (April to December): 300,000 × 2 % × 9/12 = 4,500.
	var b struct {
		Method     string      `json:"method"`
		Rate       *float64    `json:"rate"`
		YearAmount json.Number `json:"year_amount"`
	}
	put(old, map[string]any{"basis": 300000, "placed_in_service_on": "2025-04-15", "completed_year": 1990}).Expect(http.StatusOK).JSON(&b)
	if b.Method != "linear" || b.Rate == nil || *b.Rate != 2 || b.YearAmount.String() != "6000.00" { // the current year, 2026
		t.Errorf("the 2 %% basis: %+v", b)
	}
	// Completed 2024, bought 3 November 2025: 3 %, two months:
	// 400,000 × 3 % × 2/12 = 2,000; the rate given agrees.
	put(build, map[string]any{"basis": 400000, "placed_in_service_on": "2025-11-03", "completed_year": 2024, "rate": 3}).Expect(http.StatusOK).JSON(&b)
	if *b.Rate != 3 {
		t.Errorf("the 3 %% basis: %+v", b)
	}
	// Completed 1900, bought July 1985: 2.5 %, 1985 half a year (1.25 %),
	// 1986-2024 39 years (97.5 %): 2025 takes the 1.25 % left, not 2.5 %.
	put(villa, map[string]any{"basis": 100000, "placed_in_service_on": "1985-07-01", "completed_year": 1900}).Expect(http.StatusOK).JSON(&b)
	if *b.Rate != 2.5 {
		t.Errorf("the 2.5 %% basis: %+v", b)
	}
	for _, c := range []struct {
		prop string
		year int
		want string
	}{
		{old, 2024, "0.00"}, {old, 2025, "4500.00"}, {old, 2026, "6000.00"},
		{build, 2025, "2000.00"}, {build, 2026, "12000.00"},
		{villa, 2024, "2500.00"}, {villa, 2025, "1250.00"}, {villa, 2026, "0.00"},
	} {
		if got := yearAmount(t, app, u.Token, c.prop, c.year); got != c.want {
			t.Errorf("%s %d: %s, want %s", c.prop, c.year, got, c.want)
		}
		l := line(t, app, u.Token, c.prop, "anlage-v", c.year, "depreciation")
		if l.Line != "33" || l.Kind != "expense" || amountOf(l) != c.want {
			t.Errorf("Anlage V %d Zeile 33 of %s: %+v (%s), want %s", c.year, c.prop, l, amountOf(l), c.want)
		}
	}
	// Without a basis the line stays manual; the workspace's total sums
	// the three; the expense total holds it.
	if l := line(t, app, u.Token, none, "anlage-v", 2025, "depreciation"); l.Kind != "manual" || l.Amount != nil {
		t.Errorf("no basis: %+v", l)
	}
	var all taxYear
	app.Get("/api/v1/reports/tax-year?year=2025", u.Token).Expect(http.StatusOK).JSON(&all)
	totals := map[string]taxLine{}
	for _, l := range all.Totals[0].Lines {
		totals[l.Key] = l
	}
	if amountOf(totals["depreciation"]) != "7750.00" || totals["depreciation"].Kind != "expense" || amountOf(totals["expense_total"]) != "7750.00" ||
		amountOf(totals["result"]) != "-7750.00" {
		t.Errorf("the workspace's 2025: %+v", all.Totals[0].Lines)
	}

	// Removed, the line is manual again.
	app.Delete("/api/v1/properties/"+villa+"/depreciation", u.Token).Expect(http.StatusNoContent)
	app.Get("/api/v1/properties/"+villa+"/depreciation", u.Token).Expect(http.StatusNotFound)
	app.Delete("/api/v1/properties/"+villa+"/depreciation", u.Token).Expect(http.StatusNotFound)
	if l := line(t, app, u.Token, villa, "anlage-v", 2025, "depreciation"); l.Kind != "manual" || l.Amount != nil {
		t.Errorf("basis removed: %+v", l)
	}
}

// TestDepreciationUnitedStates checks the Schedule E line 18 against the
// percentages of IRS Publication 946 (2024), "How To Depreciate
// Property", Appendix A, Table A-6 "Residential Rental Property,
// Mid-Month Convention, Straight Line—27.5 Years": placed in service in
// July, year 1 1.667 %, years 2-9 3.636 %; in January, year 1 3.485 %,
// year 10 3.637 %, year 28 1.970 %, year 29 nothing; the years adding up
// to the basis exactly.
func TestDepreciationUnitedStates(t *testing.T) {
	t.Parallel()
	app := testkit.Start(t, testkit.WithClock(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)))
	u := accountstest.NewUser(t, app)
	july := newProperty(t, app, u.Token, "Elm Street 12", "US")
	jan := newProperty(t, app, u.Token, "Oak Avenue 3", "US")
	var b struct {
		Method string   `json:"method"`
		Rate   *float64 `json:"rate"`
	}
	app.Put("/api/v1/properties/"+july+"/depreciation", u.Token, map[string]any{"basis": 275000, "placed_in_service_on": "2025-07-10"}).
		Expect(http.StatusOK).JSON(&b)
	if b.Method != "mid_month_27_5" || b.Rate != nil {
		t.Errorf("the US basis: %+v", b)
	}
	app.Put("/api/v1/properties/"+jan+"/depreciation", u.Token, map[string]any{"basis": 100000, "placed_in_service_on": "2020-01-20"}).
		Expect(http.StatusOK)
	for _, c := range []struct {
		prop string
		year int
		want string
	}{
		{july, 2025, "4584.25"}, // 275,000 × 1.667 %
		{july, 2026, "9999.00"}, // 275,000 × 3.636 %
		{jan, 2020, "3485.00"},  // 3.485 %
		{jan, 2021, "3636.00"},  // 3.636 %
		{jan, 2029, "3637.00"},  // year 10: 3.637 %
		{jan, 2030, "3636.00"},  // year 11: 3.636 %
		{jan, 2047, "1970.00"},  // year 28: 1.970 %
		{jan, 2048, "0.00"},     // year 29: nothing left
	} {
		if got := yearAmount(t, app, u.Token, c.prop, c.year); got != c.want {
			t.Errorf("%s %d: %s, want %s", c.prop, c.year, got, c.want)
		}
	}
	l := line(t, app, u.Token, july, "schedule-e", 2025, "depreciation")
	if l.Line != "18" || l.Kind != "expense" || amountOf(l) != "4584.25" {
		t.Errorf("Schedule E 2025 line 18: %+v", l)
	}
	if l := line(t, app, u.Token, july, "schedule-e", 2025, "expense_total"); amountOf(l) != "4584.25" {
		t.Errorf("Schedule E 2025 line 20: %+v", l)
	}
	// Every year together is the basis, to the cent.
	for _, c := range []struct {
		prop       string
		from, to   int
		basisCents int64
	}{{july, 2025, 2053, 27500000}, {jan, 2020, 2048, 10000000}} {
		var sum int64
		for y := c.from; y <= c.to; y++ {
			var a, f int64
			if _, err := fmt.Sscanf(yearAmount(t, app, u.Token, c.prop, y), "%d.%d", &a, &f); err != nil {
				t.Fatal(err)
			}
			sum += a*100 + f
		}
		if sum != c.basisCents {
			t.Errorf("%s: the years add up to %d cents, the basis is %d", c.prop, sum, c.basisCents)
		}
		if got := yearAmount(t, app, u.Token, c.prop, c.to+1); got != "0.00" {
			t.Errorf("%s: after the last year %s", c.prop, got)
		}
	}
}

// TestDepreciationRefusesBadInput: each refusal a 400 naming the field
// (or the property's answer for another workspace's), nothing changed.
func TestDepreciationRefusesBadInput(t *testing.T) {
	t.Parallel()
	app := testkit.Start(t, testkit.WithClock(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)))
	u := accountstest.NewUser(t, app)
	other := accountstest.NewUser(t, app)
	de := newProperty(t, app, u.Token, "Haus", "DE")
	us := newProperty(t, app, u.Token, "House", "US")
	fr := newProperty(t, app, u.Token, "Maison", "FR")
	gb := newProperty(t, app, u.Token, "Flat", "GB")
	theirs := newProperty(t, app, other.Token, "Fremd", "DE")
	good := map[string]any{"basis": 200000, "placed_in_service_on": "2024-02-01", "completed_year": 2000}
	app.Put("/api/v1/properties/"+de+"/depreciation", u.Token, good).Expect(http.StatusOK)
	before := app.Get("/api/v1/properties/"+de+"/depreciation", u.Token).Expect(http.StatusOK).String()
	with := func(over map[string]any) map[string]any {
		m := map[string]any{}
		for k, v := range good {
			m[k] = v
		}
		for k, v := range over {
			if v == nil {
				delete(m, k)
			} else {
				m[k] = v
			}
		}
		return m
	}
	for _, c := range []struct {
		name, prop string
		body       any
		status     int
		detail     string
	}{
		{"negative basis", de, with(map[string]any{"basis": -1}), 400, "basis: must be more than 0"},
		{"zero basis", de, with(map[string]any{"basis": 0}), 400, "basis: must be more than 0"},
		{"basis too large", de, with(map[string]any{"basis": 1e12}), 400, "basis: must be at most"},
		{"three decimals", de, with(map[string]any{"basis": 1.005}), 400, "basis:"},
		{"no basis", de, with(map[string]any{"basis": nil}), 400, "basis: is required"},
		{"no date", de, with(map[string]any{"placed_in_service_on": nil}), 400, "placed_in_service_on: is required"},
		{"bad date", de, with(map[string]any{"placed_in_service_on": "2025-02-30"}), 400, "placed_in_service_on: must be a date"},
		{"no completion year in DE", de, with(map[string]any{"completed_year": nil}), 400, "completed_year: is required"},
		{"completed after placed", de, with(map[string]any{"completed_year": 2025}), 400, "completed_year: must not be after"},
		{"rate not the law's", de, with(map[string]any{"rate": 3}), 400, "rate: must be 2 for a building completed in 2000"},
		{"rate of 5 (degressive, not kept)", de, with(map[string]any{"rate": 5}), 400, "rate: must be 2"},
		{"rate not a number", de, with(map[string]any{"rate": "zwei"}), 400, "rate:"},
		{"a rate in the US", us, with(map[string]any{"rate": 3.64}), 400, "rate: must be absent for a US property"},
		{"France", fr, good, 400, "basis: a property in FR"},
		{"the UK", gb, good, 400, "basis: residential property in GB"},
		{"not an object", de, []int{1}, 400, ""},
		{"another workspace's property", theirs, good, 403, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := app.Put("/api/v1/properties/"+c.prop+"/depreciation", u.Token, c.body).Expect(c.status)
			if c.detail != "" && (!strings.Contains(r.String(), c.detail) || !strings.Contains(r.String(), "validation_failed")) {
				t.Errorf("answer %s lacks %q", r.String(), c.detail)
			}
		})
	}
	app.Get("/api/v1/properties/"+de+"/depreciation?year=1999", u.Token).Expect(http.StatusBadRequest)
	app.Get("/api/v1/properties/"+theirs+"/depreciation", u.Token).Expect(http.StatusForbidden)
	app.Delete("/api/v1/properties/"+theirs+"/depreciation", u.Token).Expect(http.StatusForbidden)
	app.Get("/api/v1/properties/"+us+"/depreciation", u.Token).Expect(http.StatusNotFound)
	if after := app.Get("/api/v1/properties/"+de+"/depreciation", u.Token).Expect(http.StatusOK).String(); after != before {
		t.Errorf("a refused write changed the basis: %s, was %s", after, before)
	}
	// France's form has no depreciation line at all.
	var y taxYear
	app.Get("/api/v1/reports/tax-year?year=2025&property_id="+fr, u.Token).Expect(http.StatusOK).JSON(&y)
	for _, l := range y.Properties[0].Lines {
		if strings.Contains(l.Key, "depreciation") {
			t.Errorf("2044 has a depreciation line: %+v", l)
		}
	}
}

// TestDepreciationConcurrentWrites: more writers of one basis than the
// pool has connections; each answers 200 and the basis is one of theirs,
// whole.
func TestDepreciationConcurrentWrites(t *testing.T) {
	t.Parallel()
	app := testkit.Start(t, testkit.WithClock(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)))
	u := accountstest.NewUser(t, app)
	prop := newProperty(t, app, u.Token, "Haus", "DE")
	const n = 24
	var wg sync.WaitGroup
	statuses := make([]int, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := app.Put("/api/v1/properties/"+prop+"/depreciation", u.Token, map[string]any{"basis": 100000 + i,
				"placed_in_service_on": fmt.Sprintf("2025-%02d-01", 1+i%12), "completed_year": 2000})
			statuses[i] = r.Status
		}(i)
	}
	wg.Wait()
	for i, s := range statuses {
		if s != http.StatusOK {
			t.Errorf("writer %d: %d", i, s)
		}
	}
	var b struct {
		Basis    json.Number `json:"basis"`
		PlacedOn string      `json:"placed_in_service_on"`
	}
	app.Get("/api/v1/properties/"+prop+"/depreciation", u.Token).Expect(http.StatusOK).JSON(&b)
	var i int
	if _, err := fmt.Sscanf(b.Basis.String(), "1000%d.00", &i); err != nil || i < 0 || i >= n || b.PlacedOn != fmt.Sprintf("2025-%02d-01", 1+i%12) {
		t.Errorf("the basis is no writer's whole: %+v", b)
	}
}
