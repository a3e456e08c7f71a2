package calendar_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/calendar"
	"github.com/propman/propman/platform/testkit"
)

// A reminder reads in the language of the member who stored the event,
// with the day and time as that language writes them, in the event's
// time zone.
func TestReminderInTheReadersLanguage(t *testing.T) {
	var svc *calendar.Service
	f := start(t, testkit.WithPopulate(&svc), testkit.WithConfig("auth.ttl", "2000h"), testkit.WithConfig("auth.maxage", "2000h"))
	for i, tc := range []struct{ locale, subject, body string }{
		{"de", "Erinnerung: Übergabe de, 07.12.2026 um 15:00 Uhr CET", "Übergabe de\n07.12.2026 um 15:00 Uhr CET (Europe/Berlin)"},
		{"fr", "Rappel : Übergabe fr, 08/12/2026 à 15:00 CET", "Übergabe fr\n08/12/2026 à 15:00 CET (Europe/Berlin)"},
		{"en", "Reminder: Übergabe en, 2026-12-09 at 15:00 CET", "Übergabe en\n2026-12-09 at 15:00 CET (Europe/Berlin)"},
	} {
		f.app.Put("/api/v1/user/profile", f.user.Token, map[string]any{"locale": tc.locale}).Expect(http.StatusOK)
		day := 7 + i
		starts := time.Date(2026, 12, day, 14, 0, 0, 0, time.UTC) // 15:00 in Berlin
		f.create(t, map[string]any{"title": "Übergabe " + tc.locale, "kind": "meeting", "time_zone": "Europe/Berlin",
			"starts_at": starts.Format(time.RFC3339), "ends_at": starts.Add(time.Hour).Format(time.RFC3339),
			"property_id": f.property, "attendees": []string{f.tenant}, "reminders": []int{60}})
		f.app.Clock.Set(starts.Add(-59 * time.Minute))
		if n, err := svc.RemindDue(context.Background()); err != nil || n != 1 {
			t.Fatalf("%s: %d sent, %v", tc.locale, n, err)
		}
		var page struct {
			Messages []struct {
				Subject string `json:"subject"`
				Body    string `json:"body"`
			} `json:"messages"`
		}
		f.app.Get("/api/v1/properties/"+f.property+"/messages?per_page=50", f.user.Token).Expect(http.StatusOK).JSON(&page)
		found := false
		for _, m := range page.Messages {
			if strings.Contains(m.Subject, "Übergabe "+tc.locale) {
				found = true
				if m.Subject != tc.subject || m.Body != tc.body {
					t.Errorf("%s:\nsubject %q\nbody    %q\nwant    %q\n        %q", tc.locale, m.Subject, m.Body, tc.subject, tc.body)
				}
			}
		}
		if !found {
			t.Errorf("%s: no reminder among %+v", tc.locale, page.Messages)
		}
	}
}

// The feed's link is absolute under http.publicurl.
func TestFeedURLUnderPublicURL(t *testing.T) {
	f := start(t, testkit.WithConfig("http.publicurl", "https://propman.example.com"))
	var tok struct {
		Token string `json:"token"`
		URL   string `json:"url"`
	}
	f.app.Post("/api/v1/calendar/feed-token", f.user.Token, nil).Expect(http.StatusCreated).JSON(&tok)
	if tok.URL != "https://propman.example.com/api/v1/calendar/feed/"+tok.Token+".ics" {
		t.Errorf("url %q", tok.URL)
	}
}
