package notices_test

import (
	"fmt"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/platform/mail/mailtest"
	"github.com/propman/propman/platform/testkit/golden"
)

// TestGoldenLetters keeps one golden text of every letter the notices
// send, per language, as the tenant reads it: the mail and the text of the
// PDF it carries. A German, a French and a British flat each go through
// the same month: the rent call, the three steps of the dunning ladder (the
// third with its letter), a part payment, the payment of the rest, a
// repair set off, a rent change following the index and the notice of the
// lease's end. A change to any word shows up here as a diff to review.
func TestGoldenLetters(t *testing.T) {
	for _, tc := range []struct {
		locale string
		where  place
		index  map[string]any
		rent   float64
		repair string
	}{
		{"de", germany, map[string]any{"old_period": "2025-10", "old_value": "110.0", "new_period": "2026-10", "new_value": "120.0"}, 990, "Heizungsthermostat vom Mieter ersetzt\n(Rechnung 17)"},
		{"fr", france, map[string]any{"old_period": "2025-Q3", "old_value": "145.77", "new_period": "2026-Q3", "new_value": "147.96"}, 964.25, "Thermostat remplacé par le locataire\n(facture 17)"},
		{"en", britain, nil, 990, "Thermostat replaced by the tenant\n(invoice 17)"},
	} {
		t.Run(tc.locale, func(t *testing.T) {
			t.Parallel()
			letters := monthOfLetters(t, tc.where, tc.locale, tc.index, tc.rent, tc.repair)
			files := map[string]string{}
			for name, letter := range letters {
				for part, text := range letter {
					files[name+part+".txt"] = text
				}
			}
			golden.Dir(t, filepath.Join("testdata", "golden", tc.locale), files)
		})
	}
}

// bankAccount is the landlord's account in each country, the one every
// letter names.
var bankAccount = map[string]map[string]any{
	"DE": {"holder": "Lena Vermieter", "iban": "DE89 3704 0044 0532 0130 00", "bic": "COBADEFFXXX", "bank_name": "Commerzbank"},
	"FR": {"holder": "Lena Vermieter", "iban": "FR14 2004 1010 0505 0001 3M02 606", "bic": "PSSTFRPPLIL", "bank_name": "La Banque Postale"},
	"GB": {"holder": "Lena Vermieter", "iban": "GB29 NWBK 6016 1331 9268 19", "bic": "NWBKGB2L", "bank_name": "NatWest", "currency": "GBP"},
}

// monthOfLetters runs the month and returns each letter by kind: the mail
// under "", its PDF (where poppler is installed) under ".pdf".
func monthOfLetters(t *testing.T, where place, locale string, index map[string]any, rent float64, repair string) map[string]map[string]string {
	t.Helper()
	first := time.Date(2026, 11, 26, 0, 0, 0, 0, berlin)
	w := newWorldIn(t, where, first.Add(10*time.Hour), locale, "2026-12-01", "2027-02-28")
	tok := w.landlord.Token
	prop := "/api/v1/properties/" + w.property
	w.app.Put("/api/v1/user/profile", tok, map[string]any{"name": "Lena Vermieter",
		"postal_address": map[string]any{"address": "Am Markt 1", "postal_code": "50667", "city": "Köln", "country_code": "DE"}}).Expect(http.StatusOK)
	w.app.Post("/api/v1/bank-accounts", tok, bankAccount[where.country]).Expect(http.StatusCreated)
	w.app.Put("/api/v1/contragents/"+w.tenant, tok, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": where.tenant, "email": where.email,
		"address": where.address + "\n" + where.postal + " " + where.city}).Expect(http.StatusOK)

	type sent struct {
		date  string
		mails [][]byte
	}
	var days []sent
	seen := 0
	for day := first; day.Before(time.Date(2027, 1, 1, 0, 0, 0, 0, berlin)); day = day.AddDate(0, 0, 1) {
		w.at(t, day, 0, 30)
		w.at(t, day, 8, 0)
		noon := func() { w.app.Clock.Set(time.Date(day.Year(), day.Month(), day.Day(), 12, 0, 0, 0, berlin)) }
		switch day.Format("2006-01-02") {
		case "2026-12-20":
			noon()
			w.pay(t, 500, "2026-12-20")
		case "2026-12-27":
			noon()
			var b struct {
				Overdue float64 `json:"overdue"`
			}
			w.app.Get(prop+"/balance?contract_id="+w.contract, tok).Expect(http.StatusOK).JSON(&b)
			w.pay(t, b.Overdue, "2026-12-27")
		case "2026-12-28":
			noon()
			cp := created(t, w.app.Post(prop+"/compensations", tok, map[string]any{"contract_id": w.contract, "kind": "repair_by_tenant",
				"amount": 75.25, "description": repair}))
			w.app.Post(prop+"/compensations/"+cp+"/credit", tok, nil).Expect(http.StatusOK)
		case "2026-12-29":
			noon()
			body := map[string]any{"amount": rent, "from": "2027-02-01"}
			if index != nil {
				body["index"] = index
			}
			w.app.Post("/api/v1/contracts/"+w.contract+"/rent", tok, body).Expect(http.StatusOK)
		}
		w.quiet(t)
		all := w.srv.Received()
		if len(all) > seen {
			// Mails of one day arrive in any order: by subject, then body.
			today := append([][]byte(nil), all[seen:]...)
			sort.Slice(today, func(i, j int) bool {
				a, b := mailtest.Read(t, today[i]), mailtest.Read(t, today[j])
				return a.Subject()+a.Text < b.Subject()+b.Text
			})
			days = append(days, sent{day.Format("2006-01-02"), today})
			seen = len(all)
		}
	}

	letters := map[string]map[string]string{}
	for _, day := range days {
		for i, raw := range day.mails {
			m := mailtest.Read(t, raw)
			name := fmt.Sprintf("%s-%d", day.date, i+1)
			letter := map[string]string{"": "Subject: " + m.Subject() + "\n\n" + strings.TrimSpace(m.Text) + "\n"}
			files := make([]string, 0, len(m.Files))
			for file := range m.Files {
				files = append(files, file)
			}
			sort.Strings(files)
			if len(files) > 1 {
				t.Errorf("%s carries %d files: %v", name, len(files), files)
			}
			for _, file := range files {
				letter[""] += "\nAttached: " + file + "\n"
				if text := mailtest.PDFText(t, m.Files[file]); text != "" {
					letter[".pdf"] = text
				}
			}
			letters[name] = letter
		}
	}
	return letters
}
