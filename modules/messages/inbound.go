package messages

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"io"
	"mime"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	gomessage "github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // the charsets of real mail (ISO-8859-x, Windows-125x...)
	gomail "github.com/emersion/go-message/mail"
	"github.com/gofiber/fiber/v2"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/httpserver"
)

// InboundPath is the route that takes replies, under /api/v1.
const InboundPath = "/messages/inbound"

// InboundSecretHeader carries modules.messages.inboundsecret.
const InboundSecretHeader = "X-Inbound-Secret"

func errMalformed(why string) error {
	return fault.New(fault.KindInvalid, "malformed_mail", "The body is not a well-formed RFC 5322 message: "+why)
}

func errNoThread() error {
	return fault.New(fault.KindNotFound, "thread_not_found",
		"No recipient of the mail (To, Cc, Delivered-To, X-Original-To) is the reply address of a thread.")
}

func (h *Handler) inboundTooLarge() error {
	return fault.New(fault.KindTooLarge, "payload_too_large",
		fmt.Sprintf("The mail is larger than the limit of %d bytes.", h.cfg.InboundMaxSize))
}

// inbound takes a raw mail (message/rfc822) from the operator's mail
// server, authenticated by the shared secret. Unset secret: 404, as if
// the route did not exist; wrong or missing secret: 401.
func (h *Handler) inbound(c *fiber.Ctx) error {
	if h.cfg.InboundSecret == "" {
		return refuse(c, fault.NotFound("Not found."))
	}
	want := sha256.Sum256([]byte(h.cfg.InboundSecret))
	got := sha256.Sum256([]byte(c.Get(InboundSecretHeader)))
	if subtle.ConstantTimeCompare(want[:], got[:]) != 1 {
		return refuse(c, auth.Unauthorized("Invalid or missing "+InboundSecretHeader+"."))
	}
	mt, _, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if err != nil || mt != "message/rfc822" {
		return refuse(c, fault.New(fault.KindUnsupported, "unsupported_type", "The body must be a mail with Content-Type message/rfc822."))
	}
	if n := c.Request().Header.ContentLength(); int64(n) > h.cfg.InboundMaxSize {
		return refuse(c, h.inboundTooLarge())
	}
	body, ok := httpserver.BodyStream(c)
	if !ok {
		return errors.New("messages: the inbound route is not declared as a streamed body")
	}
	raw, err := io.ReadAll(body)
	if errors.Is(err, httpserver.ErrBodyTooLarge) {
		return h.inboundTooLarge()
	}
	if err != nil {
		return fault.Validation("The request body could not be read to its end.")
	}
	m, created, err := h.svc.Inbound(httpserver.Context(c), raw)
	if err != nil {
		return err
	}
	status := fiber.StatusCreated
	if !created {
		status = fiber.StatusOK
	}
	return c.Status(status).JSON(toJSON(m))
}

// refuse answers a request whose streamed body was not read: up to 64 KiB
// of it is read away for a second or less, so that a client still sending
// gets the answer rather than a reset connection (as documents' uploads).
func refuse(c *fiber.Ctx, err error) error {
	stream := c.Context().RequestBodyStream()
	if stream == nil {
		return err
	}
	if conn := c.Context().Conn(); conn != nil {
		_ = conn.SetReadDeadline(time.Now().Add(time.Second))
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(stream, 64<<10))
	return err
}

// replyAddress matches a reply address's local part.
var replyAddress = regexp.MustCompile(`^reply\+([a-z2-7]{32})$`)

// parsedMail is what an inbound mail holds, read whole before anything is
// stored.
type parsedMail struct {
	token     string
	from      string
	subject   string
	messageID string
	text      string
	files     []inboundFile
}

type inboundFile struct {
	name string
	data []byte
}

// parse reads raw; every problem is a 4xx.
func (s *Service) parse(raw []byte) (*parsedMail, error) {
	mr, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil && !gomessage.IsUnknownCharset(err) {
		return nil, errMalformed(err.Error())
	}
	var p parsedMail
	from, err := mr.Header.AddressList("From")
	if err != nil || len(from) == 0 {
		return nil, errMalformed("no valid From address")
	}
	p.from = strings.ToLower(from[0].Address)
	for _, key := range []string{"To", "Cc", "Delivered-To", "X-Original-To"} {
		list, _ := mr.Header.AddressList(key)
		for _, a := range list {
			local, domain, ok := strings.Cut(strings.ToLower(a.Address), "@")
			if m := replyAddress.FindStringSubmatch(local); ok && m != nil && domain == s.cfg.InboundDomain {
				p.token = m[1]
				break
			}
		}
		if p.token != "" {
			break
		}
	}
	if p.token == "" {
		return nil, errNoThread()
	}
	p.subject, _ = mr.Header.Subject()
	p.subject = strings.Join(strings.Fields(p.subject), " ")
	if utf8.RuneCountInString(p.subject) > MaxSubject {
		p.subject = string([]rune(p.subject)[:MaxSubject-1]) + "…"
	}
	p.messageID, _ = mr.Header.MessageID()
	if p.messageID == "" || len(p.messageID) > 250 {
		sum := sha256.Sum256(raw)
		p.messageID = hex.EncodeToString(sum[:16]) + "@inbound"
	}
	var text, htmlText string
	maxFile := s.files.MaxSize()
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !gomessage.IsUnknownCharset(err) {
			return nil, errMalformed(err.Error())
		}
		var name string
		var inlineType string
		switch h := part.Header.(type) {
		case *gomail.AttachmentHeader:
			name, _ = h.Filename()
			if name == "" {
				name = "attachment"
			}
		case *gomail.InlineHeader:
			inlineType, _, _ = h.ContentType()
			if _, params, _ := h.ContentDisposition(); params["filename"] != "" && !strings.HasPrefix(inlineType, "text/") {
				name = params["filename"]
			}
		}
		if name != "" {
			if len(p.files) == MaxAttachments {
				return nil, fault.Validation(fmt.Sprintf("attachments: the mail has more than %d", MaxAttachments))
			}
			data, err := io.ReadAll(io.LimitReader(part.Body, maxFile+1))
			if err != nil {
				return nil, errMalformed(err.Error())
			}
			if int64(len(data)) > maxFile {
				return nil, fault.New(fault.KindTooLarge, "payload_too_large",
					fmt.Sprintf("The attachment %q is larger than the limit of %d bytes.", name, maxFile))
			}
			p.files = append(p.files, inboundFile{name: name, data: data})
			continue
		}
		data, err := io.ReadAll(io.LimitReader(part.Body, 4*MaxBody+1))
		if err != nil {
			return nil, errMalformed(err.Error())
		}
		switch {
		case inlineType == "text/plain" && text == "":
			text = string(data)
		case inlineType == "text/html" && htmlText == "":
			htmlText = string(data)
		}
	}
	if strings.TrimSpace(text) == "" && htmlText != "" {
		text = stripTags(htmlText)
	}
	p.text = cleanText(text)
	return &p, nil
}

var (
	tags       = regexp.MustCompile(`(?s)<(script|style)[^>]*>.*?</(script|style)>|<[^>]*>`)
	blankLines = regexp.MustCompile(`\n{3,}`)
)

// stripTags is the text of an HTML part, for mail without a text part.
func stripTags(s string) string {
	s = strings.NewReplacer("<br>", "\n", "<br/>", "\n", "<br />", "\n", "</p>", "\n\n", "</div>", "\n").Replace(s)
	return html.UnescapeString(tags.ReplaceAllString(s, ""))
}

// cleanText makes a mail's text a message body: valid UTF-8, line feeds,
// no other control characters, at most MaxBody characters.
func cleanText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || (r >= 0x20 && r != 0x7f && (r < 0x80 || r > 0x9f)) {
			return r
		}
		return -1
	}, s)
	s = strings.TrimSpace(blankLines.ReplaceAllString(s, "\n\n"))
	if s == "" {
		s = "(no text)"
	}
	if utf8.RuneCountInString(s) > MaxBody {
		s = string([]rune(s)[:MaxBody-1]) + "…"
	}
	return s
}

// errDuplicate rolls back a reply found filed already by a concurrent
// delivery.
var errDuplicate = errors.New("messages: reply already filed")

// Inbound files a raw mail in the thread of its reply address: direction
// in, channel email, its attachments stored as documents of the thread's
// property. A mail whose Message-ID is filed in the thread already is not
// filed again (created false). Nothing is stored on any error.
func (s *Service) Inbound(ctx context.Context, raw []byte) (*Message, bool, error) {
	p, err := s.parse(raw)
	if err != nil {
		return nil, false, err
	}
	t, err := threadByToken(ctx, s.db, p.token)
	if err != nil {
		return nil, false, err
	}
	if t == nil {
		return nil, false, errNoThread()
	}
	if m, err := s.filed(ctx, s.db, t, p.messageID); err != nil || m != nil {
		return m, false, err
	}
	landlord, err := s.landlordOf(ctx, t)
	if err != nil {
		return nil, false, err
	}
	var blobs []*documents.Blob
	discard := func() {
		for _, b := range blobs {
			s.files.Discard(b)
		}
	}
	for _, f := range p.files {
		b, err := s.files.Put(ctx, f.name, bytes.NewReader(f.data))
		if err != nil {
			discard()
			return nil, false, err
		}
		blobs = append(blobs, b)
	}
	m := &Message{Direction: In, Channel: ptr(Email), Subject: p.subject, Body: p.text, Address: p.from,
		AuthorContragentID: &t.ContragentID, MessageID: p.messageID}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		for _, b := range blobs {
			f, err := s.files.Insert(ctx, tx, documents.NewFile{WorkspaceID: t.WorkspaceID, PropertyID: t.PropertyID,
				ContractID: t.ContractID, Title: b.Filename, UploadedBy: landlord}, b)
			if err != nil {
				return err
			}
			m.Attachments = append(m.Attachments, f.ID)
		}
		created, err := s.insert(ctx, tx, t.WorkspaceID, t.PropertyID, t.ContractID, t.ContragentID, m)
		if err == nil && !created {
			return errDuplicate
		}
		return err
	})
	if errors.Is(err, errDuplicate) {
		discard()
		m, err := s.filed(ctx, s.db, t, p.messageID)
		return m, false, err
	}
	if err != nil {
		discard()
		return nil, false, err
	}
	return m, true, nil
}

// filed returns the reply with messageID in t, or nil.
func (s *Service) filed(ctx context.Context, db bun.IDB, t *Thread, messageID string) (*Message, error) {
	return filedReply(ctx, db, t.ID, messageID)
}

// landlordOf is the user the documents of a reply are recorded as
// uploaded by: the owner of the thread's property.
func (s *Service) landlordOf(ctx context.Context, t *Thread) (int64, error) {
	prop, err := s.props.Authorize(ctx, auth.InWorkspace(t.WorkspaceID, 0), t.PropertyID.String())
	if err != nil {
		return 0, err
	}
	return prop.OwnerID, nil
}
