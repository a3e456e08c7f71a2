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
//
// Two optional query parameters change that: starttls=mandatory (refuse a
// server without STARTTLS), starttls=opportunistic (the default) or
// starttls=none (never encrypt: a relay on localhost); auth=auto (the
// default: the strongest mechanism the server offers), plain, login,
// cram-md5, scram-sha-256 or none (no AUTH even with a user in the URL).
// PLAIN and LOGIN still refuse an unencrypted connection.
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
	query := u.Query()
	for k := range query {
		if k != "starttls" && k != "auth" {
			return nil, fmt.Errorf("mail.url: unknown parameter %q (starttls, auth)", k)
		}
	}
	switch u.Scheme {
	case "smtp":
		policy, ok := tlsPolicies[query.Get("starttls")]
		if !ok {
			return nil, fmt.Errorf("mail.url: starttls=%q is none of mandatory, opportunistic, none", query.Get("starttls"))
		}
		opts = append(opts, gomail.WithTLSPolicy(policy))
	case "smtps":
		port = 465
		opts = append(opts, gomail.WithSSL())
	default:
		return nil, fmt.Errorf("mail.url: scheme %q is neither smtp nor smtps", u.Scheme)
	}
	if query.Get("starttls") != "" && u.Scheme != "smtp" {
		return nil, errors.New("mail.url: starttls= is for smtp:// (smtps:// is TLS from the start)")
	}
	authType, ok := authTypes[query.Get("auth")]
	if !ok {
		return nil, fmt.Errorf("mail.url: auth=%q is none of auto, plain, login, cram-md5, scram-sha-256, none", query.Get("auth"))
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("mail.url: port %q is not valid", p)
		}
		port = n
	}
	opts = append(opts, gomail.WithPort(port))
	if u.User != nil && u.User.Username() != "" && authType != gomail.SMTPAuthNoAuth {
		pass, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(authType),
			gomail.WithUsername(u.User.Username()), gomail.WithPassword(pass))
	}
	// Check the options once now, so a bad URL stops the start.
	if _, err := gomail.NewClient(u.Hostname(), opts...); err != nil {
		return nil, fmt.Errorf("mail.url: %w", err)
	}
	return &SMTP{host: u.Hostname(), from: cfg.From, opts: opts}, nil
}

var tlsPolicies = map[string]gomail.TLSPolicy{
	"": gomail.TLSOpportunistic, "opportunistic": gomail.TLSOpportunistic,
	"mandatory": gomail.TLSMandatory, "none": gomail.NoTLS,
}

var authTypes = map[string]gomail.SMTPAuthType{
	"": gomail.SMTPAuthAutoDiscover, "auto": gomail.SMTPAuthAutoDiscover,
	"plain": gomail.SMTPAuthPlain, "login": gomail.SMTPAuthLogin, "cram-md5": gomail.SMTPAuthCramMD5,
	"scram-sha-256": gomail.SMTPAuthSCRAMSHA256, "none": gomail.SMTPAuthNoAuth,
}

// ErrPermanent marks an error of Send that trying again will not cure:
// the message itself is refused (a bad address, a 5xx answer). Any other
// error (the server is down, busy, a 4xx answer) may pass.
var ErrPermanent = errors.New("permanent mail failure")

// Send delivers m with a plain-text body and an HTML alternative, and its
// attachments.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	msg := gomail.NewMsg()
	if err := msg.From(s.from); err != nil {
		return fmt.Errorf("mail: from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("mail: to: %w: %w", ErrPermanent, err)
	}
	if m.ReplyTo != "" {
		if err := msg.ReplyTo(m.ReplyTo); err != nil {
			return fmt.Errorf("mail: reply-to: %w: %w", ErrPermanent, err)
		}
	}
	if m.MessageID != "" {
		msg.SetMessageIDWithValue(m.MessageID)
	}
	if m.InReplyTo != "" {
		msg.SetGenHeader(gomail.HeaderInReplyTo, "<"+m.InReplyTo+">")
		msg.SetGenHeader(gomail.HeaderReferences, "<"+m.InReplyTo+">")
	}
	msg.Subject(m.Subject)
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	for _, a := range m.Attachments {
		var fo []gomail.FileOption
		if a.ContentType != "" {
			fo = append(fo, gomail.WithFileContentType(gomail.ContentType(a.ContentType)))
		}
		if err := msg.AttachReader(a.Filename, a.Content, fo...); err != nil {
			return fmt.Errorf("mail: attachment %s: %w", a.Filename, err)
		}
	}
	client, err := gomail.NewClient(s.host, s.opts...)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, smtpTimeout)
	defer cancel()
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		var se *gomail.SendError
		if errors.As(err, &se) && !se.IsTemp() && se.Reason != gomail.ErrConnCheck && se.Reason != gomail.ErrSMTPReset {
			return fmt.Errorf("mail: send: %w: %w", ErrPermanent, err)
		}
		return fmt.Errorf("mail: send: %w", err)
	}
	return nil
}
