package messages

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/platform/activity"
	jobsqueue "github.com/propman/propman/platform/jobs"
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
	if err := n.check(); err != nil {
		return nil, false, err
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

// check bounds a notice as a message is bounded.
func (n Notice) check() error {
	switch {
	case n.Kind == "" || strings.Contains(n.Kind, ":") || len(n.Key()) > 200:
		return errors.New("messages: a notice needs a kind without ':' and a key of at most 200 bytes")
	case strings.TrimSpace(n.Body) == "" || utf8.RuneCountInString(n.Body) > MaxBody:
		return fmt.Errorf("messages: a notice's body must be 1 to %d characters", MaxBody)
	case utf8.RuneCountInString(n.Title) > MaxSubject || len(n.Attachments) > MaxAttachments:
		return errors.New("messages: a notice's title or attachments are too long")
	}
	return nil
}

// NotifyAll is Notify for a batch of notices (the notices run's page), in
// a few statements for the batch instead of a few for each: the
// contracts, tenants and threads read at once, the missing threads, the
// messages, their mail jobs and their activity each written with one
// multi-row statement, all through tx. created[i] tells whether list[i]
// was written now (false: its key existed, written by an earlier run or
// another instance, and nothing of it is written again). The caller
// bounds the batch (a few hundred notices).
func (s *Service) NotifyAll(ctx context.Context, tx bun.Tx, list []Notice) (created []bool, err error) {
	created = make([]bool, len(list))
	if len(list) == 0 {
		return created, nil
	}
	var ids []uuid.UUID
	seen := map[uuid.UUID]bool{}
	for _, n := range list {
		if err := n.check(); err != nil {
			return nil, err
		}
		if !seen[n.ContractID] {
			seen[n.ContractID] = true
			ids = append(ids, n.ContractID)
		}
	}
	cs, err := noticeContracts(ctx, tx, ids)
	if err != nil {
		return nil, err
	}
	tenantIDs := make([]uuid.UUID, 0, len(cs))
	for _, id := range ids {
		c := cs[id]
		if c == nil {
			return nil, fmt.Errorf("contract of notice %s: %w", id, sql.ErrNoRows)
		}
		tenantIDs = append(tenantIDs, c.TenantID)
	}
	tenants, err := noticeTenants(ctx, tx, tenantIDs)
	if err != nil {
		return nil, err
	}
	threads, err := s.threadsOf(ctx, tx, ids, cs)
	if err != nil {
		return nil, err
	}
	now := s.now()
	msgs := make([]Message, len(list))
	for i, n := range list {
		c := cs[n.ContractID]
		cg := tenants[c.TenantID]
		if cg == nil {
			return nil, fmt.Errorf("tenant of notice %s: %w", n.Key(), sql.ErrNoRows)
		}
		if err := s.checkAttachments(ctx, tx, c.PropertyID, n.Attachments, false); err != nil {
			return nil, err
		}
		id, err := uuid.NewV7()
		if err != nil {
			return nil, fmt.Errorf("message id: %w", err)
		}
		key := n.Key()
		m := Message{ID: id, ThreadID: threads[c.ID].ID, PropertyID: c.PropertyID, ContractID: &c.ID, ContragentID: c.TenantID,
			Direction: Out, Channel: ptr(Portal), Subject: n.Title, Body: n.Body, Attachments: n.Attachments,
			MessageID: s.newMessageID(id), NoticeKey: &key, CreatedAt: now, UpdatedAt: now}
		if m.Attachments == nil {
			m.Attachments = []uuid.UUID{}
		}
		if email := strings.TrimSpace(cg.Email); email != "" {
			m.Channel, m.Address, m.Delivery = ptr(Email), email, ptr(Queued)
		} else {
			m.Delivery, m.SentAt = ptr(Sent), &now
		}
		msgs[i] = m
	}
	written, err := insertNotices(ctx, tx, msgs)
	if err != nil {
		return nil, err
	}
	var jobs []river.InsertManyParams
	var entries []activity.Entry
	for i := range msgs {
		m := &msgs[i]
		if !written[m.ID] {
			continue
		}
		created[i] = true
		if *m.Delivery == Queued {
			jobs = append(jobs, river.InsertManyParams{Args: sendArgs{MessageID: m.ID.String()},
				InsertOpts: &river.InsertOpts{MaxAttempts: s.cfg.Attempts, Queue: jobsqueue.MailQueue}})
		}
		entries = append(entries, activity.Entry{Action: activity.Created, RecordType: "message",
			RecordID: m.ID.String(), WorkspaceID: cs[*m.ContractID].WorkspaceID, Changes: activity.Diff(nil, s.view(m))})
	}
	if err := s.queue.InsertMany(ctx, tx, jobs); err != nil {
		return nil, err
	}
	return created, activity.RecordAll(ctx, tx, entries)
}

// threadsOf returns, through tx, the thread of each contract of ids (cs
// holds them), creating those missing with one insert.
func (s *Service) threadsOf(ctx context.Context, tx bun.Tx, ids []uuid.UUID, cs map[uuid.UUID]*contracts.Contract) (map[uuid.UUID]*Thread, error) {
	threads, err := contractThreads(ctx, tx, ids)
	if err != nil {
		return nil, err
	}
	var missing []Thread
	var missingIDs []uuid.UUID
	for _, id := range ids {
		if threads[id] != nil {
			continue
		}
		c := cs[id]
		tid, err := uuid.NewV7()
		if err != nil {
			return nil, fmt.Errorf("thread id: %w", err)
		}
		token, err := newToken()
		if err != nil {
			return nil, err
		}
		missing = append(missing, Thread{ID: tid, WorkspaceID: c.WorkspaceID, PropertyID: c.PropertyID, ContractID: &c.ID,
			ContragentID: c.TenantID, Token: token, CreatedAt: s.now()})
		missingIDs = append(missingIDs, id)
	}
	if len(missing) == 0 {
		return threads, nil
	}
	// Of two first messages at once, one creates the thread; the other
	// finds it.
	if err := insertThreads(ctx, tx, missing); err != nil {
		return nil, err
	}
	added, err := contractThreads(ctx, tx, missingIDs)
	if err != nil {
		return nil, err
	}
	for _, id := range missingIDs {
		if added[id] == nil {
			return nil, fmt.Errorf("thread of contract %s: %w", id, sql.ErrNoRows)
		}
		threads[id] = added[id]
	}
	return threads, nil
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
