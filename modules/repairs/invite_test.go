package repairs_test

import (
	"bytes"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	ics "github.com/arran4/golang-ical"

	"github.com/propman/propman/platform/mail"
	"github.com/propman/propman/platform/testkit"
)

// invitation is the last mail to addr with its .ics attachment: the mail's
// subject and text, and the attachment's text.
func invitation(t *testing.T, app *testkit.App, addr string) (mailText, file string) {
	t.Helper()
	var m mail.Message
	all := app.Mail.Messages()
	for i := len(all) - 1; i >= 0; i-- {
		if strings.EqualFold(all[i].To, addr) && len(all[i].Attachments) == 1 {
			m = all[i]
			break
		}
	}
	if m.To == "" {
		t.Fatalf("no invitation to %s", addr)
	}
	a := m.Attachments[0]
	if a.Filename != "repair-visit.ics" || !strings.HasPrefix(a.ContentType, "text/calendar") {
		t.Errorf("the attachment %s %s", a.Filename, a.ContentType)
	}
	b, err := io.ReadAll(a.Content)
	if err != nil {
		t.Fatal(err)
	}
	// The catcher keeps the reader: give it back for a second look.
	m.Attachments[0].Content = bytes.NewReader(b)
	return m.Subject + "\n\n" + m.Text, string(b)
}

var uidLine = regexp.MustCompile(`UID:[0-9a-f-]{36}@propman`)

// The tenant picks a time: the tenant and the provider each get the visit
// as a calendar entry in their language, the same event (UID) as the
// members' calendar, read back with golang-ical.
func TestVisitInvitations(t *testing.T) {
	t.Parallel()
	app := start(t)
	l := newLease(t, app, "de", "auftrag@klempner.example")
	l.scheduled(t, app, "Heizung fällt aus", "heating")
	var events struct {
		Events []struct {
			ID string `json:"id"`
		} `json:"calendar_events"`
	}
	app.Get("/api/v1/calendar-events?kind=repair", l.landlord.Token).Expect(http.StatusOK).JSON(&events)
	if len(events.Events) != 1 {
		t.Fatalf("events %+v", events)
	}
	for _, addr := range []string{l.tenant.Email, l.email} {
		text, file := invitation(t, app, addr)
		if !strings.HasPrefix(text, "Reparaturtermin: Heizung fällt aus") || !strings.Contains(text, "24.11.2026, 10:00 – 12:00 Uhr (UTC)") {
			t.Errorf("the invitation to %s:\n%s", addr, text)
		}
		cal, err := ics.ParseCalendar(strings.NewReader(file))
		if err != nil {
			t.Fatalf("golang-ical: %v\n%s", err, file)
		}
		ev := cal.Events()
		if len(ev) != 1 {
			t.Fatalf("%d events", len(ev))
		}
		start, err1 := ev[0].GetStartAt()
		end, err2 := ev[0].GetEndAt()
		if err1 != nil || err2 != nil || start.UTC().Format("2006-01-02T15:04Z") != "2026-11-24T10:00Z" || end.UTC().Format("2006-01-02T15:04Z") != "2026-11-24T12:00Z" {
			t.Errorf("times %v %v (%v %v)", start, end, err1, err2)
		}
		if got := ev[0].Id(); got != events.Events[0].ID+"@propman" {
			t.Errorf("UID %s, the event is %s", got, events.Events[0].ID)
		}
		if got := ev[0].GetProperty(ics.ComponentPropertySummary).Value; got != "Reparatur: Heizung fällt aus" {
			t.Errorf("summary %q", got)
		}
		if got := ev[0].GetProperty(ics.ComponentPropertyLocation).Value; got != "Flat 3, Lindenstraße 5, 10115 Berlin" {
			t.Errorf("location %q", got)
		}
		if !strings.Contains(file, "\r\n") || strings.Contains(strings.ReplaceAll(file, "\r\n", ""), "\n") {
			t.Error("lines are not CRLF")
		}
	}
}
