package calendar

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// The kinds of a stored event.
const (
	Viewing    = "viewing"
	Inspection = "inspection"
	Repair     = "repair"
	Meeting    = "meeting"
	Other      = "other"
)

// Kinds are the kinds a client may give a stored event.
var Kinds = []string{Viewing, Inspection, Repair, Meeting, Other}

// The kinds of a derived event: computed from contracts on every read.
const (
	RentDue         = "rent_due"
	ContractStart   = "contract_start"
	ContractEnd     = "contract_end"
	Indexation      = "indexation"
	DepositDeadline = "deposit_deadline"
	// OpcostDeadline is the day a building's operating-cost statement
	// must reach its tenants (opcosts module, when it is on).
	OpcostDeadline = "opcost_deadline"
)

// DerivedKinds are the kinds of derived events.
var DerivedKinds = []string{RentDue, ContractStart, ContractEnd, Indexation, DepositDeadline, OpcostDeadline}

// Bounds of an event.
const (
	maxTitle       = 200
	maxDescription = 5000
	maxRRule       = 500
	maxExDates     = 200
	maxOverrides   = 100
	maxAttendees   = 50
	maxReminders   = 5
	maxReminderMin = 40320 // four weeks
	// maxPerYear is how many occurrences a rule may have in its first 366
	// days, maxTotal how many a rule that ends may have at all: a landlord's
	// calendar needs neither hourly events nor millions of them.
	maxPerYear = 1000
	maxTotal   = 10000
	// maxWindowDays bounds GET /calendar-events?from&to.
	maxWindowDays = 366
	// maxWindowOccurrences bounds one window's stored occurrences.
	maxWindowOccurrences = 50000
)

// Event is a row of calendar_events.
type Event struct {
	bun.BaseModel `bun:"table:calendar_events"`

	ID          uuid.UUID `bun:"id,pk"`
	WorkspaceID int64     `bun:"workspace_id,notnull"`
	Title       string    `bun:"title,notnull"`
	Description string    `bun:"description,notnull"`
	Kind        string    `bun:"kind,notnull"`
	// StartsAt and EndsAt are instants; an all-day event's are midnight UTC
	// of its first and last day.
	StartsAt time.Time `bun:"starts_at,notnull"`
	EndsAt   time.Time `bun:"ends_at,notnull"`
	AllDay   bool      `bun:"all_day,notnull"`
	TimeZone string    `bun:"time_zone,notnull"`
	// RRule is the normalised RFC 5545 rule without DTSTART, "" when the
	// event happens once.
	RRule string `bun:"rrule,notnull"`
	// UntilAt is the end of the last occurrence, nil for a rule without end.
	UntilAt *time.Time `bun:"until_at"`
	// ExDates, Overrides, Attendees and Reminders are JSON text.
	ExDates    string     `bun:"exdates,notnull"`
	Overrides  string     `bun:"overrides,notnull"`
	PropertyID *uuid.UUID `bun:"property_id"`
	ContractID *uuid.UUID `bun:"contract_id"`
	Attendees  string     `bun:"attendees,notnull"`
	Reminders  string     `bun:"reminders,notnull"`
	Sequence   int        `bun:"sequence,notnull"`
	CreatedBy  *int64     `bun:"created_by"`
	CreatedAt  time.Time  `bun:"created_at,notnull"`
	UpdatedAt  time.Time  `bun:"updated_at,notnull"`
}

// Override is one occurrence of a recurring event moved or retitled.
type Override struct {
	// Occurrence is the start the rule gives the occurrence (its
	// RECURRENCE-ID), an instant, or midnight UTC of the day when all-day.
	Occurrence  time.Time `json:"occurrence"`
	StartsAt    time.Time `json:"starts_at"`
	EndsAt      time.Time `json:"ends_at"`
	Title       *string   `json:"title,omitempty"`
	Description *string   `json:"description,omitempty"`
}

// FeedToken is a row of calendar_feed_tokens.
type FeedToken struct {
	bun.BaseModel `bun:"table:calendar_feed_tokens"`

	WorkspaceID int64     `bun:"workspace_id,pk"`
	UserID      int64     `bun:"user_id,pk"`
	TokenHash   string    `bun:"token_hash,notnull"`
	CreatedAt   time.Time `bun:"created_at,notnull"`
}

// ReminderSent is a row of calendar_reminders_sent.
type ReminderSent struct {
	bun.BaseModel `bun:"table:calendar_reminders_sent"`

	EventID    uuid.UUID `bun:"event_id,pk"`
	Occurrence time.Time `bun:"occurrence,pk"`
	Minutes    int       `bun:"minutes,pk"`
	SentAt     time.Time `bun:"sent_at,notnull"`
}
