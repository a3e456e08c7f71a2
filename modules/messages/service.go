package messages

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/listing"
)

// Service holds the rules of threads and messages.
type Service struct {
	db          *bun.DB
	cfg         Config
	clock       clock.Clock
	log         *slog.Logger
	queue       *jobs.Queue
	files       *documents.Files
	contracts   *contracts.Service
	contragents *contragents.Service
	props       *properties.Service
}

// ServiceParams are the service's dependencies as fx provides them.
type ServiceParams struct {
	fx.In

	DB          *bun.DB
	Config      Config
	Clock       clock.Clock
	Log         *slog.Logger
	Queue       *jobs.Queue
	Files       *documents.Files
	Contracts   *contracts.Service
	Contragents *contragents.Service
	Properties  *properties.Service
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{db: p.DB, cfg: p.Config, clock: p.Clock, log: p.Log, queue: p.Queue, files: p.Files,
		contracts: p.Contracts, contragents: p.Contragents, props: p.Properties}
}

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

func errNotFound() error { return fault.NotFound("Message not found.") }

var tokenEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newToken is a thread's reply token: 20 random bytes, lower-case base32
// (32 characters), so an address cannot be guessed and survives servers
// that lower-case local parts.
func newToken() (string, error) {
	b := make([]byte, 20)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("thread token: %w", err)
	}
	return tokenEncoding.EncodeToString(b), nil
}

// ReplyAddress is the address replies to the thread go to.
func (s *Service) ReplyAddress(t *Thread) string {
	return "reply+" + t.Token + "@" + s.cfg.InboundDomain
}

// newMessageID is a Message-ID (without brackets) for a message.
func (s *Service) newMessageID(id uuid.UUID) string {
	return id.String() + "@" + s.cfg.InboundDomain
}

// thread returns, through tx, the thread of the contract (when contractID
// is set) or of the property and contragent, creating it the first time.
func (s *Service) thread(ctx context.Context, tx bun.Tx, workspaceID int64, propertyID uuid.UUID, contractID *uuid.UUID, contragentID uuid.UUID) (*Thread, error) {
	find := func() (*Thread, error) { return findThread(ctx, tx, propertyID, contractID, contragentID) }
	t, err := find()
	if err != nil || t != nil {
		return t, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("thread id: %w", err)
	}
	token, err := newToken()
	if err != nil {
		return nil, err
	}
	t = &Thread{ID: id, WorkspaceID: workspaceID, PropertyID: propertyID, ContractID: contractID,
		ContragentID: contragentID, Token: token, CreatedAt: s.now()}
	// Of two first messages at once, one creates the thread; the other
	// finds it.
	if err := insertThread(ctx, tx, t); err != nil {
		return nil, err
	}
	return find()
}

// CreateInput is a message a landlord writes.
type CreateInput struct {
	ContractID     *uuid.UUID
	ContragentID   *uuid.UUID
	Direction      string
	Channel        *string
	Subject        string
	Body           string
	Attachments    []uuid.UUID
	TrackingNumber *string
}

// recipient is who a new message is for: the thread's key and, for an
// email, the address.
type recipient struct {
	contractID   *uuid.UUID
	contragentID uuid.UUID
	email        string
}

// resolve finds the contract or contragent of in, of p's workspace and of
// prop.
func (s *Service) resolve(ctx context.Context, p auth.Principal, prop *properties.Property, in *CreateInput) (recipient, error) {
	var r recipient
	switch {
	case in.ContractID != nil:
		c, err := s.contracts.Authorize(ctx, p, in.ContractID.String())
		if err != nil {
			return r, validationFor("contract_id", err)
		}
		if c.PropertyID != prop.ID {
			return r, fault.Validation("contract_id: must be a contract of this property")
		}
		r.contractID, r.contragentID = &c.ID, c.TenantID
	default:
		cg, err := s.contragents.Authorize(ctx, p, in.ContragentID.String())
		if err != nil {
			return r, validationFor("contragent_id", err)
		}
		if cg.WorkspaceID != prop.WorkspaceID {
			return r, fault.Validation("contragent_id: must be a contragent of the property's workspace")
		}
		r.contragentID = cg.ID
	}
	if in.Channel != nil && *in.Channel == Email {
		cg, err := s.contragents.ByID(ctx, s.db, r.contragentID)
		if err != nil {
			return r, err
		}
		r.email = strings.TrimSpace(cg.Email)
		if r.email == "" {
			return r, fault.Validation("channel: the contragent has no email address; set it first (PUT /contragents/{id})")
		}
	}
	return r, nil
}

// validationFor turns a 404 of a referenced record into a 400 naming the
// field; other errors pass.
func validationFor(field string, err error) error {
	if fault.Is(err, fault.KindNotFound) || fault.Is(err, fault.KindForbidden) {
		return fault.Validation(field + ": must be the id of a record of this workspace")
	}
	return err
}

// checkAttachments returns the documents of ids, each of prop, bounded in
// number and, for an email, in total size.
func (s *Service) checkAttachments(ctx context.Context, db bun.IDB, propertyID uuid.UUID, ids []uuid.UUID, email bool) error {
	if len(ids) == 0 {
		return nil
	}
	files, err := s.files.OfProperty(ctx, db, propertyID, ids)
	if err != nil {
		return err
	}
	if len(files) != len(ids) {
		return fault.Validation("attachments: each must be the id of a document of this property")
	}
	var total int64
	for _, f := range files {
		total += f.Size
	}
	if email && total > s.cfg.MaxAttachmentsSize {
		return fault.Validation(fmt.Sprintf("attachments: together larger than %d bytes, the limit of an email", s.cfg.MaxAttachmentsSize))
	}
	return nil
}

// Create writes a landlord's message: an email (queued, sent by a job
// inserted in the same transaction), a post letter or portal message
// (sent as it is recorded), or a note.
func (s *Service) Create(ctx context.Context, p auth.Principal, prop *properties.Property, in CreateInput) (*Message, error) {
	r, err := s.resolve(ctx, p, prop, &in)
	if err != nil {
		return nil, err
	}
	if in.Channel != nil && *in.Channel == Portal && r.contractID == nil {
		return nil, fault.Validation("channel: portal messages need a contract_id (the tenant reads them with their contract)")
	}
	email := in.Channel != nil && *in.Channel == Email
	if err := s.checkAttachments(ctx, s.db, prop.ID, in.Attachments, email); err != nil {
		return nil, err
	}
	m := &Message{
		Direction: in.Direction, Channel: in.Channel, Subject: in.Subject, Body: in.Body,
		Attachments: in.Attachments, Address: r.email, TrackingNumber: in.TrackingNumber,
	}
	if p.UserID != 0 {
		m.AuthorUserID = ptr(p.UserID)
	}
	if err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		_, err := s.insert(ctx, tx, prop.WorkspaceID, prop.ID, r.contractID, r.contragentID, m)
		return err
	}); err != nil {
		return nil, err
	}
	return m, nil
}

// insert files m into its thread through tx, sets its delivery, queues
// its email and records it. created is false when m has a notice key or
// an inbound Message-ID already filed (m is then that message).
func (s *Service) insert(ctx context.Context, tx bun.Tx, workspaceID int64, propertyID uuid.UUID, contractID *uuid.UUID, contragentID uuid.UUID, m *Message) (created bool, err error) {
	t, err := s.thread(ctx, tx, workspaceID, propertyID, contractID, contragentID)
	if err != nil {
		return false, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return false, fmt.Errorf("message id: %w", err)
	}
	now := s.now()
	m.ID, m.ThreadID, m.PropertyID, m.ContractID, m.ContragentID = id, t.ID, propertyID, contractID, contragentID
	m.CreatedAt, m.UpdatedAt = now, now
	if m.Attachments == nil {
		m.Attachments = []uuid.UUID{}
	}
	if m.MessageID == "" {
		m.MessageID = s.newMessageID(id)
	}
	switch {
	case m.Direction != Out:
	case m.Channel != nil && *m.Channel == Email:
		m.Delivery = ptr(Queued)
	default:
		m.Delivery, m.SentAt = ptr(Sent), &now
	}
	inserted, err := insertMessage(ctx, tx, m)
	if err != nil {
		return false, err
	}
	if !inserted {
		// A notice already created, or a reply already filed.
		existing, err := existingMessage(ctx, tx, t.ID, m)
		if err != nil {
			return false, err
		}
		*m = *existing
		return false, nil
	}
	if m.Delivery != nil && *m.Delivery == Queued {
		if _, err := s.queue.Insert(ctx, tx, sendArgs{MessageID: m.ID.String()},
			&river.InsertOpts{MaxAttempts: s.cfg.Attempts, Queue: jobs.MailQueue}); err != nil {
			return false, err
		}
	}
	return true, activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "message",
		RecordID: m.ID.String(), WorkspaceID: workspaceID, Changes: activity.Diff(nil, s.view(m))})
}

// List returns one page of the property's messages, newest first.
func (s *Service) List(ctx context.Context, prop *properties.Property, q listing.Query) ([]Message, listing.Result, error) {
	return listOfProperty(ctx, s.db, prop.ID, q)
}

// Get returns the property's message with the raw id.
func (s *Service) Get(ctx context.Context, prop *properties.Property, rawID string) (*Message, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, errNotFound()
	}
	m, err := messageOfProperty(ctx, s.db, prop.ID, id)
	if err == nil && m == nil {
		return nil, errNotFound()
	}
	return m, err
}

// propertyCleanup deletes a property's threads and messages with it.
type propertyCleanup struct{}

func newPropertyCleanup() propertyCleanup { return propertyCleanup{} }

// PropertyDeleting deletes the rows of the property in tx.
func (propertyCleanup) PropertyDeleting(ctx context.Context, tx bun.Tx, propertyID uuid.UUID) error {
	return deleteOfProperty(ctx, tx, propertyID)
}
