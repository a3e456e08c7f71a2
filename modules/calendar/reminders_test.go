package calendar_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/modules/calendar"
	"github.com/propman/propman/platform/testkit"
)

func TestRemindersOncePerOccurrence(t *testing.T) {
	var svc *calendar.Service
	f := start(t, testkit.WithPopulate(&svc), testkit.WithConfig("auth.ttl", "2000h"), testkit.WithConfig("auth.maxage", "2000h"))
	var anna struct {
		ID string `json:"id"`
	}
	f.app.Post("/api/v1/contragents", f.user.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Anna",
		"email": "anna@example.com"}).Expect(http.StatusCreated).JSON(&anna)
	// Daily at 12:00 UTC from today (the clock says 10:00), reminded an
	// hour and a day before; the day-before reminder of today's occurrence
	// fell before the event was stored and is never sent.
	f.create(t, map[string]any{"title": "Key handover", "kind": "meeting", "starts_at": "2026-11-22T12:00:00Z", "ends_at": "2026-11-22T12:30:00Z",
		"rrule": "FREQ=DAILY;COUNT=3", "property_id": f.property, "attendees": []string{f.tenant, anna.ID}, "reminders": []int{60, 1440}})
	// Without attendees or property nothing is written, but the reminder counts as done.
	f.create(t, map[string]any{"title": "Own note", "kind": "other", "starts_at": "2026-11-22T12:00:00Z", "ends_at": "2026-11-22T12:30:00Z",
		"reminders": []int{60}})
	run := func(at time.Time, want int) {
		t.Helper()
		f.app.Clock.Set(at)
		n, err := svc.RemindDue(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Fatalf("at %s: %d reminders sent, want %d", at, n, want)
		}
	}
	run(time.Date(2026, 11, 22, 10, 59, 0, 0, time.UTC), 0)
	run(time.Date(2026, 11, 22, 11, 0, 30, 0, time.UTC), 2) // today's 60 of both events
	run(time.Date(2026, 11, 22, 11, 5, 0, 0, time.UTC), 0)
	run(time.Date(2026, 11, 22, 12, 0, 30, 0, time.UTC), 1) // tomorrow's 1440
	// Runs at once (two instances) send each reminder once.
	f.app.Clock.Set(time.Date(2026, 11, 23, 11, 0, 30, 0, time.UTC))
	var wg sync.WaitGroup
	total := make([]int, 4)
	for i := range total {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			n, err := svc.RemindDue(context.Background())
			if err != nil {
				t.Error(err)
			}
			total[i] = n
		}(i)
	}
	wg.Wait()
	if sum := total[0] + total[1] + total[2] + total[3]; sum != 1 {
		t.Fatalf("concurrent runs sent %v", total)
	}
	// 2 attendees x (today 60, tomorrow 1440, tomorrow 60) messages.
	var page struct {
		Messages []struct {
			Subject string `json:"subject"`
			Channel string `json:"channel"`
		} `json:"messages"`
	}
	f.app.Get("/api/v1/properties/"+f.property+"/messages?per_page=50", f.user.Token).Expect(http.StatusOK).JSON(&page)
	if len(page.Messages) != 6 {
		t.Fatalf("%d messages: %+v", len(page.Messages), page.Messages)
	}
	email := 0
	for _, m := range page.Messages {
		if m.Channel == "email" {
			email++
		}
	}
	if email != 3 || page.Messages[0].Subject == "" {
		t.Fatalf("messages %+v", page.Messages)
	}
	if n := count(t, f.app, "calendar_reminders_sent"); n != 4 {
		t.Fatalf("%d reminders recorded", n)
	}
}

// A deleted attendee is left out; the others are reminded.
func TestReminderSkipsDeletedAttendee(t *testing.T) {
	var svc *calendar.Service
	f := start(t, testkit.WithPopulate(&svc))
	var gone struct {
		ID string `json:"id"`
	}
	f.app.Post("/api/v1/contragents", f.user.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Gone"}).
		Expect(http.StatusCreated).JSON(&gone)
	f.create(t, map[string]any{"title": "Inspection", "kind": "inspection", "starts_at": "2026-11-22T12:00:00Z", "ends_at": "2026-11-22T12:30:00Z",
		"property_id": f.property, "attendees": []string{gone.ID, f.tenant}, "reminders": []int{30}})
	f.app.Delete("/api/v1/contragents/"+gone.ID, f.user.Token).Expect(http.StatusNoContent)
	f.app.Clock.Set(time.Date(2026, 11, 22, 11, 31, 0, 0, time.UTC))
	if n, err := svc.RemindDue(context.Background()); err != nil || n != 1 {
		t.Fatalf("sent %d, %v", n, err)
	}
	if n := count(t, f.app, "messages"); n != 1 {
		t.Fatalf("%d messages", n)
	}
}
