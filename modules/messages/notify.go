package messages

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Notice is an automatic message to the tenant of a contract (a rent
// call, a reminder, a receipt...), written by a periodic job. Its key
// (Kind, Subject, Step) makes it once: Notify creates the message the
// first time and finds it every later time, however often the job runs or
// how many instances run it.
type Notice struct {
	// Kind is the notice's kind, e.g. "rent_call", "reminder", "receipt".
	Kind string
	// Subject is the record the notice is about: a charge, a payment or the
	// contract itself.
	Subject uuid.UUID
	// Step tells notices of one kind and record apart, e.g. "1", "7", "14"
	// (days after the due date); "" when there is one.
	Step string
	// ContractID is the contract whose tenant is told.
	ContractID uuid.UUID
	// Title and Body are the text, already in the contract's locale.
	Title string
	Body  string
	// Attachments are documents of the contract's property (a receipt's PDF).
	Attachments []uuid.UUID
}

// Key is the notice's unique key, kind:subject:step.
func (n Notice) Key() string { return n.Kind + ":" + n.Subject.String() + ":" + n.Step }

// Notify creates the notice n through tx (the transaction of the job that
// decides it) unless it exists: by email when the tenant has an address
// (queued, sent by the send job inserted in tx), else as a portal message.
// created is false when the notice existed; m is then the earlier message.
func (s *Service) Notify(ctx context.Context, tx bun.Tx, n Notice) (m *Message, created bool, err error) {
	switch {
	case n.Kind == "" || strings.Contains(n.Kind, ":") || len(n.Key()) > 200:
		return nil, false, errors.New("messages: a notice needs a kind without ':' and a key of at most 200 bytes")
	case strings.TrimSpace(n.Body) == "" || utf8.RuneCountInString(n.Body) > MaxBody:
		return nil, false, fmt.Errorf("messages: a notice's body must be 1 to %d characters", MaxBody)
	case utf8.RuneCountInString(n.Title) > MaxSubject || len(n.Attachments) > MaxAttachments:
		return nil, false, errors.New("messages: a notice's title or attachments are too long")
	}
	c, err := s.contracts.ByID(ctx, tx, n.ContractID)
	if err != nil {
		return nil, false, fmt.Errorf("contract of notice: %w", err)
	}
	cg, err := s.contragents.ByID(ctx, tx, c.TenantID)
	if err != nil {
		return nil, false, err
	}
	key := n.Key()
	m = &Message{Direction: Out, Channel: ptr(Portal), Subject: n.Title, Body: n.Body,
		Attachments: n.Attachments, NoticeKey: &key}
	if email := strings.TrimSpace(cg.Email); email != "" {
		m.Channel, m.Address = ptr(Email), email
	}
	if err := s.checkAttachments(ctx, tx, c.PropertyID, n.Attachments, false); err != nil {
		return nil, false, err
	}
	created, err = s.insert(ctx, tx, c.WorkspaceID, c.PropertyID, &c.ID, c.TenantID, m)
	if err != nil {
		return nil, false, err
	}
	return m, created, nil
}

// Noticed returns, of keys (Notice.Key), those a notice exists for: the
// notices job asks once for a page of candidates instead of opening a
// transaction for each one already sent.
func (s *Service) Noticed(ctx context.Context, db bun.IDB, keys []string) (map[string]bool, error) {
	out := make(map[string]bool, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	found, err := noticedKeys(ctx, db, keys)
	if err != nil {
		return nil, err
	}
	for _, k := range found {
		out[k] = true
	}
	return out, nil
}
