package proposals

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/mail"
)

// mailArgs is the job that tells an applicant of the landlord's decision,
// queued in the decision's transaction: the mail leaves once the decision
// is stored, and is retried when the mail server fails.
type mailArgs struct {
	ApplicationID string `json:"application_id"`
	Mail          string `json:"mail"`
}

// Kind is River's name of the job.
func (mailArgs) Kind() string { return "proposals_mail" }

type mailWorker struct {
	river.WorkerDefaults[mailArgs]
	svc *Service
}

func registerWorker(q *jobs.Queue, svc *Service) {
	jobs.Register(q, &mailWorker{svc: svc})
	jobs.Register(q, &sweepWorker{svc: svc})
	q.Every(svc.cfg.Sweep, "proposals_sweep", func() river.JobArgs { return sweepArgs{} })
}

// sweepArgs is the periodic job that deletes unconfirmed applications
// whose code expired: they can never be confirmed, and nobody sees them.
type sweepArgs struct{}

// Kind is River's name of the job.
func (sweepArgs) Kind() string { return "proposals_sweep" }

type sweepWorker struct {
	river.WorkerDefaults[sweepArgs]
	svc *Service
}

func (w *sweepWorker) Work(ctx context.Context, _ *river.Job[sweepArgs]) error {
	_, err := w.svc.Sweep(ctx)
	return err
}

// Sweep deletes the pending applications whose code expired, in one
// statement, and says how many.
func (s *Service) Sweep(ctx context.Context) (int64, error) {
	return s.store.sweep(ctx, s.clock.Now().UnixMilli())
}

// Work renders the mail from the stored application, in its language.
func (w *mailWorker) Work(ctx context.Context, job *river.Job[mailArgs]) error {
	s := w.svc
	id, err := uuid.Parse(job.Args.ApplicationID)
	if err != nil {
		return river.JobCancel(fmt.Errorf("proposals: bad job args: %w", err))
	}
	a, pr, err := s.store.applicationWithProposal(ctx, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // deleted with its property
	}
	if err != nil {
		return err
	}
	var subject, text string
	switch job.Args.Mail {
	case Declined:
		subject, text = declinedMail(a.Locale, a.Name, pr.Title)
	case Shortlisted:
		prop, err := s.props.Authorize(ctx, auth.InWorkspace(pr.WorkspaceID, pr.OwnerID), pr.PropertyID.String())
		if err != nil {
			return err
		}
		address := strings.TrimSpace(strings.Join([]string{prop.Address, strings.TrimSpace(prop.PostalCode + " " + prop.City)}, ", "))
		subject, text = shortlistedMail(a.Locale, a.Name, pr.Title, address)
	default:
		return river.JobCancel(fmt.Errorf("proposals: unknown mail %q", job.Args.Mail))
	}
	err = s.mailer.Send(ctx, mail.Message{To: a.Email, Subject: subject, Text: text})
	if errors.Is(err, mail.ErrPermanent) {
		return river.JobCancel(err)
	}
	return err
}

// The applicant's mails in their language (English where the catalogue
// has none): the catalogue's proposals.mail.<mail>.subject and .text.

func codeMail(locale, name, title, code string, minutes int) (string, string) {
	return translations.Say(locale, "proposals.mail.code.subject", "title", title),
		translations.Say(locale, "proposals.mail.code.text", "name", name, "title", title, "code", code, "minutes", strconv.Itoa(minutes))
}

func declinedMail(locale, name, title string) (string, string) {
	return translations.Say(locale, "proposals.mail.declined.subject", "title", title),
		translations.Say(locale, "proposals.mail.declined.text", "name", name, "title", title)
}

func shortlistedMail(locale, name, title, address string) (string, string) {
	return translations.Say(locale, "proposals.mail.shortlisted.subject", "title", title),
		translations.Say(locale, "proposals.mail.shortlisted.text", "name", name, "title", title, "address", address)
}
