package proposals

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

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

// wording is the text of the applicant's mails by language; English where
// a language lacks one.
type wording struct {
	codeSubject, code               string
	declinedSubject, declined       string
	shortlistedSubject, shortlisted string
}

var words = map[string]wording{
	"en": {
		codeSubject: "Your code for %s", code: "Hello %s,\n\nyour code to confirm the application for \"%s\" is %s. It is valid for %d minutes.\n",
		declinedSubject: "Your application for %s", declined: "Hello %s,\n\nthank you for your interest in \"%s\". The landlord has chosen another applicant.\n",
		shortlistedSubject: "You are shortlisted for %s", shortlisted: "Hello %s,\n\nthe landlord has shortlisted your application for \"%s\". The address: %s.\n",
	},
	"de": {
		codeSubject: "Ihr Code für %s", code: "Hallo %s,\n\nIhr Code zur Bestätigung der Bewerbung für „%s“ lautet %s. Er ist %d Minuten gültig.\n",
		declinedSubject: "Ihre Bewerbung für %s", declined: "Hallo %s,\n\ndanke für Ihr Interesse an „%s“. Der Vermieter hat sich für jemand anderen entschieden.\n",
		shortlistedSubject: "Sie sind in der engeren Wahl für %s", shortlisted: "Hallo %s,\n\nder Vermieter hat Ihre Bewerbung für „%s“ in die engere Wahl genommen. Die Adresse: %s.\n",
	},
	"fr": {
		codeSubject: "Votre code pour %s", code: "Bonjour %s,\n\nvotre code pour confirmer la candidature pour « %s » est %s. Il est valable %d minutes.\n",
		declinedSubject: "Votre candidature pour %s", declined: "Bonjour %s,\n\nmerci de votre intérêt pour « %s ». Le bailleur a choisi un autre candidat.\n",
		shortlistedSubject: "Vous êtes présélectionné pour %s", shortlisted: "Bonjour %s,\n\nle bailleur a présélectionné votre candidature pour « %s ». L'adresse : %s.\n",
	},
	"es": {
		codeSubject: "Su código para %s", code: "Hola %s,\n\nsu código para confirmar la solicitud de «%s» es %s. Es válido durante %d minutos.\n",
		declinedSubject: "Su solicitud para %s", declined: "Hola %s,\n\ngracias por su interés en «%s». El arrendador ha elegido a otro solicitante.\n",
		shortlistedSubject: "Está preseleccionado para %s", shortlisted: "Hola %s,\n\nel arrendador ha preseleccionado su solicitud para «%s». La dirección: %s.\n",
	},
	"uk": {
		codeSubject: "Ваш код для %s", code: "Вітаємо, %s!\n\nВаш код для підтвердження заявки на «%s»: %s. Він дійсний %d хвилин.\n",
		declinedSubject: "Ваша заявка на %s", declined: "Вітаємо, %s!\n\nДякуємо за інтерес до «%s». Орендодавець обрав іншого кандидата.\n",
		shortlistedSubject: "Вас включено до короткого списку: %s", shortlisted: "Вітаємо, %s!\n\nОрендодавець включив вашу заявку на «%s» до короткого списку. Адреса: %s.\n",
	},
}

func wordsFor(locale string) wording {
	if w, ok := words[locale]; ok {
		return w
	}
	return words["en"]
}

func codeMail(locale, name, title, code string, minutes int) (string, string) {
	w := wordsFor(locale)
	return fmt.Sprintf(w.codeSubject, title), fmt.Sprintf(w.code, name, title, code, minutes)
}

func declinedMail(locale, name, title string) (string, string) {
	w := wordsFor(locale)
	return fmt.Sprintf(w.declinedSubject, title), fmt.Sprintf(w.declined, name, title)
}

func shortlistedMail(locale, name, title, address string) (string, string) {
	w := wordsFor(locale)
	return fmt.Sprintf(w.shortlistedSubject, title), fmt.Sprintf(w.shortlisted, name, title, address)
}
