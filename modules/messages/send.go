package messages

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/mail"
)

// sender is the transport of outbound messages: mail.url and mail.from,
// as the platform's own mail (log: writes them to the log). It is the
// module's own, not the app's mail.Mailer, so that a message is sent over
// SMTP also where the app's mail is caught (tests).
type sender struct{ mail.Mailer }

func newSender(cfg *config.Config, log *slog.Logger) (sender, error) {
	m, err := mail.New(cfg.Mail, log)
	if err != nil {
		return sender{}, fmt.Errorf("messages: %w", err)
	}
	return sender{m}, nil
}

// sendArgs is the job that sends one email message.
type sendArgs struct {
	MessageID string `json:"message_id"`
}

// Kind is River's name of the job.
func (sendArgs) Kind() string { return "messages_send" }

type sendWorker struct {
	river.WorkerDefaults[sendArgs]
	svc    *Service
	sender sender
}

func registerWorker(q *jobs.Queue, svc *Service, s sender) {
	jobs.Register(q, &sendWorker{svc: svc, sender: s})
}

// maxRetryPause bounds the pause between two attempts.
const maxRetryPause = 6 * time.Hour

// NextRetry is modules.messages.retry after the first failure, doubling.
func (w *sendWorker) NextRetry(job *river.Job[sendArgs]) time.Time {
	d := w.svc.cfg.Retry
	for i := 1; i < job.Attempt && d < maxRetryPause; i++ {
		d *= 2
	}
	return time.Now().Add(min(d, maxRetryPause))
}

// Work sends the message once; a failure is recorded as its last error and
// tried again, until the last attempt or an error that no retry cures,
// which fails it.
func (w *sendWorker) Work(ctx context.Context, job *river.Job[sendArgs]) error {
	id, err := uuid.Parse(job.Args.MessageID)
	if err != nil {
		return river.JobCancel(fmt.Errorf("messages: bad job args: %w", err))
	}
	m, t, err := w.svc.loadForSend(ctx, id)
	if err != nil {
		return err
	}
	if m == nil || m.Delivery == nil || *m.Delivery != Queued {
		return nil // deleted with its property, or done by an earlier attempt
	}
	err = w.svc.send(ctx, w.sender, m, t)
	if err == nil {
		return w.svc.finish(ctx, m, t.WorkspaceID, job.Attempt, Sent, nil)
	}
	final := errors.Is(err, mail.ErrPermanent) || job.Attempt >= job.MaxAttempts
	if !final {
		if ferr := w.svc.finish(ctx, m, t.WorkspaceID, job.Attempt, Queued, err); ferr != nil {
			return ferr
		}
		return err
	}
	if ferr := w.svc.finish(ctx, m, t.WorkspaceID, job.Attempt, Failed, err); ferr != nil {
		return ferr
	}
	return river.JobCancel(err)
}

func (s *Service) loadForSend(ctx context.Context, id uuid.UUID) (*Message, *Thread, error) {
	m, err := messageByID(ctx, s.db, id)
	if err != nil || m == nil {
		return nil, nil, err
	}
	t, err := threadByID(ctx, s.db, m.ThreadID)
	if err != nil {
		return nil, nil, err
	}
	return m, t, nil
}

// errGone is the permanent failure of a message whose attachment was
// deleted before it was sent.
var errGone = fmt.Errorf("%w: an attached document was deleted before the message was sent", mail.ErrPermanent)

// send builds and sends the mail of m.
func (s *Service) send(ctx context.Context, to sender, m *Message, t *Thread) error {
	files, err := s.files.OfProperty(ctx, s.db, m.PropertyID, m.Attachments)
	if err != nil {
		return err
	}
	if len(files) != len(m.Attachments) {
		return errGone
	}
	msg := mail.Message{To: m.Address, Subject: m.Subject, Text: m.Body, ReplyTo: s.ReplyAddress(t), MessageID: m.MessageID}
	for _, f := range files {
		r, err := s.files.Open(ctx, f)
		if err != nil {
			if fault.Is(err, fault.KindNotFound) {
				return errGone
			}
			return err
		}
		defer r.Close()
		msg.Attachments = append(msg.Attachments, mail.Attachment{Filename: f.Filename, ContentType: f.ContentType, Content: io.Reader(r)})
	}
	return to.Send(ctx, msg)
}

// finish records an attempt: its state, and its error (nil clears it).
func (s *Service) finish(ctx context.Context, m *Message, ws int64, attempt int, state string, sendErr error) error {
	now := s.now()
	var lastErr *string
	if sendErr != nil {
		e := sendErr.Error()
		if len(e) > maxLastError {
			e = e[:maxLastError]
		}
		lastErr = &e
	}
	return database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := recordDelivery(ctx, tx, m.ID, state, lastErr, attempt, now); err != nil {
			return err
		}
		if state == Queued {
			return nil // an attempt that will be repeated is no change to log
		}
		return activity.Record(ctx, tx, activity.Entry{Action: state, RecordType: "message", RecordID: m.ID.String(),
			WorkspaceID: ws, Changes: map[string]activity.Change{"delivery": {Queued, state}}})
	})
}
