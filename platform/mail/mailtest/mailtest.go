// Package mailtest is a real SMTP server for tests (emersion/go-smtp, in
// the test's process) and readers of what it receives: the MIME parts of a
// mail (emersion/go-message) and the text of an attached PDF (pdftotext).
package mailtest

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gomessage "github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"

	"github.com/propman/propman/platform/testkit/requires"
)

// Server keeps every mail it accepts, or refuses each recipient with a
// temporary error while it is failing.
type Server struct {
	// Addr is host:port to send to (smtp://Addr).
	Addr string

	mu       sync.Mutex
	mails    [][]byte
	attempts int
	failing  bool
}

// Start listens on a loopback port until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{}
	srv := smtp.NewServer(backend{s})
	srv.Domain = "mx.test"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.MaxMessageBytes = 50 << 20
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

// Fail makes the server refuse (451) every recipient, or take them again.
func (s *Server) Fail(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failing = on
}

// Received is every mail accepted so far, in order.
func (s *Server) Received() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.mails...)
}

// Tries is how many recipients were offered, accepted or not.
func (s *Server) Tries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts
}

// ErrTimeout is Wait's error when too few mails arrived.
var ErrTimeout = errors.New("mailtest: too few mails arrived")

// Wait returns the mails once at least n arrived, or ErrTimeout after
// within.
func (s *Server) Wait(n int, within time.Duration) ([][]byte, error) {
	deadline := time.Now().Add(within)
	for {
		if got := s.Received(); len(got) >= n {
			return got, nil
		}
		if time.Now().After(deadline) {
			return s.Received(), ErrTimeout
		}
		time.Sleep(20 * time.Millisecond)
	}
}

type backend struct{ s *Server }

func (b backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{s: b.s}, nil }

type session struct{ s *Server }

func (ss *session) Mail(string, *smtp.MailOptions) error { return nil }

func (ss *session) Rcpt(string, *smtp.RcptOptions) error {
	ss.s.mu.Lock()
	defer ss.s.mu.Unlock()
	ss.s.attempts++
	if ss.s.failing {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "mailbox busy, try later"}
	}
	return nil
}

func (ss *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	ss.s.mu.Lock()
	defer ss.s.mu.Unlock()
	ss.s.mails = append(ss.s.mails, b)
	return nil
}

func (ss *session) Reset()        {}
func (ss *session) Logout() error { return nil }

// Mail is a delivered mail as a reader sees it.
type Mail struct {
	Header *gomail.Header
	// Text is the text of its inline parts, with the line breaks a reader
	// sees ("\n"; mail carries "\r\n").
	Text string
	// Files and Types are its attachments' bytes and content types, by
	// filename.
	Files map[string][]byte
	Types map[string]string
}

// Subject is the decoded Subject header.
func (m Mail) Subject() string { s, _ := m.Header.Subject(); return s }

// Read parses raw as a mail client would, failing the test when it does
// not parse.
func Read(t testing.TB, raw []byte) Mail {
	t.Helper()
	mr, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("the delivered mail does not parse: %v\n%s", err, raw)
	}
	m := Mail{Header: &mr.Header, Files: map[string][]byte{}, Types: map[string]string{}}
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !gomessage.IsUnknownCharset(err) {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p.Body)
		switch h := p.Header.(type) {
		case *gomail.InlineHeader:
			m.Text += strings.ReplaceAll(string(b), "\r\n", "\n")
		case *gomail.AttachmentHeader:
			name, _ := h.Filename()
			ct, _, _ := h.ContentType()
			m.Files[name], m.Types[name] = b, ct
		}
	}
	return m
}

// PDFText is the text of a PDF (pdftotext -layout), or "" outside CI when
// poppler is not installed (in CI its absence fails the test).
func PDFText(t testing.TB, data []byte) string {
	t.Helper()
	pdftotext := requires.Optional(t, "pdftotext", "apt-get install poppler-utils")
	if pdftotext == "" {
		return ""
	}
	path := filepath.Join(t.TempDir(), "a.pdf")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(pdftotext, "-enc", "UTF-8", "-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}
