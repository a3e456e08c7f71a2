package calendar

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/activity"
)

// Visit is a one-off appointment another module books at a property (a
// repair's visit, modules/repairs): the workspace's members see it in
// their calendars and feeds like any event of kind repair.
type Visit struct {
	WorkspaceID int64
	PropertyID  uuid.UUID
	ContractID  *uuid.UUID
	Title       string
	Description string
	Start, End  time.Time
}

// BookVisit stores v as an event through tx, the caller's transaction, so
// the visit and what booked it commit together.
func (s *Service) BookVisit(ctx context.Context, tx bun.IDB, v Visit) (uuid.UUID, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.Nil, fmt.Errorf("event id: %w", err)
	}
	if !v.End.After(v.Start) {
		return uuid.Nil, fmt.Errorf("calendar: a visit ends after it starts")
	}
	now := s.now()
	prop := v.PropertyID
	e := &Event{ID: id, WorkspaceID: v.WorkspaceID, Title: limit(v.Title, 200), Description: limit(v.Description, 4000), Kind: Repair,
		StartsAt: v.Start.UTC(), EndsAt: v.End.UTC(), TimeZone: "UTC", ExDates: "[]", Overrides: "[]",
		PropertyID: &prop, ContractID: v.ContractID, Attendees: "[]", Reminders: "[]", CreatedAt: now, UpdatedAt: now}
	if err := insertEvent(ctx, tx, e); err != nil {
		return uuid.Nil, err
	}
	return id, activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "calendar_event",
		WorkspaceID: v.WorkspaceID, RecordID: id.String(), Changes: activity.Diff(nil, toJSON(e))})
}

// limit cuts s to n runes, as the columns' rules hold them.
func limit(s string, n int) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
