package messages_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	gomail "github.com/emersion/go-message/mail"
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/messages"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/mail/mailtest"
	"github.com/propman/propman/platform/testkit"
)

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// readMail parses a delivered mail: its header, text and attachments.
func readMail(t *testing.T, raw []byte) (*gomail.Header, string, map[string][]byte, map[string]string) {
	m := mailtest.Read(t, raw)
	return m.Header, m.Text, m.Files, m.Types
}

// An email with a PDF goes out through the job to a real SMTP server, with
// the thread's reply address; the tenant's reply to it comes back through
// the inbound endpoint into the same thread, its PDF stored as a document.
func TestEmailOutAndReplyIn(t *testing.T) {
	srv := mailtest.Start(t)
	app := start(t, srv)
	l := newLease(t, app, "anna@example.com")
	doc := upload(t, app, l, "statement.pdf", pdf(t, "Rent statement 2026-11"))

	res := app.Post(l.messages(), l.landlord.Token, map[string]any{"contract_id": l.contract, "channel": "email",
		"subject": "Your statement", "body": "Dear Anna,\nplease find your statement attached.", "attachments": []string{doc}})
	m := decode(t, res.Expect(http.StatusCreated))
	if m.Delivery == nil || *m.Delivery != "queued" || m.Direction != "out" || m.Address == nil || *m.Address != "anna@example.com" {
		t.Fatalf("created: %s", res.Body)
	}
	m = waitDelivery(t, app, l, m.ID)
	if *m.Delivery != "sent" || m.LastError != nil || m.Attempts != 1 {
		t.Fatalf("delivery %v, error %v, attempts %d", *m.Delivery, m.LastError, m.Attempts)
	}
	mails, err := waitMail(srv, 1)
	if err != nil {
		t.Fatal(err)
	}
	h, text, files, types := readMail(t, mails[0])
	subject, _ := h.Subject()
	to, _ := h.AddressList("To")
	reply, _ := h.AddressList("Reply-To")
	if subject != "Your statement" || len(to) != 1 || to[0].Address != "anna@example.com" || len(reply) != 1 {
		t.Fatalf("subject %q, to %v, reply-to %v", subject, to, reply)
	}
	if !replyTo.MatchString(reply[0].Address) {
		t.Fatalf("reply address %q", reply[0].Address)
	}
	if mid, _ := h.MessageID(); !strings.HasPrefix(mid, m.ID) {
		t.Errorf("Message-ID %q, want the message id %s", mid, m.ID)
	}
	if !strings.Contains(text, "please find your statement attached") {
		t.Errorf("text %q", text)
	}
	att, ok := files["statement.pdf"]
	if !ok || types["statement.pdf"] != "application/pdf" || !bytes.HasPrefix(att, []byte("%PDF")) {
		t.Fatalf("attachments %v %v", types, len(att))
	}
	if s := mailtest.PDFText(t, att); s != "" && !strings.Contains(s, "Rent statement 2026-11") {
		t.Errorf("the attached PDF reads %q", s)
	}

	// The reply, with a PDF of its own.
	_, docsBefore := counts(t, app)
	raw := rawMail("anna@example.com", "Landlord <"+reply[0].Address+">", "Re: Your statement",
		"Thanks, here is my bank confirmation.", "confirmation.pdf", pdf(t, "Transfer confirmed"))
	in := decode(t, inbound(app, inboundSecret, raw).Expect(http.StatusCreated))
	if in.Direction != "in" || in.Channel == nil || *in.Channel != "email" || in.ThreadID != m.ThreadID ||
		in.Author.Type != "contragent" || in.Delivery != nil || len(in.Attachments) != 1 {
		t.Fatalf("filed: %+v", in)
	}
	if !strings.Contains(in.Body, "bank confirmation") || in.Subject != "Re: Your statement" {
		t.Errorf("body %q subject %q", in.Body, in.Subject)
	}
	if _, docs := counts(t, app); docs != docsBefore+1 {
		t.Fatalf("%d documents, want %d", docs, docsBefore+1)
	}
	got := app.Get("/api/v1/properties/"+l.property+"/documents/"+in.Attachments[0], l.landlord.Token).Expect(http.StatusOK).Map()
	if got["content_type"] != "application/pdf" || got["contract_id"] != l.contract {
		t.Errorf("the stored attachment: %v", got)
	}
	// The same mail delivered again is filed once.
	again := decode(t, inbound(app, inboundSecret, raw).Expect(http.StatusOK))
	if again.ID != in.ID {
		t.Errorf("a second delivery made %s, want %s", again.ID, in.ID)
	}
	if _, docs := counts(t, app); docs != docsBefore+1 {
		t.Fatalf("a second delivery stored a document again: %d", docs)
	}
	// Mail goes through its own queue, beside the periodic runs'.
	var queues []string
	if err := app.DB.NewRaw("SELECT DISTINCT queue FROM river_job WHERE kind = 'messages_send'").Scan(t.Context(), &queues); err != nil || len(queues) != 1 || queues[0] != "mail" {
		t.Errorf("send jobs in queues %v (%v), want mail", queues, err)
	}
	// Newest first, filtered by contract.
	thread := list(t, app, l.messages()+"?contract_id="+l.contract, l.landlord.Token)
	if len(thread) != 2 || thread[0].ID != in.ID || thread[1].ID != m.ID {
		t.Fatalf("thread: %+v", thread)
	}
}

// A server that keeps refusing: the job tries modules.messages.attempts
// times, then the message is failed with the server's answer.
func TestEmailFailsAfterRetries(t *testing.T) {
	srv := mailtest.Start(t)
	srv.Fail(true)
	app := start(t, srv)
	l := newLease(t, app, "anna@example.com")
	m := decode(t, app.Post(l.messages(), l.landlord.Token, map[string]any{"contract_id": l.contract, "channel": "email",
		"subject": "Hello", "body": "Hello"}).Expect(http.StatusCreated))
	m = waitDelivery(t, app, l, m.ID)
	if *m.Delivery != "failed" || m.LastError == nil || !strings.Contains(*m.LastError, "451") || m.Attempts != 3 {
		t.Fatalf("delivery %s, attempts %d, error %v", *m.Delivery, m.Attempts, m.LastError)
	}
	if n := srv.Tries(); n != 3 {
		t.Errorf("the server saw %d attempts, want 3", n)
	}
	if len(srv.Received()) != 0 {
		t.Error("a mail was delivered")
	}
	failed := list(t, app, l.messages()+"?delivery=failed", l.landlord.Token)
	if len(failed) != 1 || failed[0].ID != m.ID {
		t.Errorf("failed list %+v", failed)
	}
}

// Inbound mail that cannot be filed: a clear 4xx, and nothing stored.
func TestInboundRefusals(t *testing.T) {
	srv := mailtest.Start(t)
	app := start(t, srv, testkit.WithConfig("modules.messages.inboundmaxsize", 64<<10))
	l := newLease(t, app, "anna@example.com")
	m := decode(t, app.Post(l.messages(), l.landlord.Token, map[string]any{"contract_id": l.contract, "channel": "email",
		"subject": "Hello", "body": "Hello"}).Expect(http.StatusCreated))
	waitDelivery(t, app, l, m.ID)
	mails, err := waitMail(srv, 1)
	if err != nil {
		t.Fatal(err)
	}
	addr := replyTo.FindString(string(mails[0]))
	good := rawMail("anna@example.com", addr, "Re", "fine", "", nil)
	msgs, docs := counts(t, app)

	cases := []struct {
		name   string
		secret string
		ctype  string
		raw    []byte
		status int
		code   string
	}{
		{"no secret", "", "", good, 401, ""},
		{"wrong secret", "wrong-secret-wrong-secret", "", good, 401, ""},
		{"not rfc822", inboundSecret, "text/plain", good, 415, "unsupported_type"},
		{"malformed", inboundSecret, "", []byte("this is not a mail at all\r\n\r\n"), 400, "malformed_mail"},
		{"no from", inboundSecret, "", []byte("To: " + addr + "\r\nSubject: x\r\n\r\nbody\r\n"), 400, "malformed_mail"},
		{"unknown thread", inboundSecret, "", rawMail("anna@example.com", "reply+aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@in.propman.test", "Re", "x", "", nil), 404, "thread_not_found"},
		{"other domain", inboundSecret, "", rawMail("anna@example.com", strings.Replace(addr, "in.propman.test", "elsewhere.test", 1), "Re", "x", "", nil), 404, "thread_not_found"},
		{"oversize", inboundSecret, "", rawMail("anna@example.com", addr, "Re", strings.Repeat("long line of text ", 5000), "", nil), 413, "payload_too_large"},
		{"attachment type", inboundSecret, "", rawMail("anna@example.com", addr, "Re", "see page", "page.html", []byte("<!DOCTYPE html><html><body><script>alert(1)</script></body></html>")), 415, "unsupported_type"},
	}
	for _, c := range cases {
		h := map[string]string{"Content-Type": "message/rfc822"}
		if c.ctype != "" {
			h["Content-Type"] = c.ctype
		}
		if c.secret != "" {
			h["X-Inbound-Secret"] = c.secret
		}
		res := app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/messages/inbound", Body: c.raw, Headers: h})
		if res.Status != c.status || (c.code != "" && code(res) != c.code) {
			t.Errorf("%s: %d %s, want %d %s", c.name, res.Status, res.Body, c.status, c.code)
		}
	}
	if m2, d2 := counts(t, app); m2 != msgs || d2 != docs {
		t.Fatalf("refused mail stored something: messages %d→%d, documents %d→%d", msgs, m2, docs, d2)
	}
	inbound(app, inboundSecret, good).Expect(http.StatusCreated)

	// Without a configured secret the endpoint does not exist.
	bare := testkit.Start(t)
	if res := inbound(bare, "", good); res.Status != http.StatusNotFound {
		t.Errorf("no secret configured: %d %s", res.Status, res.Body)
	}
	if res := inbound(bare, inboundSecret, good); res.Status != http.StatusNotFound {
		t.Errorf("no secret configured, one sent: %d %s", res.Status, res.Body)
	}
}

// Notes, post letters and portal messages are recorded as they are;
// malformed requests are refused with the field named.
func TestNotesPostAndValidation(t *testing.T) {
	srv := mailtest.Start(t)
	app := start(t, srv)
	l := newLease(t, app, "anna@example.com")
	tok := l.landlord.Token
	note := decode(t, app.Post(l.messages(), tok, map[string]any{"contract_id": l.contract, "direction": "note",
		"body": "Called Anna,\n\tshe pays Friday."}).Expect(http.StatusCreated))
	if note.Direction != "note" || note.Channel != nil || note.Delivery != nil || note.Author.Type != "user" {
		t.Errorf("note %+v", note)
	}
	post := decode(t, app.Post(l.messages(), tok, map[string]any{"contract_id": l.contract, "channel": "post",
		"subject": "Formal notice", "body": "Registered letter", "tracking_number": "RR 1234 5678 DE"}).Expect(http.StatusCreated))
	if post.Delivery == nil || *post.Delivery != "sent" || post.Tracking == nil || *post.Tracking != "RR 1234 5678 DE" {
		t.Errorf("post %+v", post)
	}
	// A contragent without a contract has a thread of its own.
	other := created(t, app.Post("/api/v1/contragents", tok, map[string]any{"kind": "company", "roles": []string{"provider"}, "name": "Plumber Ltd"}))
	n2 := decode(t, app.Post(l.messages(), tok, map[string]any{"contragent_id": other, "channel": "post", "body": "Invoice contested"}).Expect(http.StatusCreated))
	if n2.ContractID != nil || n2.ThreadID == note.ThreadID {
		t.Errorf("contragent thread %+v", n2)
	}
	otherLease := newLease(t, app, "bob@example.com")
	foreignDoc := upload(t, app, otherLease, "x.pdf", pdf(t, "x"))

	bad := []struct {
		body   map[string]any
		detail string
	}{
		{map[string]any{"channel": "email", "subject": "s", "body": "b"}, "contract_id"},
		{map[string]any{"contract_id": l.contract, "contragent_id": other, "channel": "post", "body": "b"}, "contragent_id"},
		{map[string]any{"contract_id": l.contract, "body": "b"}, "channel"},
		{map[string]any{"contract_id": l.contract, "direction": "in", "channel": "post", "body": "b"}, "direction"},
		{map[string]any{"contract_id": l.contract, "direction": "note", "channel": "post", "body": "b"}, "channel"},
		{map[string]any{"contract_id": l.contract, "channel": "email", "body": "b"}, "subject"},
		{map[string]any{"contract_id": l.contract, "channel": "post", "body": ""}, "body"},
		{map[string]any{"contract_id": l.contract, "channel": "post", "body": strings.Repeat("x", 20001)}, "body"},
		{map[string]any{"contract_id": l.contract, "channel": "email", "subject": "s", "body": "b", "tracking_number": "1"}, "tracking_number"},
		{map[string]any{"contract_id": l.contract, "channel": "post", "body": "b", "tracking_number": "<script>"}, "tracking_number"},
		{map[string]any{"contract_id": l.contract, "channel": "post", "body": "b", "attachments": []string{foreignDoc}}, "attachments"},
		{map[string]any{"contract_id": otherLease.contract, "channel": "post", "body": "b"}, "contract_id"},
		{map[string]any{"contract_id": uuid.NewString(), "channel": "post", "body": "b"}, "contract_id"},
		{map[string]any{"contragent_id": other, "channel": "portal", "body": "b"}, "channel"},
		{map[string]any{"contragent_id": other, "channel": "email", "subject": "s", "body": "b"}, "channel"},
	}
	msgs, _ := counts(t, app)
	for _, b := range bad {
		res := app.Post(l.messages(), tok, b.body).Expect(http.StatusBadRequest)
		if !strings.Contains(res.String(), b.detail+":") {
			t.Errorf("%v: %s, want a detail on %s", b.body, res.Body, b.detail)
		}
	}
	if m, _ := counts(t, app); m != msgs {
		t.Errorf("refused requests stored %d messages", m-msgs)
	}
	app.Get(l.messages()+"/"+uuid.NewString(), tok).Expect(http.StatusNotFound)
	app.Get(l.messages()+"/nope", tok).Expect(http.StatusNotFound)
	// Another landlord sees none of it.
	stranger := accountstest.NewUser(t, app)
	app.Get(l.messages(), stranger.Token).Expect(http.StatusForbidden)
	app.Get(l.messages()+"/"+note.ID, stranger.Token).Expect(http.StatusForbidden)
	// Keyset pages, newest first.
	ids := app.Walk(l.messages(), tok, "messages", 1)
	if len(ids) != 3 || ids[0] != n2.ID || ids[1] != post.ID || ids[2] != note.ID {
		t.Errorf("walk %v", ids)
	}
}

// Notify creates a notice once per key, however often it is called.
func TestNotifyOncePerKey(t *testing.T) {
	srv := mailtest.Start(t)
	var svc *messages.Service
	app := start(t, srv, testkit.WithPopulate(&svc))
	l := newLease(t, app, "anna@example.com")
	n := messages.Notice{Kind: "rent_call", Subject: uuid.MustParse(l.contract), Step: "2026-12",
		ContractID: uuid.MustParse(l.contract), Title: "Rent for December", Body: "Your rent of 950 EUR is due on 3 December."}
	var first string
	for i := range 3 {
		err := database.RunInTx(context.Background(), app.DB, func(ctx context.Context, tx bun.Tx) error {
			m, created, err := svc.Notify(ctx, tx, n)
			if err != nil {
				return err
			}
			if created != (i == 0) {
				t.Errorf("call %d: created %v", i, created)
			}
			if i == 0 {
				first = m.ID.String()
			} else if m.ID.String() != first {
				t.Errorf("call %d returned %s, want %s", i, m.ID, first)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	m := waitDelivery(t, app, l, first)
	if *m.Delivery != "sent" || m.Author.Type != "system" {
		t.Errorf("notice %+v", m)
	}
	if mails, _ := waitMail(srv, 1); len(mails) != 1 {
		t.Errorf("%d mails", len(mails))
	}
}
