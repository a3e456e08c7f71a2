package negotiations

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/mail"
)

// The mails to the applicant.
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
	w8 := wordsFor(a.Locale)
	var subject, text string
	switch job.Args.Mail {
	case mailOpened:
		subject, text = fmt.Sprintf(w8.openedSubject, pr.Title), fmt.Sprintf(w8.opened, a.Name, pr.Title, link)
	case mailOffer:
		subject, text = fmt.Sprintf(w8.offerSubject, pr.Title), fmt.Sprintf(w8.offer, a.Name, pr.Title, link)
	case mailAgreed:
		subject, text = fmt.Sprintf(w8.agreedSubject, pr.Title), fmt.Sprintf(w8.agreed, a.Name, pr.Title)
	case mailDeclined:
		subject, text = fmt.Sprintf(w8.declinedSubject, pr.Title), fmt.Sprintf(w8.declined, a.Name, pr.Title)
	default:
		return river.JobCancel(fmt.Errorf("negotiations: unknown mail %q", job.Args.Mail))
	}
	err = s.mailer.Send(ctx, mail.Message{To: a.Email, Subject: subject, Text: text})
	if errors.Is(err, mail.ErrPermanent) {
		return river.JobCancel(err)
	}
	return err
}

type wording struct {
	openedSubject, opened     string
	offerSubject, offer       string
	agreedSubject, agreed     string
	declinedSubject, declined string
}

var words = map[string]wording{
	"en": {
		openedSubject: "An offer for %s", opened: "Hello %s,\n\nthe landlord of \"%s\" makes you an offer. Read it, answer or accept it here:\n%s\n",
		offerSubject: "A new offer for %s", offer: "Hello %s,\n\nthe landlord of \"%s\" answered with a new offer:\n%s\n",
		agreedSubject: "Agreed: %s", agreed: "Hello %s,\n\nyou and the landlord of \"%s\" agreed. The contract follows.\n",
		declinedSubject: "Your negotiation for %s", declined: "Hello %s,\n\nthe landlord of \"%s\" ended the negotiation.\n",
	},
	"de": {
		openedSubject: "Ein Angebot für %s", opened: "Hallo %s,\n\nder Vermieter von „%s“ macht Ihnen ein Angebot. Lesen, beantworten oder annehmen können Sie es hier:\n%s\n",
		offerSubject: "Ein neues Angebot für %s", offer: "Hallo %s,\n\nder Vermieter von „%s“ hat mit einem neuen Angebot geantwortet:\n%s\n",
		agreedSubject: "Einigung: %s", agreed: "Hallo %s,\n\nSie und der Vermieter von „%s“ haben sich geeinigt. Der Vertrag folgt.\n",
		declinedSubject: "Ihre Verhandlung für %s", declined: "Hallo %s,\n\nder Vermieter von „%s“ hat die Verhandlung beendet.\n",
	},
	"fr": {
		openedSubject: "Une offre pour %s", opened: "Bonjour %s,\n\nle bailleur de « %s » vous fait une offre. Lisez-la, répondez ou acceptez ici :\n%s\n",
		offerSubject: "Une nouvelle offre pour %s", offer: "Bonjour %s,\n\nle bailleur de « %s » a répondu par une nouvelle offre :\n%s\n",
		agreedSubject: "Accord : %s", agreed: "Bonjour %s,\n\nvous et le bailleur de « %s » êtes d'accord. Le contrat suit.\n",
		declinedSubject: "Votre négociation pour %s", declined: "Bonjour %s,\n\nle bailleur de « %s » a mis fin à la négociation.\n",
	},
	"es": {
		openedSubject: "Una oferta para %s", opened: "Hola %s,\n\nel arrendador de «%s» le hace una oferta. Léala, respóndala o acéptela aquí:\n%s\n",
		offerSubject: "Una nueva oferta para %s", offer: "Hola %s,\n\nel arrendador de «%s» ha respondido con una nueva oferta:\n%s\n",
		agreedSubject: "Acuerdo: %s", agreed: "Hola %s,\n\nusted y el arrendador de «%s» han llegado a un acuerdo. El contrato sigue.\n",
		declinedSubject: "Su negociación para %s", declined: "Hola %s,\n\nel arrendador de «%s» ha terminado la negociación.\n",
	},
	"uk": {
		openedSubject: "Пропозиція щодо %s", opened: "Вітаємо, %s!\n\nОрендодавець «%s» робить вам пропозицію. Прочитати, відповісти або прийняти її можна тут:\n%s\n",
		offerSubject: "Нова пропозиція щодо %s", offer: "Вітаємо, %s!\n\nОрендодавець «%s» відповів новою пропозицією:\n%s\n",
		agreedSubject: "Домовлено: %s", agreed: "Вітаємо, %s!\n\nВи та орендодавець «%s» домовилися. Договір буде надіслано.\n",
		declinedSubject: "Ваші переговори щодо %s", declined: "Вітаємо, %s!\n\nОрендодавець «%s» завершив переговори.\n",
	},
}

func wordsFor(locale string) wording {
	if w, ok := words[locale]; ok {
		return w
	}
	return words["en"]
}
