package notices_test

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/platform/mail/mailtest"
)

// A year of a German tenancy on a moving clock, the service doing
// everything by itself but what the landlord does by hand (payments, one
// indexation): every day the billing runs at 00:30 and the notices at
// 08:00, Berlin time. Every charge and every notice is checked by its
// day: a rent call when each month's rent is billed (it falls due on the
// 3rd, less than 5 days later), three reminders for the one month paid
// late, a receipt with its PDF for every payment, the rent change when it
// is recorded and the contract's end 60 days before. Nothing is written
// twice, and every notice reaches the SMTP server, in German.
func TestAYearOfNotices(t *testing.T) {
	if testing.Short() {
		t.Skip("a year of days")
	}
	t.Parallel()
	first := time.Date(2026, 11, 26, 0, 0, 0, 0, berlin)
	w := newWorld(t, first.Add(10*time.Hour), "de", "2026-12-01", "2027-11-30")
	rent := func(month time.Month, year int) float64 {
		if year == 2027 && month >= time.July {
			return 990
		}
		return 950
	}
	// One day's statutory default interest on 950.00 (base rate + 5
	// points a year), claimed once, the day after the due date.
	const interest = 0.16
	runs := 0
	for day := first; day.Before(time.Date(2027, 12, 3, 0, 0, 0, 0, berlin)); day = day.AddDate(0, 0, 1) {
		runs += w.at(t, day, 0, 30)
		runs += w.at(t, day, 8, 0)
		date := day.Format("2006-01-02")
		switch {
		case date == "2027-05-15":
			w.app.Post("/api/v1/contracts/"+w.contract+"/rent", w.landlord.Token, map[string]any{"amount": 990, "from": "2027-07-01", "index": map[string]any{"old_period": "2025-10", "old_value": "110.0", "new_period": "2026-10", "new_value": "120.0"}}).Expect(http.StatusOK)
		case date == "2027-03-26":
			// March's rent, 23 days late, and the default interest on it:
			// the dunning ladder went up all three steps before.
			w.app.Clock.Set(time.Date(day.Year(), day.Month(), day.Day(), 12, 0, 0, 0, berlin))
			w.pay(t, 950+interest, date)
		case day.Day() == 3 && date != "2027-03-03" && date >= "2026-12-03" && date <= "2027-11-03":
			w.app.Clock.Set(time.Date(day.Year(), day.Month(), day.Day(), 12, 0, 0, 0, berlin))
			w.pay(t, rent(day.Month(), day.Year()), date)
		}
	}
	w.quiet(t)
	if days := 372; runs != 3*days {
		t.Fatalf("%d runs queued, want one billing, late fees and notices run a day (%d)", runs, 3*days)
	}

	// The charges: each month's rent once, the new rent from July.
	var charges struct {
		Charges []struct {
			Period string  `json:"period"`
			Amount float64 `json:"amount"`
			Status string  `json:"status"`
		} `json:"charges"`
	}
	w.app.Get("/api/v1/properties/"+w.property+"/charges?per_page=100", w.landlord.Token).Expect(http.StatusOK).JSON(&charges)
	var got []string
	for _, c := range charges.Charges {
		got = append(got, fmt.Sprintf("%s %.2f %s", c.Period, c.Amount, c.Status))
	}
	sort.Strings(got)
	var want []string
	for m := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC); m.Year() < 2027 || m.Month() <= time.November; m = m.AddDate(0, 1, 0) {
		want = append(want, fmt.Sprintf("%s %.2f paid", m.Format("2006-01"), rent(m.Month(), m.Year())))
	}
	want = append(want, fmt.Sprintf("2027-03 %.2f paid", interest))
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("charges:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The notices, by day and kind.
	kindOf := func(m message) string {
		switch {
		case strings.HasPrefix(m.Subject, "Zahlung fällig am"):
			return "rent_call"
		case strings.HasPrefix(m.Subject, "Zahlungserinnerung"):
			return "reminder 1"
		case strings.HasPrefix(m.Subject, "Mahnung"):
			return "reminder 2"
		case strings.HasPrefix(m.Subject, "Letzte Mahnung"):
			return "reminder 3"
		case strings.HasPrefix(m.Subject, "Quittung"), strings.HasPrefix(m.Subject, "Mietquittung"):
			return "receipt"
		case strings.HasPrefix(m.Subject, "Neue Miete ab"):
			return "rent_change"
		case strings.HasPrefix(m.Subject, "Ihr Mietverhältnis endet"):
			return "contract_end"
		}
		return "? " + m.Subject
	}
	var seen []string
	msgs := w.messages(t)
	for _, m := range msgs {
		if m.Author.Type != "system" || m.Channel == nil || *m.Channel != "email" || m.Delivery == nil || *m.Delivery != "sent" {
			t.Errorf("notice %q: author %s, channel %v, delivery %v", m.Subject, m.Author.Type, m.Channel, m.Delivery)
		}
		seen = append(seen, m.CreatedAt.In(berlin).Format("2006-01-02")+" "+kindOf(m))
	}
	var expected []string
	for m := time.Date(2026, 12, 1, 0, 0, 0, 0, berlin); m.Before(time.Date(2027, 12, 1, 0, 0, 0, 0, berlin)); m = m.AddDate(0, 1, 0) {
		expected = append(expected, m.Format("2006-01-02")+" rent_call")
		if m.Month() != time.March {
			expected = append(expected, m.AddDate(0, 0, 2).Format("2006-01-02")+" receipt")
		}
	}
	// The ladder: step 1 the day after the due date, step 2 seven days
	// after step 1, step 3 fourteen days after step 2.
	expected = append(expected, "2027-03-04 reminder 1", "2027-03-11 reminder 2", "2027-03-25 reminder 3", "2027-03-26 receipt",
		"2027-05-15 rent_change", "2027-10-01 contract_end")
	sort.Strings(expected)
	sort.Strings(seen)
	if strings.Join(seen, "\n") != strings.Join(expected, "\n") {
		t.Fatalf("notices:\n%s\nwant:\n%s", strings.Join(seen, "\n"), strings.Join(expected, "\n"))
	}

	// Every notice reached the SMTP server, in German, each once; a
	// receipt carries its PDF, which says what the mail says.
	mails, err := w.srv.Wait(len(msgs), 10*time.Second)
	if err != nil || len(mails) != len(msgs) {
		t.Fatalf("%d mails for %d notices (%v)", len(mails), len(msgs), err)
	}
	subjects := map[string]int{}
	var receipt, reminder, rentChange mailtest.Mail
	for _, raw := range mails {
		m := mailtest.Read(t, raw)
		subjects[m.Subject()]++
		switch {
		case strings.HasPrefix(m.Subject(), "Mietquittung") && strings.Contains(m.Text, "990,00"):
			receipt = m
		case strings.HasPrefix(m.Subject(), "Letzte Mahnung"):
			reminder = m
		case strings.HasPrefix(m.Subject(), "Neue Miete ab"):
			rentChange = m
		}
	}
	for s, n := range subjects {
		if n != 1 {
			t.Errorf("%d mails with the subject %q", n, s)
		}
	}
	// The rent change states the index as § 557b BGB asks: its name, old
	// and new values with their months, the change in percent.
	change := strings.Join(strings.Fields(strings.ReplaceAll(rentChange.Text, "\u00a0", " ")), " ")
	for _, want := range []string{"ab dem 01.07.2027 beträgt die monatliche Miete 990,00 € (bisher 950,00 €)", "§ 557b BGB",
		"Verbraucherpreisindex für Deutschland (VPI) stand im Oktober 2025 bei 110,0 und im Oktober 2026 bei 120,0", "Änderung um 9,09 %"} {
		if !strings.Contains(change, want) {
			t.Errorf("the rent change lacks %q:\n%s", want, change)
		}
	}
	reminder.Text = strings.NewReplacer("\u00a0", " ", "\r\n", "\n").Replace(reminder.Text)
	if !strings.Contains(reminder.Text, "Guten Tag Anna Schmidt,") || !strings.Contains(reminder.Text, "03.03.2027") ||
		!strings.Contains(reminder.Text, "- Miete, Vertrag L-7 (03.2027): 950,00 €\n- Verzugszinsen: Miete, Vertrag L-7 (03.2027): 0,16 €\nGesamt: 950,16 €") ||
		!strings.Contains(reminder.Text, "Mietvertrag L-7, Flat 3 (Lindenstraße 5, 10969 Berlin)") || !strings.Contains(reminder.Text, "letzte Mahnung") {
		t.Errorf("the last reminder reads:\n%s", reminder.Text)
	}
	if len(reminder.Files) != 1 {
		t.Fatalf("the last reminder has %d attachments", len(reminder.Files))
	}
	for _, pdf := range reminder.Files {
		text := strings.Join(strings.Fields(strings.ReplaceAll(mailtest.PDFText(t, pdf), "\u00a0", " ")), " ")
		if text == "" {
			continue
		}
		for _, want := range []string{"Letzte Mahnung", "Vertrag Nr. L-7", "Anna Schmidt", "Lindenstraße 5, 10969 Berlin",
			"Miete, Vertrag L-7 03.2027 950,00 €", "Verzugszinsen: Miete, Vertrag L-7 03.2027 0,16 €", "Gesamt 950,16 €",
			"den Gesamtbetrag von 950,16 € innerhalb von 14 Tagen", "§§ 286, 288 BGB"} {
			if !strings.Contains(text, want) {
				t.Errorf("the last reminder's letter lacks %q:\n%s", want, text)
			}
		}
	}
	if len(receipt.Files) != 1 {
		t.Fatalf("a receipt of 990,00 with %d attachments: %q", len(receipt.Files), receipt.Text)
	}
	for name, pdf := range receipt.Files {
		if receipt.Types[name] != "application/pdf" || !strings.HasPrefix(name, "receipt-") {
			t.Errorf("attachment %s (%s)", name, receipt.Types[name])
		}
		if text := mailtest.PDFText(t, pdf); text != "" && (!strings.Contains(text, "990,00") || !strings.Contains(text, "Anna Schmidt")) {
			t.Errorf("the receipt's PDF reads:\n%s", text)
		}
	}
}
