package proposals

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// The states of a proposal.
const (
	Draft     = "draft"
	Published = "published"
	Closed    = "closed"
)

// The states of an application. Pending ones (email not confirmed) are
// never shown.
const (
	Pending     = "pending"
	New         = "new"
	Shortlisted = "shortlisted"
	Declined    = "declined"
)

// Proposal is a row of proposals.
type Proposal struct {
	bun.BaseModel `bun:"table:proposals"`

	ID            uuid.UUID   `bun:"id,pk"`
	WorkspaceID   int64       `bun:"workspace_id,notnull"`
	OwnerID       int64       `bun:"owner_id,notnull"`
	PropertyID    uuid.UUID   `bun:"property_id,notnull"`
	Slug          string      `bun:"slug,notnull"`
	Status        string      `bun:"status,notnull"`
	Title         string      `bun:"title,notnull"`
	Description   string      `bun:"description,notnull"`
	RentMinor     int64       `bun:"rent_minor,notnull"`
	Currency      string      `bun:"currency,notnull"`
	DepositMonths int         `bun:"deposit_months,notnull"`
	AvailableFrom period.Date `bun:"available_from,notnull"`
	MinTermMonths int         `bun:"min_term_months,notnull"`
	// Terms is the JSON array of contracts.Term, Photos of document ids.
	Terms       string     `bun:"terms,notnull"`
	Photos      string     `bun:"photos,notnull"`
	PublishedAt *time.Time `bun:"published_at"`
	ClosedAt    *time.Time `bun:"closed_at"`
	CreatedAt   time.Time  `bun:"created_at,notnull"`
	UpdatedAt   time.Time  `bun:"updated_at,notnull"`
}

// Rent is the monthly rent asked.
func (p *Proposal) Rent() money.Amount { return money.Amount(p.RentMinor) }

// TermList decodes the stored terms.
func (p *Proposal) TermList() []contracts.Term {
	var ts []contracts.Term
	if json.Unmarshal([]byte(p.Terms), &ts) != nil || ts == nil {
		return []contracts.Term{}
	}
	return ts
}

// PhotoList decodes the stored document ids.
func (p *Proposal) PhotoList() []string {
	var ids []string
	if json.Unmarshal([]byte(p.Photos), &ids) != nil || ids == nil {
		return []string{}
	}
	return ids
}

// Application is a row of proposal_applications.
type Application struct {
	bun.BaseModel `bun:"table:proposal_applications"`

	ID            uuid.UUID   `bun:"id,pk"`
	WorkspaceID   int64       `bun:"workspace_id,notnull"`
	ProposalID    uuid.UUID   `bun:"proposal_id,notnull"`
	Status        string      `bun:"status,notnull"`
	Name          string      `bun:"name,notnull"`
	Email         string      `bun:"email,notnull"`
	Phone         string      `bun:"phone,notnull"`
	Message       string      `bun:"message,notnull"`
	DesiredStart  period.Date `bun:"desired_start,nullzero"`
	HouseholdSize int         `bun:"household_size,notnull"`
	Locale        string      `bun:"locale,notnull"`
	CodeHash      string      `bun:"code_hash,notnull"`
	CodeAttempts  int         `bun:"code_attempts,notnull"`
	CodeExpiresMS int64       `bun:"code_expires_ms,notnull"`
	ConfirmedAt   *time.Time  `bun:"confirmed_at"`
	DecidedAt     *time.Time  `bun:"decided_at"`
	CreatedAt     time.Time   `bun:"created_at,notnull"`
	UpdatedAt     time.Time   `bun:"updated_at,notnull"`
}
