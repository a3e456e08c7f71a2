package notices_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/platform/money"
)

var totalLine = regexp.MustCompile(`Gesamt: ([0-9.]+,[0-9]{2})\x{a0}€`)

// The dunning ladder over a year of a tenant who falls behind, partly
// catches up, pays, and falls behind again, three times: steps go out in
// order (1 the day after the due date, 2 after the contract's own delay of
// 3 days, 3 after the workspace's 14), never a later step first; each
// names every overdue amount, of any age, with the interest, and its total
// is the balance's overdue at that moment; after step 3 nothing more until
// the arrear is paid, however many months fall due meanwhile; paying it
// ends the ladder, and the next arrear starts at step 1 again. Months paid
// on time bring no reminder.
func TestDunningLadder(t *testing.T) {
	if testing.Short() {
		t.Skip("a year of days")
	}
	t.Parallel()
	w := newWorld(t, time.Date(2026, 11, 26, 10, 0, 0, 0, berlin), "de", "2026-12-01", "2027-11-30")
	w.patch("/api/v1/contracts/"+w.contract+"/notice-settings", map[string]any{"reminder_step2_days": 3}).Expect(http.StatusOK)
	de := printforms.StyleOf("de")
	type sent struct{ day, step, total, overdue string }
	var got []sent
	seen := 0
	// What the tenant pays and when; everything is the whole overdue of
	// that moment. February's, July's (in part) and November's rent are
	// not paid on time.
	const everything = -1
	payments := map[string]float64{
		"2026-12-20": 500,        // part of December's rent
		"2027-01-10": everything, // the rest, January's rent and the interest
		"2027-03-10": everything, // February's and March's rent, after step 3
		"2027-04-03": 950, "2027-05-03": 950, "2027-06-03": 950,
		"2027-07-03": 500,        // part of July's rent, on its due day
		"2027-07-15": everything, // the rest, after step 2
		"2027-08-03": 950, "2027-09-03": 950, "2027-10-03": 950,
	}
	for day := time.Date(2026, 11, 26, 0, 0, 0, 0, berlin); day.Before(time.Date(2027, 11, 25, 0, 0, 0, 0, berlin)); day = day.AddDate(0, 0, 1) {
		date := day.Format("2006-01-02")
		w.at(t, day, 0, 30)
		w.at(t, day, 8, 0)
		msgs := w.messages(t)
		for _, m := range msgs[seen:] {
			step := ""
			switch {
			case strings.HasPrefix(m.Subject, "Zahlungserinnerung"):
				step = "1"
			case strings.HasPrefix(m.Subject, "Mahnung"):
				step = "2"
			case strings.HasPrefix(m.Subject, "Letzte Mahnung"):
				step = "3"
			default:
				continue
			}
			var b struct {
				Overdue float64 `json:"overdue"`
			}
			w.app.Get("/api/v1/properties/"+w.property+"/balance?contract_id="+w.contract, w.landlord.Token).Expect(http.StatusOK).JSON(&b)
			total := ""
			if m := totalLine.FindStringSubmatch(m.Body); m != nil {
				total = m[1]
			}
			got = append(got, sent{date, step, total, strings.TrimSuffix(de.Money(money.Amount(b.Overdue*100+0.5), "EUR"), "\u00a0€")})
			for _, english := range []string{"Rent", "contract", "Default interest"} {
				if strings.Contains(m.Body, english) {
					t.Errorf("%s: the German reminder says %q:\n%s", date, english, m.Body)
				}
			}
		}
		seen = len(msgs)
		if amount, ok := payments[date]; ok {
			w.app.Clock.Set(time.Date(day.Year(), day.Month(), day.Day(), 12, 0, 0, 0, berlin))
			var b struct {
				Overdue float64 `json:"overdue"`
			}
			w.app.Get("/api/v1/properties/"+w.property+"/balance?contract_id="+w.contract, w.landlord.Token).Expect(http.StatusOK).JSON(&b)
			if amount == everything {
				amount = b.Overdue
			}
			w.pay(t, amount, date)
		}
	}
	want := []struct{ day, step string }{
		{"2026-12-04", "1"}, // December's rent, the day after its due date
		{"2026-12-07", "2"}, // the contract's own delay: 3 days
		{"2026-12-21", "3"}, // the workspace's: 14 days; 500 paid the day before
		// January's rent falls due on the 3rd: the ladder is at its end.
		{"2027-02-04", "1"}, // a new arrear after everything was paid on 10 January
		{"2027-02-07", "2"},
		{"2027-02-21", "3"}, // March's rent falls due meanwhile: nothing more
		{"2027-07-04", "1"}, // July paid in part on its due day
		{"2027-07-07", "2"}, // and the rest on 15 July: no step 3
		{"2027-11-04", "1"}, // November not paid at all
		{"2027-11-07", "2"},
		{"2027-11-21", "3"},
	}
	if len(got) != len(want) {
		t.Fatalf("reminders sent: %+v, want the days and steps %+v", got, want)
	}
	for i, g := range got {
		if g.day != want[i].day || g.step != want[i].step {
			t.Errorf("reminder %d: step %s on %s, want step %s on %s", i, g.step, g.day, want[i].step, want[i].day)
		}
		if g.total == "" || g.total != g.overdue {
			t.Errorf("reminder %d (%s): total %q, the balance's overdue %q", i, g.day, g.total, g.overdue)
		}
	}
}
