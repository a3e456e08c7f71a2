package calendar

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/messages"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/period"
	"github.com/propman/propman/platform/printstyle"
)

// remindArgs is the job that sends the reminders that have fallen due.
type remindArgs struct{}

// Kind is River's name of the job.
func (remindArgs) Kind() string { return "calendar_reminders" }

type remindWorker struct {
	river.WorkerDefaults[remindArgs]
	svc *Service
}

func (w *remindWorker) Work(ctx context.Context, _ *river.Job[remindArgs]) error {
	_, err := w.svc.RemindDue(ctx)
	return err
}

// registerReminders adds the worker and its schedule: every RemindEvery,
// on the leader only.
func registerReminders(q *jobs.Queue, s *Service) {
	jobs.Register(q, &remindWorker{svc: s})
	q.Every(s.cfg.RemindEvery, "calendar_reminders", func() river.JobArgs { return remindArgs{} })
}

// remindPage is how many events with reminders one read takes.
const remindPage = 500

// due is one reminder of one occurrence.
type due struct {
	occ     Occurrence
	start   time.Time // the occurrence's start (midnight in its zone when all-day)
	key     time.Time // its recurrence id, or its start when the event happens once
	minutes int
}

// RemindDue sends every reminder whose time (an occurrence's start less
// its minutes) has come since RemindLookback ago and is not before the
// event was stored, as a message to each attendee in the property's
// thread with them. A row per event, occurrence and minutes, inserted in
// the transaction of the messages, makes each reminder once however often
// the job runs or how many instances run it; a run that missed more than
// the lookback skips what is older. It returns how many reminders it sent.
func (s *Service) RemindDue(ctx context.Context) (int, error) {
	now := s.clock.Now().UTC()
	since := now.Add(-s.cfg.RemindLookback)
	horizon := now.Add(time.Duration(maxReminderMin)*time.Minute + 48*time.Hour)
	w := window{from: period.DateOf(since).AddDays(-1).Time(), to: period.DateOf(horizon).Time(), start: since, end: horizon}
	sent := 0
	for after := uuid.Nil; ; {
		list, err := reminderPage(ctx, s.db, since, horizon, after, remindPage)
		if err != nil {
			return sent, err
		}
		for i := range list {
			n, err := s.remindEvent(ctx, &list[i], w, since, now)
			sent += n
			if err != nil {
				if ctx.Err() != nil {
					return sent, err
				}
				// One event's failure (a database hiccup) must not hold
				// back the others; its reminders are tried again next time,
				// while they are within the lookback.
				s.log.Warn("calendar reminder not sent", "event", list[i].ID, "error", err)
			}
		}
		if len(list) < remindPage {
			return sent, nil
		}
		after = list[len(list)-1].ID
	}
}

func (s *Service) remindEvent(ctx context.Context, e *Event, w window, since, now time.Time) (int, error) {
	sc, err := newSchedule(e)
	if err != nil {
		return 0, err
	}
	var minutes []int
	if err := json.Unmarshal([]byte(e.Reminders), &minutes); err != nil {
		return 0, fmt.Errorf("event %s: reminders: %w", e.ID, err)
	}
	budget := maxWindowOccurrences
	occs, err := sc.expand(w, nil, &budget)
	if err != nil {
		return 0, err
	}
	var list []due
	for _, o := range occs {
		start := o.Start
		if o.AllDay {
			start = time.Date(o.Start.Year(), o.Start.Month(), o.Start.Day(), 0, 0, 0, 0, sc.loc)
		}
		key := o.Start
		if o.Recurrence != nil {
			key = *o.Recurrence
		}
		for _, m := range minutes {
			at := start.Add(-time.Duration(m) * time.Minute)
			if at.After(since) && !at.After(now) && !at.Before(e.CreatedAt) {
				list = append(list, due{occ: o, start: start, key: key.UTC(), minutes: m})
			}
		}
	}
	sent := 0
	for _, d := range list {
		ok, err := s.remind(ctx, e, sc, d)
		if err != nil {
			return sent, err
		}
		if ok {
			sent++
		}
	}
	return sent, nil
}

// remind records one reminder and writes its messages in one transaction;
// false when another run recorded it first.
func (s *Service) remind(ctx context.Context, e *Event, sc *schedule, d due) (bool, error) {
	var attendees []uuid.UUID
	if err := json.Unmarshal([]byte(e.Attendees), &attendees); err != nil {
		return false, fmt.Errorf("event %s: attendees: %w", e.ID, err)
	}
	first := false
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		row := &ReminderSent{EventID: e.ID, Occurrence: d.key, Minutes: d.minutes, SentAt: s.now()}
		if recorded, err := recordReminder(ctx, tx, row); err != nil || !recorded {
			return err
		}
		first = true
		if e.PropertyID == nil || s.messages == nil {
			return nil
		}
		locale, err := s.reminderLocale(ctx, tx, e)
		if err != nil {
			return err
		}
		title, body := reminderText(s.dicts, locale, e, sc, d)
		// Attendees deleted since the event was stored are left out.
		present, err := contragents.InWorkspace(ctx, tx, e.WorkspaceID, attendees)
		if err != nil {
			return err
		}
		for _, a := range present {
			key := "calendar_reminder:" + e.ID.String() + ":" + strconv.FormatInt(d.key.Unix(), 10) + ":" + strconv.Itoa(d.minutes) + ":" + a.String()
			if _, _, err := s.messages.Remind(ctx, tx, messages.Reminder{WorkspaceID: e.WorkspaceID, PropertyID: *e.PropertyID,
				ContractID: e.ContractID, ContragentID: a, Key: key, Title: title, Body: body}); err != nil {
				return err
			}
		}
		return nil
	})
	return first, err
}

// reminderLocale is the language the attendees read a reminder in: the
// contract's for an event of a contract (a tenant reads the contract's
// language, as every tenant-facing text), else the profile language of
// the member who stored the event (the landlord writing to their
// contacts), else English.
func (s *Service) reminderLocale(ctx context.Context, db bun.IDB, e *Event) (string, error) {
	var locale string
	var err error
	switch {
	case e.ContractID != nil:
		locale, err = contracts.LocaleOf(ctx, db, *e.ContractID)
	case e.CreatedBy != nil:
		locale, err = accounts.LocaleOf(ctx, db, *e.CreatedBy)
	}
	if err != nil || locale != "" {
		return locale, err
	}
	return accounts.DefaultLocale, nil
}

// reminderKeys are the catalogue's keys of a reminder.
var reminderKeys = []string{"calendar.reminder.subject", "calendar.reminder.at"}

// reminderText is a reminder's subject and body in locale: the title, the
// day as the locale writes it and, for an event with a time, the time of
// day and the zone's abbreviation in the event's zone.
func reminderText(dicts *translations.Dictionaries, locale string, e *Event, sc *schedule, d due) (title, body string) {
	t, _ := dicts.Select(locale, reminderKeys)
	st := printstyle.Of(locale)
	fill := func(text string, pairs ...string) string {
		for i := 0; i+1 < len(pairs); i += 2 {
			text = strings.ReplaceAll(text, "{"+pairs[i]+"}", pairs[i+1])
		}
		return text
	}
	var when string
	if e.AllDay {
		when = st.Date(period.DateOf(d.occ.Start.UTC()))
	} else {
		at := d.start.In(sc.loc)
		when = fill(t["calendar.reminder.at"], "date", st.Date(period.NewDate(at.Year(), at.Month(), at.Day())),
			"time", at.Format("15:04"), "zone", at.Format("MST"))
	}
	title = fill(t["calendar.reminder.subject"], "title", d.occ.Title, "when", when)
	body = d.occ.Title + "\n" + when + " (" + e.TimeZone + ")"
	if d.occ.Description != "" {
		body += "\n\n" + d.occ.Description
	}
	return title, body
}
