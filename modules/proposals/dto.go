package proposals

import (
	"encoding/json"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// proposalJSON is a proposal as the landlord sees it.
type proposalJSON struct {
	ID            string          `json:"id"`
	PropertyID    string          `json:"property_id"`
	Slug          string          `json:"slug"`
	Status        string          `json:"status"`
	Title         string          `json:"title"`
	Description   string          `json:"description"`
	Rent          money.Amount    `json:"rent"`
	Currency      string          `json:"currency"`
	DepositMonths int             `json:"deposit_months"`
	Deposit       money.Amount    `json:"deposit"`
	AvailableFrom period.Date     `json:"available_from"`
	MinTermMonths int             `json:"min_term_months"`
	Terms         json.RawMessage `json:"terms"`
	Photos        []string        `json:"photos"`
	PublicPath    string          `json:"public_path"`
	PublishedAt   *string         `json:"published_at"`
	ClosedAt      *string         `json:"closed_at"`
	CreatedAt     string          `json:"created_at"`
	UpdatedAt     string          `json:"updated_at"`
}

func proposalView(p *Proposal) proposalJSON {
	v := proposalJSON{ID: p.ID.String(), PropertyID: p.PropertyID.String(), Slug: p.Slug, Status: p.Status,
		Title: p.Title, Description: p.Description, Rent: p.Rent(), Currency: p.Currency,
		DepositMonths: p.DepositMonths, Deposit: p.Rent() * money.Amount(p.DepositMonths),
		AvailableFrom: p.AvailableFrom, MinTermMonths: p.MinTermMonths, Terms: json.RawMessage(p.Terms),
		Photos: p.PhotoList(), PublicPath: "/api/v1/public/proposals/" + p.Slug,
		CreatedAt: properties.Timestamp(p.CreatedAt), UpdatedAt: properties.Timestamp(p.UpdatedAt)}
	if p.PublishedAt != nil {
		t := properties.Timestamp(*p.PublishedAt)
		v.PublishedAt = &t
	}
	if p.ClosedAt != nil {
		t := properties.Timestamp(*p.ClosedAt)
		v.ClosedAt = &t
	}
	return v
}

// publicJSON is the public page: the listing's own fields and where the
// property is to the postal code, nothing of the address line or owner.
type publicJSON struct {
	Slug          string          `json:"slug"`
	Title         string          `json:"title"`
	Description   string          `json:"description"`
	Rent          money.Amount    `json:"rent"`
	Currency      string          `json:"currency"`
	DepositMonths int             `json:"deposit_months"`
	Deposit       money.Amount    `json:"deposit"`
	AvailableFrom period.Date     `json:"available_from"`
	MinTermMonths int             `json:"min_term_months"`
	Terms         json.RawMessage `json:"terms"`
	Photos        []string        `json:"photos"`
	City          string          `json:"city"`
	PostalCode    string          `json:"postal_code"`
	CountryCode   string          `json:"country_code"`
	PublishedAt   string          `json:"published_at"`
}

func publicView(p *Proposal, prop *properties.Property) publicJSON {
	v := publicJSON{Slug: p.Slug, Title: p.Title, Description: p.Description, Rent: p.Rent(), Currency: p.Currency,
		DepositMonths: p.DepositMonths, Deposit: p.Rent() * money.Amount(p.DepositMonths),
		AvailableFrom: p.AvailableFrom, MinTermMonths: p.MinTermMonths, Terms: json.RawMessage(p.Terms),
		Photos: p.PhotoList(), City: prop.City, PostalCode: prop.PostalCode, CountryCode: prop.CountryCode}
	if p.PublishedAt != nil {
		v.PublishedAt = properties.Timestamp(*p.PublishedAt)
	}
	return v
}

// applicationJSON is a confirmed application as the landlord sees it.
type applicationJSON struct {
	ID            string       `json:"id"`
	ProposalID    string       `json:"proposal_id"`
	Status        string       `json:"status"`
	Name          string       `json:"name"`
	Email         string       `json:"email"`
	Phone         string       `json:"phone"`
	Message       string       `json:"message"`
	DesiredStart  *period.Date `json:"desired_start"`
	HouseholdSize int          `json:"household_size"`
	Locale        string       `json:"locale"`
	ConfirmedAt   *string      `json:"confirmed_at"`
	DecidedAt     *string      `json:"decided_at"`
	CreatedAt     string       `json:"created_at"`
}

func applicationView(a *Application) applicationJSON {
	v := applicationJSON{ID: a.ID.String(), ProposalID: a.ProposalID.String(), Status: a.Status, Name: a.Name,
		Email: a.Email, Phone: a.Phone, Message: a.Message, HouseholdSize: a.HouseholdSize, Locale: a.Locale,
		CreatedAt: properties.Timestamp(a.CreatedAt)}
	if !a.DesiredStart.IsZero() {
		d := a.DesiredStart
		v.DesiredStart = &d
	}
	if a.ConfirmedAt != nil {
		t := properties.Timestamp(*a.ConfirmedAt)
		v.ConfirmedAt = &t
	}
	if a.DecidedAt != nil {
		t := properties.Timestamp(*a.DecidedAt)
		v.DecidedAt = &t
	}
	return v
}
