// Package mail sends email: through SMTP in production, into the log for a
// newcomer's first run, or into a Catcher inside tests.
package mail

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"

	"github.com/propman/propman/platform/config"
)

// Message is one email with a plain-text and an HTML part. The fields
// after HTML are optional; a message without them is sent as before.
type Message struct {
	To      string
	Subject string
	Text    string
	HTML    string

	// ReplyTo is the address replies go to (a thread's reply address).
	ReplyTo string
	// MessageID is the Message-ID without angle brackets; empty: one is
	// generated.
	MessageID string
	// InReplyTo is the Message-ID (without brackets) this message answers;
	// it is also sent as References.
	InReplyTo string
	// Attachments are files attached to the message.
	Attachments []Attachment
}

// Attachment is one attached file; Content is read once, while the
// message is sent.
type Attachment struct {
	Filename    string
	ContentType string
	Content     io.Reader
}

// Mailer sends messages.
type Mailer interface {
	Send(ctx context.Context, m Message) error
}

// New returns the mailer that cfg.URL names.
func New(cfg config.Mail, log *slog.Logger) (Mailer, error) {
	switch {
	case strings.HasPrefix(cfg.URL, "log:"):
		return &LogMailer{log: log, from: cfg.From}, nil
	case strings.HasPrefix(cfg.URL, "smtp://"), strings.HasPrefix(cfg.URL, "smtps://"):
		return NewSMTP(cfg)
	default:
		return nil, fmt.Errorf("mail.url: %q is neither log: nor smtp://", cfg.URL)
	}
}

// LogMailer writes each message to the log, so a developer running propman
// without an SMTP server still sees verification codes.
type LogMailer struct {
	log  *slog.Logger
	from string
}

// Send logs m.
func (l *LogMailer) Send(ctx context.Context, m Message) error {
	l.log.InfoContext(ctx, "mail (log: mailer, not sent)", "from", l.from, "to", m.To, "subject", m.Subject, "text", m.Text,
		"reply_to", m.ReplyTo, "attachments", len(m.Attachments))
	return nil
}

// Catcher keeps messages in memory for tests; Fail makes Send fail.
type Catcher struct {
	mu   sync.Mutex
	msgs []Message
	fail error
}

// Send keeps m, or returns the error set with Fail.
func (c *Catcher) Send(_ context.Context, m Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fail != nil {
		return c.fail
	}
	c.msgs = append(c.msgs, m)
	return nil
}

// Fail makes every later Send return err (nil restores sending).
func (c *Catcher) Fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fail = err
}

// Messages returns the messages sent so far.
func (c *Catcher) Messages() []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Message(nil), c.msgs...)
}

// Last returns the last message sent to addr.
func (c *Catcher) Last(addr string) (Message, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.msgs) - 1; i >= 0; i-- {
		if strings.EqualFold(c.msgs[i].To, addr) {
			return c.msgs[i], true
		}
	}
	return Message{}, false
}
