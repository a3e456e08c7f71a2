package mail_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	netmail "net/mail"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/mail"
)

// smtpServer is a minimal SMTP server for one test: it accepts every
// message (checking AUTH PLAIN when wantAuth is set) and hands the raw
// DATA to received.
type smtpServer struct {
	ln       net.Listener
	wantAuth string // "user\x00pass", or "" for none
	received chan string
	authed   chan bool
}

func startSMTP(t *testing.T, wantAuth string) *smtpServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &smtpServer{ln: ln, wantAuth: wantAuth, received: make(chan string, 4), authed: make(chan bool, 4)}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s
}

func (s *smtpServer) port() string {
	_, p, _ := net.SplitHostPort(s.ln.Addr().String())
	return p
}

func (s *smtpServer) serve(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	say := func(line string) { _, _ = io.WriteString(c, line+"\r\n") }
	say("220 test ESMTP")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd := strings.ToUpper(strings.TrimSpace(line))
		switch {
		case strings.HasPrefix(cmd, "EHLO"):
			if s.wantAuth != "" {
				say("250-test")
				say("250-AUTH PLAIN")
				say("250 8BITMIME")
			} else {
				say("250-test")
				say("250 8BITMIME")
			}
		case strings.HasPrefix(cmd, "AUTH PLAIN"):
			arg := strings.TrimSpace(strings.TrimSpace(line)[len("AUTH PLAIN"):])
			if arg == "" {
				say("334 ")
				l, _ := r.ReadString('\n')
				arg = strings.TrimSpace(l)
			}
			raw, _ := base64.StdEncoding.DecodeString(arg)
			ok := strings.TrimPrefix(string(raw), "\x00") == s.wantAuth
			s.authed <- ok
			if ok {
				say("235 2.7.0 Authentication successful")
			} else {
				say("535 5.7.8 Authentication failed")
			}
		case cmd == "DATA":
			say("354 go ahead")
			var b strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				b.WriteString(strings.TrimPrefix(l, "."))
			}
			s.received <- b.String()
			say("250 queued")
		case cmd == "QUIT":
			say("221 bye")
			return
		default: // MAIL, RCPT, RSET, NOOP
			say("250 ok")
		}
	}
}

// parts returns the decoded bodies of the message by content type.
func parts(t *testing.T, raw string) (*netmail.Message, map[string]string) {
	t.Helper()
	msg, err := netmail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		t.Fatalf("not a mail message: %v\n%s", err, raw)
	}
	out := map[string]string{}
	var walk func(ct string, body io.Reader, enc string)
	walk = func(ct string, body io.Reader, enc string) {
		mt, params, err := mime.ParseMediaType(ct)
		if err != nil {
			t.Fatalf("content type %q: %v", ct, err)
		}
		if strings.HasPrefix(mt, "multipart/") {
			mr := multipart.NewReader(body, params["boundary"])
			for {
				p, err := mr.NextRawPart()
				if errors.Is(err, io.EOF) {
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				walk(p.Header.Get("Content-Type"), p, p.Header.Get("Content-Transfer-Encoding"))
			}
		}
		switch strings.ToLower(enc) {
		case "quoted-printable":
			body = quotedprintable.NewReader(body)
		case "base64":
			body = base64.NewDecoder(base64.StdEncoding, body)
		}
		b, _ := io.ReadAll(body)
		out[mt] = string(b)
	}
	walk(msg.Header.Get("Content-Type"), msg.Body, msg.Header.Get("Content-Transfer-Encoding"))
	return msg, out
}

func TestSMTPDeliversBothParts(t *testing.T) {
	srv := startSMTP(t, "")
	m, err := mail.New(config.Mail{URL: "smtp://127.0.0.1:" + srv.port(), From: "propman <no-reply@propman.test>"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = m.Send(context.Background(), mail.Message{
		To: "anna@example.com", Subject: "Ihr propman-Bestätigungscode: 482913",
		Text: "Hallo Anna,\nIhr Code lautet 482913. Er gilt 10 Minuten.\n",
		HTML: "<p>Hallo Anna,</p><p>Ihr Code lautet <strong>482913</strong>.</p>",
	})
	if err != nil {
		t.Fatal(err)
	}
	var raw string
	select {
	case raw = <-srv.received:
	case <-time.After(5 * time.Second):
		t.Fatal("the server received nothing")
	}
	msg, bodies := parts(t, raw)
	subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if to := msg.Header.Get("To"); !strings.Contains(to, "anna@example.com") || subject != "Ihr propman-Bestätigungscode: 482913" {
		t.Fatalf("To %q, Subject %q", to, subject)
	}
	code := regexp.MustCompile(`\b[0-9]{6}\b`)
	if got := code.FindString(bodies["text/plain"]); got != "482913" {
		t.Fatalf("text part %q: code %q", bodies["text/plain"], got)
	}
	if got := code.FindString(bodies["text/html"]); got != "482913" || !strings.Contains(bodies["text/html"], "<strong>") {
		t.Fatalf("html part %q: code %q", bodies["text/html"], got)
	}
}

// Credentials never cross an unencrypted connection: a server that offers
// AUTH but no STARTTLS gets no password, and the send fails.
func TestSMTPKeepsCredentialsOffPlainConnections(t *testing.T) {
	srv := startSMTP(t, "mailer\x00s3cret")
	m, err := mail.NewSMTP(config.Mail{URL: "smtp://mailer:s3cret@127.0.0.1:" + srv.port(), From: "no-reply@propman.test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Send(context.Background(), mail.Message{To: "anna@example.com", Subject: "s", Text: "123456"}); err == nil {
		t.Fatal("sent with credentials over a plain connection")
	}
	select {
	case <-srv.authed:
		t.Fatal("the server was sent credentials without TLS")
	case <-srv.received:
		t.Fatal("the message was delivered without authentication")
	case <-time.After(100 * time.Millisecond):
	}
}

func TestSMTPFailsWhenServerIsDown(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	m, err := mail.NewSMTP(config.Mail{URL: "smtp://" + addr, From: "no-reply@propman.test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Send(context.Background(), mail.Message{To: "a@example.com", Subject: "s", Text: "t"}); err == nil {
		t.Fatal("no error without a server")
	}
}

func TestNewSMTPRejectsBadURLs(t *testing.T) {
	for _, u := range []string{"smtp://", "smtp://host:99999", "smtp://host:abc", "ftp://host"} {
		if _, err := mail.NewSMTP(config.Mail{URL: u, From: "a@example.com"}); err == nil {
			t.Errorf("NewSMTP(%q) accepted", u)
		}
	}
	if _, err := mail.NewSMTP(config.Mail{URL: "smtp://host:25", From: "not an address"}); err == nil {
		t.Error("a bad from address was accepted")
	}
	if _, err := mail.NewSMTP(config.Mail{URL: "smtps://user:pw@mail.example.com", From: "a@example.com"}); err != nil {
		t.Errorf("smtps URL refused: %v", err)
	}
}

// starttls= and auth= choose the encryption and the AUTH mechanism; an
// unknown value or parameter stops the start.
func TestNewSMTPQueryParameters(t *testing.T) {
	for _, u := range []string{"smtp://h:25?starttls=mandatory", "smtp://h:25?starttls=none", "smtp://u:p@h:587?auth=plain",
		"smtp://u:p@h:587?auth=scram-sha-256&starttls=mandatory", "smtp://u:p@h?auth=none", "smtps://u:p@h?auth=login"} {
		if _, err := mail.NewSMTP(config.Mail{URL: u, From: "a@example.com"}); err != nil {
			t.Errorf("NewSMTP(%q): %v", u, err)
		}
	}
	for _, u := range []string{"smtp://h?starttls=maybe", "smtp://h?auth=magic", "smtp://h?tls=1", "smtps://h?starttls=none"} {
		if _, err := mail.NewSMTP(config.Mail{URL: u, From: "a@example.com"}); err == nil {
			t.Errorf("NewSMTP(%q) accepted", u)
		}
	}
}
