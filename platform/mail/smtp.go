package mail

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/propman/propman/platform/config"
)

// smtpTimeout bounds one delivery: a hanging server must not hold a
// registration request for long.
const smtpTimeout = 15 * time.Second

// SMTP sends messages through an SMTP server.
type SMTP struct {
	host string
	from string
	opts []gomail.Option
}

// NewSMTP returns a mailer for cfg.URL: smtp://user:pass@host:port uses
// STARTTLS when the server offers it (port 587 by default); smtps:// uses
// implicit TLS (port 465 by default). Credentials, when given, are sent only
// over an encrypted connection (go-mail's discovery refuses cleartext PLAIN
// and LOGIN), so a server without TLS cannot learn them.
func NewSMTP(cfg config.Mail) (*SMTP, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return nil, errors.New("mail.url: not a valid URL")
	}
	if u.Hostname() == "" {
		return nil, errors.New("mail.url: no host")
	}
	if err := gomail.NewMsg().From(cfg.From); err != nil {
		return nil, fmt.Errorf("mail.from: %q is not an address", cfg.From)
	}
	opts := []gomail.Option{gomail.WithTimeout(smtpTimeout)}
	port := 587
	switch u.Scheme {
	case "smtp":
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	case "smtps":
		port = 465
		opts = append(opts, gomail.WithSSL())
	default:
		return nil, fmt.Errorf("mail.url: scheme %q is neither smtp nor smtps", u.Scheme)
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("mail.url: port %q is not valid", p)
		}
		port = n
	}
	opts = append(opts, gomail.WithPort(port))
	if u.User != nil && u.User.Username() != "" {
		pass, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(u.User.Username()), gomail.WithPassword(pass))
	}
	// Check the options once now, so a bad URL stops the start.
	if _, err := gomail.NewClient(u.Hostname(), opts...); err != nil {
		return nil, fmt.Errorf("mail.url: %w", err)
	}
	return &SMTP{host: u.Hostname(), from: cfg.From, opts: opts}, nil
}

// Send delivers m with a plain-text body and an HTML alternative.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	msg := gomail.NewMsg()
	if err := msg.From(s.from); err != nil {
		return fmt.Errorf("mail: from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("mail: to: %w", err)
	}
	msg.Subject(m.Subject)
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	client, err := gomail.NewClient(s.host, s.opts...)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, smtpTimeout)
	defer cancel()
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("mail: send: %w", err)
	}
	return nil
}
