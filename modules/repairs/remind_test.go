package repairs_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/repairs"
	"github.com/propman/propman/platform/testkit"
)

// overdue orders an urgent request (deadline in 3 days) and lets the clock
// pass it; it returns the provider's token.
func (l lease) overdue(t *testing.T, app *testkit.App, title string) string {
	t.Helper()
	var r request
	app.Post(l.tenantPath(), l.tenant.Token, map[string]any{"title": title, "description": "Bitte reparieren.",
		"category": "plumbing", "urgency": "urgent"}).Expect(http.StatusCreated).JSON(&r)
	app.Post(l.memberPath()+"/"+r.ID+"/transition", l.landlord.Token, map[string]any{"to": "triaged"}).Expect(http.StatusOK)
	return l.order(t, app, r.ID)
}

// mailsTo counts the mails sent to addr whose subject starts with prefix.
func mailsTo(app *testkit.App, addr, prefix string) int {
	n := 0
	for _, m := range app.Mail.Messages() {
		if strings.EqualFold(m.To, addr) && strings.HasPrefix(m.Subject, prefix) {
			n++
		}
	}
	return n
}

// The sweep reminds the provider and the workspace's owner of an order
// past its deadline once a day however often it runs, again the next day,
// and no more once the job is done or the order declined.
func TestOverdueReminders(t *testing.T) {
	t.Parallel()
	var svc *repairs.Service
	app := start(t, testkit.WithPopulate(&svc))
	l := newLease(t, app, "de", "auftrag@klempner.example")
	app.Put("/api/v1/user/profile", l.landlord.Token, map[string]any{"locale": "de"}).Expect(http.StatusOK)
	token := l.overdue(t, app, "Rohrbruch")
	other := l.overdue(t, app, "Abfluss verstopft")
	sweep := func(want int) {
		t.Helper()
		if n, err := svc.RemindOverdue(context.Background()); err != nil || n != want {
			t.Fatalf("at %s: reminded of %d (%v), want %d", app.Clock.Now(), n, err, want)
		}
	}
	sweep(0)
	app.Clock.Advance(3*24*time.Hour + time.Minute)
	sweep(2)
	sweep(0)
	if got := mailsTo(app, l.email, "Reparatur überfällig: "); got != 2 {
		t.Errorf("%d reminders to the provider, want 2", got)
	}
	if got := mailsTo(app, l.landlord.Email, "Reparatur überfällig: "); got != 2 {
		t.Errorf("%d reminders to the owner, want 2", got)
	}
	if got := mailsTo(app, l.tenant.Email, "Reparatur überfällig: "); got != 0 {
		t.Errorf("the tenant got %d reminders", got)
	}
	// The next day again; a declined order is the member's to reorder, no
	// longer the provider's to be reminded of.
	app.Post("/api/v1/work-orders/"+other+"/decline", "", map[string]any{"note": "Keine Zeit"}).Expect(http.StatusOK)
	app.Clock.Advance(24 * time.Hour)
	sweep(1)
	sweep(0)
	if got := mailsTo(app, l.email, "Reparatur überfällig: Rohrbruch"); got != 2 {
		t.Errorf("%d reminders of Rohrbruch, want 2", got)
	}
	page := "/api/v1/work-orders/" + token
	app.Post(page+"/accept", "", nil).Expect(http.StatusOK)
	start := app.Clock.Now().Add(2 * time.Hour).Truncate(time.Hour)
	app.Post(page+"/slots", "", map[string]any{"slots": []map[string]any{{"start": start.Format(time.RFC3339), "end": start.Add(time.Hour).Format(time.RFC3339)}}}).Expect(http.StatusOK)
	app.Clock.Advance(24 * time.Hour)
	sweep(1) // accepted, still not done
	start = app.Clock.Now().Add(2 * time.Hour).Truncate(time.Hour)
	app.Post(page+"/slots", "", map[string]any{"slots": []map[string]any{{"start": start.Format(time.RFC3339), "end": start.Add(time.Hour).Format(time.RFC3339)}}}).Expect(http.StatusOK)
	var r list
	app.Get(l.tenantPath()+"?status=ordered", l.tenant.Token).Expect(http.StatusOK).JSON(&r)
	app.Post(l.tenantPath()+"/"+r.Requests[0].ID+"/slot", l.tenant.Token, map[string]any{"start": start.Format(time.RFC3339)}).Expect(http.StatusOK)
	app.Post(page+"/done", "", map[string]any{"note": "Repariert."}).Expect(http.StatusOK)
	app.Clock.Advance(24 * time.Hour)
	sweep(0)
}
