package contracts

import (
	"encoding/json"
	"strings"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// contractRequest is the body of POST and PUT. Read-only fields (id,
// status, derived fields, timestamps) are absent, so ignored.
type contractRequest struct {
	PropertyID *string        `json:"property_id"`
	TenantID   *string        `json:"tenant_id"`
	Number     *string        `json:"number"`
	Locale     *string        `json:"locale"`
	Terms      *[]termRequest `json:"terms"`
	// The money settings: the only fields a contract that left draft
	// still takes.
	AllocationOrder *string `json:"allocation_order"`
	LateFeeBase     *string `json:"late_fee_base"`
	// BankAccountID names the account the rent is paid to; "" goes back
	// to the workspace's default. A setting too: it changes in any status.
	BankAccountID *string `json:"bank_account_id"`
	// DepositInterestRate: a yearly percentage, null for none.
	DepositInterestRate json.RawMessage `json:"deposit_interest_rate"`
}

// onlySettings reports whether r changes nothing but the money settings
// and the account the rent is paid to.
func (r *contractRequest) onlySettings() bool {
	return r.PropertyID == nil && r.TenantID == nil && r.Number == nil && r.Locale == nil && r.Terms == nil
}

// terminateRequest is the body of POST /contracts/{id}/terminate.
type terminateRequest struct {
	Date   json.RawMessage `json:"date"`
	Reason *string         `json:"reason" validate:"multiline"`
	// TerminatedBy is landlord, tenant or mutual (optional).
	TerminatedBy *string `json:"terminated_by"`
	// NoticeReceivedOn is the day the tenant's notice arrived (optional,
	// only with terminated_by tenant).
	NoticeReceivedOn json.RawMessage `json:"notice_received_on"`
}

func encodeTerms(ts []Term) string {
	if ts == nil {
		ts = []Term{}
	}
	b, _ := json.Marshal(ts)
	return string(b)
}

// contractJSON is a contract as clients see it.
type contractJSON struct {
	ID                string          `json:"id"`
	PropertyID        string          `json:"property_id"`
	TenantID          string          `json:"tenant_id"`
	Number            string          `json:"number"`
	Status            string          `json:"status"`
	Locale            string          `json:"locale"`
	Terms             json.RawMessage `json:"terms"`
	StartDate         *period.Date    `json:"start_date"`
	EndDate           *period.Date    `json:"end_date"`
	Rent              *money.Amount   `json:"rent"`
	NextRent          *nextRentJSON   `json:"next_rent"`
	Currency          string          `json:"currency"`
	DueDay            int             `json:"due_day"`
	Deposit           *money.Amount   `json:"deposit"`
	TerminatedOn      *period.Date    `json:"terminated_on"`
	TerminationReason *string         `json:"termination_reason"`
	TerminatedBy      *string         `json:"terminated_by"`
	NoticeReceivedOn  *period.Date    `json:"notice_received_on"`
	AllocationOrder   string          `json:"allocation_order"`
	LateFeeBase       string          `json:"late_fee_base"`
	BankAccountID     *string         `json:"bank_account_id"`
	// DepositInterestRate is a yearly percentage (null: none configured).
	DepositInterestRate *InterestRate `json:"deposit_interest_rate"`
	SignedDocument      *signedJSON   `json:"signed_document"`
	CreatedAt           string        `json:"created_at"`
	UpdatedAt           string        `json:"updated_at"`
}

func date(d period.Date) *period.Date {
	if d.IsZero() {
		return nil
	}
	return &d
}

// toJSON returns a function rendering contracts as seen on the day today.
func toJSON(today period.Date) func(c *Contract) contractJSON {
	return func(c *Contract) contractJSON {
		out := contractJSON{
			ID: c.ID.String(), PropertyID: c.PropertyID.String(), TenantID: c.TenantID.String(),
			Number: c.Number, Status: c.StatusOn(today), Locale: c.Locale, Terms: json.RawMessage(c.Terms),
			StartDate: date(c.StartDate), EndDate: date(c.EndDate), Currency: c.Currency,
			DueDay: c.DueDay, Deposit: c.Deposit(), TerminatedOn: date(c.TerminatedOn),
			AllocationOrder: c.AllocationOrder, LateFeeBase: c.LateFeeBase, DepositInterestRate: c.DepositInterest(),
			CreatedAt: properties.Timestamp(c.CreatedAt), UpdatedAt: properties.Timestamp(c.UpdatedAt),
		}
		if c.BankAccountID != nil {
			id := c.BankAccountID.String()
			out.BankAccountID = &id
		}
		if c.SignedDocumentID != nil {
			out.SignedDocument = &signedJSON{ID: c.SignedDocumentID.String(), SHA256: c.SignedSHA256,
				CreatedAt: properties.Timestamp(c.SignedAt)}
		}
		if c.Status == Terminated {
			r := c.TerminationReason
			out.TerminationReason = &r
			if c.TerminatedBy != "" {
				by := c.TerminatedBy
				out.TerminatedBy = &by
			}
			out.NoticeReceivedOn = date(c.NoticeReceivedOn)
			// The tenancy ends on the termination date: end_date says so
			// (LANDLORD-CORE: ending, with end_date).
			if c.EndDate.IsZero() || c.TerminatedOn.Before(c.EndDate) {
				out.EndDate = date(c.TerminatedOn)
			}
		}
		// The rent in force today; a scheduled indexation is next_rent.
		var next *money.Amount
		var from period.Date
		out.Rent, next, from = c.RentOn(today)
		if next != nil {
			out.NextRent = &nextRentJSON{Amount: *next, From: from}
		}
		if strings.TrimSpace(c.Terms) == "" {
			out.Terms = json.RawMessage("[]")
		}
		return out
	}
}

// signedJSON names the stored PDF of the lease as it was activated.
type signedJSON struct {
	ID        string `json:"id"`
	SHA256    string `json:"sha256"`
	CreatedAt string `json:"created_at"`
}

// nextRentJSON is an indexation scheduled for a later day.
type nextRentJSON struct {
	Amount money.Amount `json:"amount"`
	From   period.Date  `json:"from"`
}

// rentRequest is the body of POST /contracts/{id}/rent.
type rentRequest struct {
	Amount json.RawMessage `json:"amount"`
	From   json.RawMessage `json:"from"`
	Index  *Index          `json:"index"`
}

// rentJSON is one entry of the rent history.
type rentJSON struct {
	From      period.Date  `json:"from"`
	Amount    money.Amount `json:"amount"`
	ExpenseID string       `json:"expense_id"`
	// Index is the index the change followed (null: none recorded), with
	// its change in percent.
	Index *indexJSON `json:"index"`
}

type indexJSON struct {
	Index
	ChangePercent string `json:"change_percent"`
}

type rentListJSON struct {
	Rents []rentJSON `json:"rents"`
}
