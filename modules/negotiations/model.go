package negotiations

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
)

// The states of a negotiation.
const (
	Open     = "open"
	Agreed   = "agreed"
	Declined = "declined"
	Expired  = "expired"
)

// The sides of a negotiation.
const (
	Landlord  = "landlord"
	Applicant = "applicant"
)

// Negotiation is a row of negotiations.
type Negotiation struct {
	bun.BaseModel `bun:"table:negotiations"`

	ID            uuid.UUID  `bun:"id,pk"`
	WorkspaceID   int64      `bun:"workspace_id,notnull"`
	PropertyID    uuid.UUID  `bun:"property_id,notnull"`
	ProposalID    uuid.UUID  `bun:"proposal_id,notnull"`
	ApplicationID uuid.UUID  `bun:"application_id,notnull"`
	Status        string     `bun:"status,notnull"`
	CurrentRound  int        `bun:"current_round,notnull"`
	AgreedRound   *int       `bun:"agreed_round"`
	DeclinedBy    *string    `bun:"declined_by"`
	ExpiresAt     time.Time  `bun:"expires_at,notnull"`
	ContractID    *uuid.UUID `bun:"contract_id"`
	TenantID      *uuid.UUID `bun:"tenant_id"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	UpdatedAt     time.Time  `bun:"updated_at,notnull"`
}

// Round is a row of negotiation_rounds: one side's offer.
type Round struct {
	bun.BaseModel `bun:"table:negotiation_rounds"`

	NegotiationID     uuid.UUID `bun:"negotiation_id,pk"`
	Round             int       `bun:"round,pk"`
	Side              string    `bun:"side,notnull"`
	Terms             string    `bun:"terms,notnull"`
	Message           string    `bun:"message,notnull"`
	LandlordAccepted  bool      `bun:"landlord_accepted,notnull"`
	ApplicantAccepted bool      `bun:"applicant_accepted,notnull"`
	CreatedAt         time.Time `bun:"created_at,notnull"`
}

// TermList decodes the round's terms.
func (r *Round) TermList() []contracts.Term {
	var ts []contracts.Term
	if json.Unmarshal([]byte(r.Terms), &ts) != nil || ts == nil {
		return []contracts.Term{}
	}
	return ts
}
