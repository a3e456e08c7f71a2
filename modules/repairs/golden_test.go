package repairs_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/repairs"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/testkit/golden"
)

// Every new text the tenant or the provider reads, word for word, in
// German, French and English: the recharge message (German: the
// small-repairs clause, the second one cut by the yearly cap; French: the
// réparations locatives), and the visit's invitations to the tenant and
// the provider with their calendar files (the UID, random, blanked).
func TestGoldenTexts(t *testing.T) {
	t.Parallel()
	var svc *repairs.Service
	app := start(t, testkit.WithPopulate(&svc))
	files := map[string]string{}
	last := func(l lease) string {
		thread := l.thread(t, app)
		m := thread[len(thread)-1]
		return m.Subject + "\n\n" + m.Body
	}
	de := newLeaseIn(t, app, "DE", "de", "auftrag@klempner.example", "DE_KLEINREPARATUREN_LIMIT", 100, "DE_KLEINREPARATUREN_YEARLY_CAP", 150)
	de.recharge(t, app, de.done(t, app, "Wasserhahn tropft", "plumbing", 99.5), "99.50", false)
	files["recharge.de.txt"] = last(de)
	de.recharge(t, app, de.done(t, app, "Lichtschalter defekt", "electrical", 75), "50.50", true)
	files["recharge-capped.de.txt"] = last(de)

	en := newLeaseIn(t, app, "DE", "en", "orders@plumber.example", "DE_KLEINREPARATUREN_LIMIT", 100, "DE_KLEINREPARATUREN_YEARLY_CAP", 50)
	en.recharge(t, app, en.done(t, app, "Dripping tap", "plumbing", 60), "50.00", true)
	files["recharge-capped.en.txt"] = last(en)

	fr := newLeaseIn(t, app, "FR", "fr", "contact@plombier.example")
	fr.recharge(t, app, fr.done(t, app, "Joint du robinet", "plumbing", 412.35), "412.35", false)
	files["recharge.fr.txt"] = last(fr)

	invite := func(l lease, locale string) {
		for who, addr := range map[string]string{"tenant": l.tenant.Email, "provider": l.email} {
			text, file := invitation(t, app, addr)
			files["invitation-"+who+"."+locale+".txt"] = text + "\n\n--- " + "repair-visit.ics\n" +
				uidLine.ReplaceAllString(strings.ReplaceAll(file, "\r\n", "\n"), "UID:(event id)@propman")
		}
	}
	invite(de, "de")
	invite(en, "en")
	invite(fr, "fr")

	// The overdue reminders, to the provider and to the owner in their
	// profile's language.
	for _, c := range []struct {
		l      lease
		locale string
	}{{de, "de"}, {en, "en"}, {fr, "fr"}} {
		app.Put("/api/v1/user/profile", c.l.landlord.Token, map[string]any{"locale": c.locale}).Expect(http.StatusOK)
		c.l.overdue(t, app, map[string]string{"de": "Rohrbruch im Keller", "en": "Burst pipe", "fr": "Fuite d'eau"}[c.locale])
	}
	app.Clock.Advance(4 * 24 * time.Hour)
	if n, err := svc.RemindOverdue(context.Background()); err != nil || n != 3 {
		t.Fatalf("reminded of %d (%v)", n, err)
	}
	for _, c := range []struct {
		l      lease
		locale string
	}{{de, "de"}, {en, "en"}, {fr, "fr"}} {
		for who, addr := range map[string]string{"provider": c.l.email, "member": c.l.landlord.Email} {
			m, _ := app.Mail.Last(addr)
			files["overdue-"+who+"."+c.locale+".txt"] = m.Subject + "\n\n" + m.Text
		}
	}

	golden.Dir(t, filepath.Join("testdata", "golden"), files)
}
