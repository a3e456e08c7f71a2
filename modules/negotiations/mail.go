package negotiations

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/mail"
)

// The mails to the applicant; their words are the catalogue's
// negotiations.mail.<mail>.subject and .text.
const (
	mailOpened   = "opened"
	mailOffer    = "offer"
	mailAgreed   = "agreed"
	mailDeclined = "declined"
)

// mailArgs is the job that mails the applicant about their negotiation,
// queued in the transaction of the change. It carries no token: the
// worker writes the link again (Service.Token).
type mailArgs struct {
	NegotiationID string `json:"negotiation_id"`
	Mail          string `json:"mail"`
}

// Kind is River's name of the job.
func (mailArgs) Kind() string { return "negotiations_mail" }

type mailWorker struct {
	river.WorkerDefaults[mailArgs]
	svc *Service
}

// expireArgs is the periodic job that expires negotiations past their time.
type expireArgs struct{}

// Kind is River's name of the job.
func (expireArgs) Kind() string { return "negotiations_expire" }

type expireWorker struct {
	river.WorkerDefaults[expireArgs]
	svc *Service
}

func (w *expireWorker) Work(ctx context.Context, _ *river.Job[expireArgs]) error {
	n, err := w.svc.Expire(ctx)
	if n > 0 {
		w.svc.log.Info("negotiations expired", "count", n)
	}
	return err
}

func registerWorkers(q *jobs.Queue, svc *Service) {
	jobs.Register(q, &mailWorker{svc: svc})
	jobs.Register(q, &expireWorker{svc: svc})
	q.Every(svc.cfg.Sweep, "negotiations_expire", func() river.JobArgs { return expireArgs{} })
}

func (w *mailWorker) Work(ctx context.Context, job *river.Job[mailArgs]) error {
	s := w.svc
	id, err := uuid.Parse(job.Args.NegotiationID)
	if err != nil {
		return river.JobCancel(fmt.Errorf("negotiations: bad job args: %w", err))
	}
	n, err := load(ctx, s.db, id, false)
	if err != nil {
		return nil // gone with its property
	}
	a, pr, err := applicationOf(ctx, s.db, n)
	if err != nil {
		return err
	}
	link := s.cfg.LinkBase + "/negotiations/" + s.Token(n.ID)
	var subject, text string
	switch job.Args.Mail {
	case mailOpened, mailOffer, mailAgreed, mailDeclined:
		key := "negotiations.mail." + job.Args.Mail
		subject = translations.Say(a.Locale, key+".subject", "title", pr.Title)
		text = translations.Say(a.Locale, key+".text", "name", a.Name, "title", pr.Title, "link", link)
	default:
		return river.JobCancel(fmt.Errorf("negotiations: unknown mail %q", job.Args.Mail))
	}
	err = s.mailer.Send(ctx, mail.Message{To: a.Email, Subject: subject, Text: text})
	if errors.Is(err, mail.ErrPermanent) {
		return river.JobCancel(err)
	}
	return err
}
