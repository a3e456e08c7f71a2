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

// Reminder is an automatic message to a contragent about a property (a
// calendar event's reminder), written by a job. Its Key makes it once, as
// a Notice's does.
type Reminder struct {
	WorkspaceID  int64
	PropertyID   uuid.UUID
	ContractID   *uuid.UUID
	ContragentID uuid.UUID
	// Key is unique among notices and reminders, at most 200 bytes.
	Key   string
	Title string
	Body  string
}

// Remind creates the reminder r through tx unless its key exists: by
// email when the contragent has an address (queued, sent by the send job
// inserted in tx), else as a portal message of the property's thread with
// them. created is false when it existed; m is then the earlier message.
func (s *Service) Remind(ctx context.Context, tx bun.Tx, r Reminder) (m *Message, created bool, err error) {
	switch {
	case r.Key == "" || len(r.Key) > 200:
		return nil, false, errors.New("messages: a reminder needs a key of 1 to 200 bytes")
	case strings.TrimSpace(r.Body) == "" || utf8.RuneCountInString(r.Body) > MaxBody || utf8.RuneCountInString(r.Title) > MaxSubject:
		return nil, false, fmt.Errorf("messages: a reminder's body must be 1 to %d characters, its title at most %d", MaxBody, MaxSubject)
	}
	cg, err := s.contragents.ByID(ctx, tx, r.ContragentID)
	if err != nil {
		return nil, false, err
	}
	if cg.WorkspaceID != r.WorkspaceID {
		return nil, false, errors.New("messages: the reminder's contragent is another workspace's")
	}
	key := r.Key
	m = &Message{Direction: Out, Channel: ptr(Portal), Subject: r.Title, Body: r.Body, NoticeKey: &key}
	if email := strings.TrimSpace(cg.Email); email != "" {
		m.Channel, m.Address = ptr(Email), email
	}
	created, err = s.insert(ctx, tx, r.WorkspaceID, r.PropertyID, r.ContractID, r.ContragentID, m)
	if err != nil {
		return nil, false, err
	}
	return m, created, nil
}
