package messages_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/mail/mailtest"
	"github.com/propman/propman/platform/testkit"
)

const inboundSecret = "test-inbound-secret-0123456789"

// start runs the app with its messages sent to srv.
func start(t *testing.T, srv *mailtest.Server, extra ...testkit.Option) *testkit.App {
	t.Helper()
	opts := []testkit.Option{
		testkit.WithConfig("mail.url", "smtp://"+srv.Addr),
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

func waitMail(srv *mailtest.Server, n int) ([][]byte, error) { return srv.Wait(n, 10*time.Second) }
