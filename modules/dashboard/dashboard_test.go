package dashboard_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

func id(t *testing.T, r *testkit.Response) string {
	t.Helper()
	var v struct {
		ID string `json:"id"`
	}
	r.JSON(&v)
	return v.ID
}

func has(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, text)
		}
	}
}

// The test clock starts on 2026-11-22. A landlord has two flats with
// charges of no contract: WE 1 owes 750.25 (due 2026-10-05) and 120.10
// (2026-11-01), 870.35 overdue since 2026-10-05, and 800.00 falls due on
// 2026-11-25, this week (100.00 on 2026-12-15 does not); WE 2 owes
// 2,000.00 since 2026-09-01, the largest debt, listed first. A building
// in Germany recorded in 2026 has its 2025 statement due by 2026-12-31
// (§ 556 Abs. 3 BGB), 39 days away: a warning. An emergency repair
// (deadline 24 hours) is open. Two days later the repair's deadline has
// passed: a second warning, before the statement's by date. Another
// landlord's charge of 5,000.00 never shows.
func TestDashboard(t *testing.T) {
	t.Parallel()
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)
	token := u.Token
	other := accountstest.NewUser(t, app)

	flat := func(tok, name string) string {
		return id(t, app.Post("/api/v1/properties", tok, map[string]any{"name": name, "country_code": "DE"}).Expect(http.StatusCreated))
	}
	charge := func(tok, property, name string, amount float64, due string) {
		app.Post("/api/v1/properties/"+property+"/charges", tok, map[string]any{"name": name, "amount": amount, "due_date": due}).
			Expect(http.StatusCreated)
	}
	we1, we2 := flat(token, "WE 1"), flat(token, "WE 2")
	charge(token, we1, "Miete Oktober", 750.25, "2026-10-05")
	charge(token, we1, "Nebenkosten", 120.10, "2026-11-01")
	charge(token, we1, "Miete Dezember", 800, "2026-11-25")
	charge(token, we1, "Später", 100, "2026-12-15")
	charge(token, we2, "Miete September", 2000, "2026-09-01")
	theirs := flat(other.Token, "Fremd 1")
	charge(other.Token, theirs, "Fremde Miete", 5000, "2026-10-01")
	building := id(t, app.Post("/api/v1/buildings", token, map[string]any{"name": "Lindenstraße 5", "country_code": "DE"}).Expect(http.StatusCreated))
	repair := id(t, app.Post("/api/v1/properties/"+we1+"/repair-requests", token, map[string]any{"title": "Heizung fällt aus",
		"description": "Kein Warmwasser.", "category": "heating", "urgency": "emergency"}).Expect(http.StatusCreated))

	got := app.Get("/api/v1/dashboard?locale=de", token).Expect(http.StatusOK).String()
	has(t, "dashboard", got, `"as_of":"2026-11-22"`,
		`"arrears":[{"contract_id":null,"contract_number":null,"tenant_name":null,"property_id":"`+we2+`","property_name":"WE 2","currency":"EUR","overdue":2000.00,"oldest_due":"2026-09-01"},`+
			`{"contract_id":null,"contract_number":null,"tenant_name":null,"property_id":"`+we1+`","property_name":"WE 1","currency":"EUR","overdue":870.35,"oldest_due":"2026-10-05"}]`,
		`"property_name":"WE 1","contract_id":null,"name":"Miete Dezember","currency":"EUR","open_amount":800.00,"due_date":"2026-11-25"}]`,
		`"open_repairs":{"by_status":{"ordered":0,"reported":1,"scheduled":0,"triaged":0},"total":1,"oldest":[{"id":"`+repair+`"`,
		`"bank_lines_to_review":{"suggested":0,"unmatched":0,"total":0}`,
		`"opcost_deadlines":[{"building_id":"`+building+`","building_name":"Lindenstraße 5","period_from":"2025-01-01","period_to":"2025-12-31","deadline":"2026-12-31","days_left":39,"source":"§ 556 Abs. 3 BGB"}]`,
		`"warnings":[{"kind":"opcost_deadline_near","message":"Die Frist für die Betriebskostenabrechnung Lindenstraße 5 (Abrechnungszeitraum 01.01.2025 – 31.12.2025) endet am 31.12.2026, in 39 Tagen (§ 556 Abs. 3 BGB).","subject_ids":["`+building+`"],"date":"2026-12-31"}]`)
	for _, never := range []string{"Später", "Fremd", "5000.00", theirs} {
		if strings.Contains(got, never) {
			t.Errorf("the dashboard shows %q: %s", never, got)
		}
	}

	// The other landlord sees their own debt only.
	mine := app.Get("/api/v1/dashboard", other.Token).Expect(http.StatusOK).String()
	has(t, "other dashboard", mine, `"overdue":5000.00`, `"opcost_deadlines":[]`, `"warnings":[]`)
	for _, never := range []string{we1, we2, building, repair, "WE 1"} {
		if strings.Contains(mine, never) {
			t.Errorf("another workspace's dashboard shows %q: %s", never, mine)
		}
	}

	// Two days later, in English (Accept-Language): the repair is late.
	when := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	app.Clock.Set(when)
	later, err := app.Tokens.Issue(u.ID, 0, when)
	if err != nil {
		t.Fatal(err)
	}
	r := app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/dashboard", Token: later,
		Headers: map[string]string{"Accept-Language": "en-GB,en;q=0.8"}}).Expect(http.StatusOK)
	has(t, "later", r.String(), `"as_of":"2026-11-24"`,
		`{"kind":"repair_deadline_passed","message":"Repair \"Heizung fällt aus\": its deadline passed on`,
		`"subject_ids":["`+repair+`","`+we1+`"],"date":"2026-11-23"}`,
		`{"kind":"opcost_deadline_near","message":"The operating-cost statement of Lindenstraße 5 (period`,
		`in 37 days (§ 556 Abs. 3 BGB).`)
	if strings.Index(r.String(), "repair_deadline_passed") > strings.Index(r.String(), "opcost_deadline_near") {
		t.Errorf("warnings not by date: %s", r.String())
	}
}
