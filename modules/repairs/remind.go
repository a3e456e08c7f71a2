package repairs

import (
	"context"
	"html"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/mail"
	"github.com/propman/propman/platform/period"
)

// remindArgs is the job that reminds of overdue work orders.
type remindArgs struct{}

// Kind is River's name of the job.
func (remindArgs) Kind() string { return "repairs_overdue_reminders" }

type remindWorker struct {
	river.WorkerDefaults[remindArgs]
	svc *Service
}

func (w *remindWorker) Work(ctx context.Context, _ *river.Job[remindArgs]) error {
	_, err := w.svc.RemindOverdue(ctx)
	return err
}

// registerReminders adds the worker and its schedule: every
// modules.repairs.remindevery, on the leader only. The work is a global
// sweep, not a workspace's periodic run, so each order is reminded on the
// first run of each day (UTC) it is overdue, however often the job runs.
func registerReminders(q *jobs.Queue, s *Service) {
	jobs.Register(q, &remindWorker{svc: s})
	q.Every(s.cfg.RemindEvery, "repairs_overdue_reminders", func() river.JobArgs { return remindArgs{} })
}

// remindPage is how many orders one read of the sweep takes.
const remindPage = 500

// RemindOverdue mails, at most once a day per work order, a reminder of
// every order still sent or accepted on a request (ordered or scheduled)
// past its deadline: to the provider, in the order's language, and to the
// owners and managers of the workspace, each in their profile's. The day
// is marked before the mails go, so a mail that fails is not sent again
// that day (it is logged). It returns how many orders it reminded of.
func (s *Service) RemindOverdue(ctx context.Context) (int, error) {
	now := s.now()
	today := period.DateOf(now)
	n := 0
	for after := uuid.Nil; ; {
		list, err := s.store.overdueOrders(ctx, now, today, after, remindPage)
		if err != nil {
			return n, err
		}
		for i := range list {
			o := &list[i]
			after = o.ID
			ok, err := s.store.markReminded(ctx, o.ID, today)
			if err != nil {
				return n, err
			}
			if !ok {
				continue
			}
			n++
			s.remind(ctx, o)
		}
		if len(list) < remindPage {
			return n, nil
		}
	}
}

// remind sends the reminders of one overdue order.
func (s *Service) remind(ctx context.Context, o *overdueOrder) {
	places, err := properties.Places(ctx, s.db, []uuid.UUID{o.PropertyID})
	if err != nil {
		s.log.Error("repairs: the place of an overdue order", "order", o.ID, "error", err)
		return
	}
	provider, err := s.contragents.ByID(ctx, s.db, o.ProviderID)
	if err != nil {
		s.log.Error("repairs: the provider of an overdue order", "order", o.ID, "error", err)
		return
	}
	send := func(to, locale, name, bodyKey string) {
		w := s.words(locale)
		vars := []string{"name", name, "title", o.Title, "address", places[o.PropertyID], "deadline", w.when(o.DeadlineAt),
			"provider", provider.Name, "status", w.say("repairs.overdue.status." + o.Status)}
		text := w.say(bodyKey, vars...)
		var htm strings.Builder
		for _, p := range strings.Split(text, "\n\n") {
			htm.WriteString("<p>" + strings.ReplaceAll(html.EscapeString(p), "\n", "<br>") + "</p>")
		}
		if err := s.mailer.Send(ctx, mail.Message{To: to, Subject: w.say("repairs.overdue.subject", vars...), Text: text, HTML: htm.String()}); err != nil {
			s.log.Warn("repairs: an overdue reminder could not be sent", "order", o.ID, "to", to, "error", err)
		}
	}
	if email := accounts.NormalizeEmail(provider.Email); accounts.ValidEmail(email) {
		send(email, o.Locale, provider.Name, "repairs.overdue.provider")
	}
	members, _, err := s.workspaces.Members(ctx, auth.Principal{WorkspaceID: o.WorkspaceID}, listing.Query{Page: 1, PerPage: 100})
	if err != nil {
		s.log.Error("repairs: the members to remind", "order", o.ID, "error", err)
		return
	}
	for _, m := range members {
		if !slices.Contains([]string{"owner", "manager"}, m.Role) {
			continue
		}
		locale := accounts.DefaultLocale
		if u, err := s.accounts.User(ctx, m.UserID); err == nil && u.Locale != "" {
			locale = u.Locale
		}
		if email := accounts.NormalizeEmail(m.Email); accounts.ValidEmail(email) {
			send(email, locale, m.Name, "repairs.overdue.member")
		}
	}
}
