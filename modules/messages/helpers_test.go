package messages_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/go-pdf/fpdf"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// smtpServer is a real SMTP server (emersion/go-smtp) in the test's
// process: it keeps every mail it accepts, or refuses each recipient with
// a temporary error while failing is set.
type smtpServer struct {
	addr string

	mu       sync.Mutex
	mails    [][]byte
	attempts int
	failing  bool
}

func startSMTP(t *testing.T) *smtpServer {
	t.Helper()
	s := &smtpServer{}
	srv := smtp.NewServer(s)
	srv.Domain = "mx.test"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.MaxMessageBytes = 50 << 20
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

// NewSession is smtp.Backend.
func (s *smtpServer) NewSession(*smtp.Conn) (smtp.Session, error) { return &smtpSession{s: s}, nil }

type smtpSession struct{ s *smtpServer }

func (ss *smtpSession) Mail(string, *smtp.MailOptions) error { return nil }

func (ss *smtpSession) Rcpt(string, *smtp.RcptOptions) error {
	ss.s.mu.Lock()
	defer ss.s.mu.Unlock()
	ss.s.attempts++
	if ss.s.failing {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "mailbox busy, try later"}
	}
	return nil
}

func (ss *smtpSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	ss.s.mu.Lock()
	defer ss.s.mu.Unlock()
	ss.s.mails = append(ss.s.mails, b)
	return nil
}

func (ss *smtpSession) Reset()        {}
func (ss *smtpSession) Logout() error { return nil }

func (s *smtpServer) received() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.mails...)
}

func (s *smtpServer) tries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts
}

const inboundSecret = "test-inbound-secret-0123456789"

// start runs the app with its messages sent to srv.
func start(t *testing.T, srv *smtpServer, extra ...testkit.Option) *testkit.App {
	t.Helper()
	opts := []testkit.Option{
		testkit.WithConfig("mail.url", "smtp://"+srv.addr),
		testkit.WithConfig("mail.from", "Propman <no-reply@propman.test>"),
		testkit.WithConfig("modules.messages.inboundsecret", inboundSecret),
		testkit.WithConfig("modules.messages.inbounddomain", "in.propman.test"),
		testkit.WithConfig("modules.messages.retry", "50ms"),
		testkit.WithConfig("modules.messages.attempts", 3),
		testkit.WithConfig("modules.documents.storage", "file:"+filepath.Join(t.TempDir(), "documents")),
	}
	return testkit.Start(t, append(opts, extra...)...)
}

type lease struct {
	landlord accountstest.User
	property string
	tenant   string // the contragent
	contract string
	email    string
}

func created(t *testing.T, res *testkit.Response) string {
	t.Helper()
	res.Expect(http.StatusCreated)
	return res.Map()["id"].(string)
}

func newLease(t *testing.T, app *testkit.App, tenantEmail string) lease {
	t.Helper()
	l := lease{landlord: accountstest.NewUser(t, app), email: tenantEmail}
	tok := l.landlord.Token
	l.property = created(t, app.Post("/api/v1/properties", tok, map[string]any{"name": "Flat 3", "country_code": "DE"}))
	l.tenant = created(t, app.Post("/api/v1/contragents", tok, map[string]any{"kind": "person", "roles": []string{"tenant"},
		"name": "Anna Tenant", "email": tenantEmail}))
	l.contract = created(t, app.Post("/api/v1/contracts", tok, map[string]any{"property_id": l.property, "tenant_id": l.tenant,
		"number": "L-1", "terms": []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 950},
			{"code": "CONTRACT_START_DATE", "value": "2026-11-01"}, {"code": "PAYMENT_DAY_OF_MONTH", "value": 3}}}))
	app.Post("/api/v1/contracts/"+l.contract+"/activate", tok, nil).Expect(http.StatusOK)
	return l
}

func (l lease) messages() string { return "/api/v1/properties/" + l.property + "/messages" }

// pdf is a one-page PDF showing text.
func pdf(t *testing.T, text string) []byte {
	t.Helper()
	p := fpdf.New("P", "mm", "A4", "")
	p.AddPage()
	p.SetFont("Helvetica", "", 14)
	p.Cell(40, 10, text)
	var b bytes.Buffer
	if err := p.Output(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// upload stores a document of the lease's property and returns its id.
func upload(t *testing.T, app *testkit.App, l lease, name string, content []byte) string {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	_ = w.WriteField("title", name)
	_ = w.WriteField("category", "other")
	fw, _ := w.CreateFormFile("file", name)
	_, _ = fw.Write(content)
	_ = w.Close()
	return created(t, app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/properties/" + l.property + "/documents",
		Token: l.landlord.Token, Body: body.Bytes(), Headers: map[string]string{"Content-Type": w.FormDataContentType()}}))
}

type message struct {
	ID          string   `json:"id"`
	ThreadID    string   `json:"thread_id"`
	ContractID  *string  `json:"contract_id"`
	Direction   string   `json:"direction"`
	Channel     *string  `json:"channel"`
	Subject     string   `json:"subject"`
	Body        string   `json:"body"`
	Attachments []string `json:"attachments"`
	Address     *string  `json:"address"`
	Delivery    *string  `json:"delivery"`
	LastError   *string  `json:"last_error"`
	Attempts    int      `json:"attempts"`
	Tracking    *string  `json:"tracking_number"`
	Author      struct {
		Type         string  `json:"type"`
		UserID       *int64  `json:"user_id"`
		ContragentID *string `json:"contragent_id"`
	} `json:"author"`
}

func decode(t *testing.T, res *testkit.Response) message {
	t.Helper()
	var m message
	res.JSON(&m)
	return m
}

func list(t *testing.T, app *testkit.App, path, token string) []message {
	t.Helper()
	var out struct {
		Messages []message `json:"messages"`
	}
	app.Get(path, token).Expect(http.StatusOK).JSON(&out)
	return out.Messages
}

// waitDelivery polls the message until its delivery is not queued.
func waitDelivery(t *testing.T, app *testkit.App, l lease, id string) message {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		m := decode(t, app.Get(l.messages()+"/"+id, l.landlord.Token).Expect(http.StatusOK))
		if m.Delivery != nil && *m.Delivery != "queued" {
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("message %s still queued after 30 s (attempts %d, last error %v)", id, m.Attempts, m.LastError)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// pdfText is the text of a PDF (pdftotext), or "" when poppler is not
// installed.
func pdfText(t *testing.T, data []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Log("pdftotext is not installed: the attached PDF's text is not checked")
		return ""
	}
	path := filepath.Join(t.TempDir(), "a.pdf")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

var replyTo = regexp.MustCompile(`reply\+[a-z2-7]{32}@in\.propman\.test`)

// rawMail is an RFC 5322 mail from the tenant to addr, with an optional
// attachment.
func rawMail(from, to, subject, text, attName string, att []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: Anna Tenant <%s>\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%d@mail.example>\r\nMIME-Version: 1.0\r\n",
		from, to, subject, time.Now().UnixNano())
	if att == nil {
		fmt.Fprintf(&b, "Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n", text)
		return b.Bytes()
	}
	w := multipart.NewWriter(&b)
	fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=%s\r\n\r\n", w.Boundary())
	pw, _ := w.CreatePart(map[string][]string{"Content-Type": {"text/plain; charset=utf-8"}})
	_, _ = pw.Write([]byte(text))
	aw, _ := w.CreatePart(map[string][]string{
		"Content-Type":              {"application/octet-stream"},
		"Content-Disposition":       {`attachment; filename="` + attName + `"`},
		"Content-Transfer-Encoding": {"base64"},
	})
	enc := make([]byte, 0, len(att)*2)
	enc = appendBase64Lines(enc, att)
	_, _ = aw.Write(enc)
	_ = w.Close()
	return b.Bytes()
}

func appendBase64Lines(dst, src []byte) []byte {
	const line = 57
	for len(src) > 0 {
		n := min(line, len(src))
		dst = append(dst, []byte(b64(src[:n]))...)
		dst = append(dst, '\r', '\n')
		src = src[n:]
	}
	return dst
}

func inbound(app *testkit.App, secret string, raw []byte) *testkit.Response {
	h := map[string]string{"Content-Type": "message/rfc822"}
	if secret != "" {
		h["X-Inbound-Secret"] = secret
	}
	return app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/messages/inbound", Body: raw, Headers: h})
}

func code(res *testkit.Response) string { s, _ := res.Map()["error"].(string); return s }

// counts is how many messages and documents the database holds.
func counts(t *testing.T, app *testkit.App) (int, int) {
	t.Helper()
	var m, d int
	if err := app.DB.NewRaw("SELECT (SELECT COUNT(*) FROM messages), (SELECT COUNT(*) FROM documents)").Scan(t.Context(), &m, &d); err != nil {
		t.Fatal(err)
	}
	return m, d
}

var errNoMail = errors.New("no mail")

func waitMail(srv *smtpServer, n int) ([][]byte, error) {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if got := srv.received(); len(got) >= n {
			return got, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil, errNoMail
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
