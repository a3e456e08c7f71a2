package notices_test

import (
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/platform/mail/mailtest"
)

// France (loi 89-462 art. 21): a payment that leaves its month's rent and
// charges fully paid gets a quittance de loyer; a part payment a reçu,
// never a quittance. The mail's subject and the PDF agree.
func TestQuittanceOnlyForAMonthPaidInFull(t *testing.T) {
	w := newWorld(t, time.Date(2026, 11, 26, 10, 0, 0, 0, berlin), "fr", "2026-12-01", "2027-11-30")
	w.at(t, time.Date(2026, 12, 1, 0, 0, 0, 0, berlin), 0, 30) // December's rent billed
	w.app.Clock.Set(time.Date(2026, 12, 2, 12, 0, 0, 0, berlin))
	w.pay(t, 400, "2026-12-02")
	w.pay(t, 550, "2026-12-02")
	mails, err := w.srv.Wait(2, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	bySubject := map[string]mailtest.Mail{}
	for _, raw := range mails {
		m := mailtest.Read(t, raw)
		bySubject[m.Subject()] = m
	}
	part, ok1 := bySubject["Reçu 2026-000001"]
	full, ok2 := bySubject["Quittance de loyer 2026-000002"]
	if !ok1 || !ok2 {
		t.Fatalf("subjects %v, want a reçu for the part payment and a quittance for the one that paid the month", keysOf(bySubject))
	}
	if strings.Contains(part.Text, "quittance") || !strings.Contains(part.Text, "Le reçu 2026-000001 est joint") {
		t.Errorf("the part payment's mail:\n%s", part.Text)
	}
	if !strings.Contains(full.Text, "qui règle le loyer et les charges du mois") {
		t.Errorf("the full payment's mail:\n%s", full.Text)
	}
	for name, m := range map[string]mailtest.Mail{"reçu": part, "quittance": full} {
		for _, pdf := range m.Files {
			text := mailtest.PDFText(t, pdf)
			if text == "" {
				continue
			}
			isQuittance := strings.Contains(text, "Quittance de loyer") && strings.Contains(text, "Quittance n°")
			isRecu := strings.Contains(text, "Reçu de paiement") && strings.Contains(text, "Reçu n°")
			if (name == "quittance") != isQuittance || (name == "reçu") != isRecu {
				t.Errorf("the %s's PDF reads:\n%s", name, text)
			}
		}
	}
}

func keysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
