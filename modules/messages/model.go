package messages

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Directions, channels and delivery states of a message.
const (
	Out  = "out"
	In   = "in"
	Note = "note"

	Email  = "email"
	Portal = "portal"
	Post   = "post"

	Queued  = "queued"
	Sent    = "sent"
	Failed  = "failed"
	Bounced = "bounced"
)

// Bounds of a message.
const (
	MaxBody        = 20000 // characters
	MaxSubject     = 300   // characters
	MaxAttachments = 10
	maxTracking    = 64
	maxLastError   = 1000
)

// Thread is a row of message_threads: the conversation with the tenant of
// a contract, or with a contragent about a property.
type Thread struct {
	bun.BaseModel `bun:"table:message_threads"`

	ID           uuid.UUID  `bun:"id,pk"`
	WorkspaceID  int64      `bun:"workspace_id,notnull"`
	PropertyID   uuid.UUID  `bun:"property_id,notnull"`
	ContractID   *uuid.UUID `bun:"contract_id"`
	ContragentID uuid.UUID  `bun:"contragent_id,notnull"`
	Token        string     `bun:"token,notnull"`
	CreatedAt    time.Time  `bun:"created_at,notnull"`
}

// Message is a row of messages.
type Message struct {
	bun.BaseModel `bun:"table:messages"`

	ID                 uuid.UUID   `bun:"id,pk"`
	ThreadID           uuid.UUID   `bun:"thread_id,notnull"`
	PropertyID         uuid.UUID   `bun:"property_id,notnull"`
	ContractID         *uuid.UUID  `bun:"contract_id"`
	ContragentID       uuid.UUID   `bun:"contragent_id,notnull"`
	AuthorUserID       *int64      `bun:"author_user_id"`
	AuthorContragentID *uuid.UUID  `bun:"author_contragent_id"`
	Direction          string      `bun:"direction,notnull"`
	Channel            *string     `bun:"channel"`
	Subject            string      `bun:"subject,notnull"`
	Body               string      `bun:"body,notnull"`
	Attachments        []uuid.UUID `bun:"attachments,notnull"`
	Address            string      `bun:"address,notnull"`
	Delivery           *string     `bun:"delivery"`
	LastError          *string     `bun:"last_error"`
	Attempts           int         `bun:"attempts,notnull"`
	TrackingNumber     *string     `bun:"tracking_number"`
	MessageID          string      `bun:"message_id,notnull"`
	NoticeKey          *string     `bun:"notice_key"`
	SentAt             *time.Time  `bun:"sent_at"`
	CreatedAt          time.Time   `bun:"created_at,notnull"`
	UpdatedAt          time.Time   `bun:"updated_at,notnull"`
}

func ptr[T any](v T) *T { return &v }
