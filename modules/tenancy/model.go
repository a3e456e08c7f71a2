package tenancy

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Invitation statuses. An invitation past its expiry stays pending in the
// table and is shown as expired.
const (
	Pending  = "pending"
	Accepted = "accepted"
	Revoked  = "revoked"
	Expired  = "expired"
)

// Invitation is a row of portal_invitations.
type Invitation struct {
	bun.BaseModel `bun:"table:portal_invitations"`

	ID           int64     `bun:"id,pk,autoincrement"`
	WorkspaceID  int64     `bun:"workspace_id,notnull"`
	ContragentID uuid.UUID `bun:"contragent_id,notnull"`
	Email        string    `bun:"email,notnull"`
	TokenHash    string    `bun:"token_hash,notnull"`
	Status       string    `bun:"status,notnull"`
	ExpiresAt    time.Time `bun:"expires_at,notnull"`
	InvitedBy    int64     `bun:"invited_by,notnull"`
	AcceptedBy   *int64    `bun:"accepted_by"`
	CreatedAt    time.Time `bun:"created_at,notnull"`
	UpdatedAt    time.Time `bun:"updated_at,notnull"`
}

// StatusAt is the status a client sees at now.
func (i *Invitation) StatusAt(now time.Time) string {
	if i.Status == Pending && !now.Before(i.ExpiresAt) {
		return Expired
	}
	return i.Status
}
