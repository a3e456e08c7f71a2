package expenses

import (
	"encoding/json"
	"strings"

	"github.com/google/uuid"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
	"github.com/propman/propman/platform/validate"
)

// expenseRequest is the body of POST and PUT of an expense. Money and dates
// arrive as raw JSON so they are read exactly and reported by field; fields
// a client may not set (id, property_id, timestamps) are absent, so ignored.
type expenseRequest struct {
	Name      *string         `json:"name" validate:"omitnil,min=1,max=200"`
	Type      *string         `json:"type" validate:"omitnil,oneof=MANUAL MONTHLY QUARTERLY YEARLY"`
	Amount    json.RawMessage `json:"amount"`
	Currency  *string         `json:"currency" validate:"omitnil,len=3"`
	IsActive  *bool           `json:"is_active"`
	StartDate json.RawMessage `json:"start_date"`
	EndDate   json.RawMessage `json:"end_date"`
	DueDay    *int            `json:"due_day" validate:"omitnil,min=1,max=28"`
}

// input checks r and returns the service input, or one message per broken
// rule.
func (r *expenseRequest) input() (ExpenseInput, []string) {
	trim(r.Name, r.Currency, r.Type)
	if r.Type != nil {
		*r.Type = strings.ToUpper(*r.Type)
	}
	details := validate.Struct(r)
	in := ExpenseInput{Name: r.Name, Type: r.Type, Currency: r.Currency, IsActive: r.IsActive, DueDay: r.DueDay}
	var msg string
	if in.Amount, msg = positiveAmount("amount", r.Amount); msg != "" {
		details = append(details, msg)
	}
	if r.StartDate != nil {
		d, err := period.ParseJSON(r.StartDate)
		if err != nil {
			details = append(details, "start_date: "+err.Error())
		}
		in.StartDate = &d
	}
	if r.EndDate != nil {
		in.SetEndDate = true
		if string(r.EndDate) != "null" {
			d, err := period.ParseJSON(r.EndDate)
			if err != nil {
				details = append(details, "end_date: "+err.Error()+", or null")
			}
			in.EndDate = d
		}
	}
	return in, details
}

// chargeRequest is the body of POST of a manual charge.
type chargeRequest struct {
	Name     *string         `json:"name" validate:"omitnil,min=1,max=200"`
	Amount   json.RawMessage `json:"amount"`
	Currency *string         `json:"currency" validate:"omitnil,len=3"`
	Period   *string         `json:"period" validate:"omitnil,max=7"`
	DueDate  json.RawMessage `json:"due_date"`
	Status   *string         `json:"status" validate:"omitnil,oneof=unpaid paid cancelled"`
}

func (r *chargeRequest) input() (ChargeInput, []string) {
	trim(r.Name, r.Currency, r.Period, r.Status)
	details := validate.Struct(r)
	in := ChargeInput{Name: r.Name, Currency: r.Currency, Period: r.Period, Status: r.Status}
	var msg string
	if in.Amount, msg = positiveAmount("amount", r.Amount); msg != "" {
		details = append(details, msg)
	}
	if r.Period != nil && len(*r.Period) <= 7 && !period.ValidLabel(*r.Period) {
		details = append(details, "period: must be a month (2026-11), a quarter (2026-Q4) or a year (2026)")
	}
	if r.DueDate != nil {
		d, err := period.ParseJSON(r.DueDate)
		if err != nil {
			details = append(details, "due_date: "+err.Error())
		}
		in.DueDate = &d
	}
	return in, details
}

// positiveAmount reads an optional amount that must be more than 0.
func positiveAmount(field string, raw json.RawMessage) (*money.Amount, string) {
	if raw == nil {
		return nil, ""
	}
	a, err := money.Parse(raw)
	if err != nil {
		return nil, field + ": " + err.Error()
	}
	if a <= 0 {
		return nil, field + ": must be more than 0"
	}
	return &a, ""
}

func trim(fields ...*string) {
	for _, f := range fields {
		if f != nil {
			*f = strings.TrimSpace(*f)
		}
	}
}

// expenseJSON is an expense as clients see it. Amounts are JSON numbers
// with exactly 2 decimals.
type expenseJSON struct {
	ID         string       `json:"id"`
	PropertyID string       `json:"property_id"`
	Name       string       `json:"name"`
	NameKind   string       `json:"name_kind"`
	Type       string       `json:"type"`
	Amount     money.Amount `json:"amount"`
	Currency   string       `json:"currency"`
	IsActive   bool         `json:"is_active"`
	StartDate  period.Date  `json:"start_date"`
	EndDate    *period.Date `json:"end_date"`
	DueDay     int          `json:"due_day"`
	ContractID *string      `json:"contract_id"`
	CreatedAt  string       `json:"created_at"`
	UpdatedAt  string       `json:"updated_at"`
}

func expenseOut(e *Expense) expenseJSON {
	out := expenseJSON{
		ID: e.ID.String(), PropertyID: e.PropertyID.String(), Name: e.Name, NameKind: e.GeneratedName().Kind, Type: e.Type,
		Amount: e.Amount, Currency: e.Currency, IsActive: e.IsActive, StartDate: e.StartDate,
		DueDay: e.DueDay, CreatedAt: properties.Timestamp(e.CreatedAt), UpdatedAt: properties.Timestamp(e.UpdatedAt),
	}
	if !e.EndDate.IsZero() {
		end := e.EndDate
		out.EndDate = &end
	}
	out.ContractID = uuidString(e.ContractID)
	return out
}

// chargeJSON is a charge as clients see it.
type chargeJSON struct {
	ID         string       `json:"id"`
	PropertyID string       `json:"property_id"`
	ExpenseID  *string      `json:"expense_id"`
	Name       string       `json:"name"`
	NameKind   string       `json:"name_kind"`
	Amount     money.Amount `json:"amount"`
	Currency   string       `json:"currency"`
	Period     string       `json:"period"`
	DueDate    period.Date  `json:"due_date"`
	Status     string       `json:"status"`
	PaidAmount money.Amount `json:"paid_amount"`
	// Outstanding is amount - paid_amount, 0 for a cancelled charge.
	Outstanding money.Amount `json:"outstanding"`
	Kind        string       `json:"kind"`
	PenaltyFor  *string      `json:"penalty_for"`
	ContractID  *string      `json:"contract_id"`
	CreatedAt   string       `json:"created_at"`
}

func chargeOut(c *Charge) chargeJSON {
	out := chargeJSON{
		ID: c.ID.String(), PropertyID: c.PropertyID.String(), Name: c.Name, NameKind: c.GeneratedName().Kind, Amount: c.Amount,
		Currency: c.Currency, Period: c.Period, DueDate: c.DueDate, Status: c.State(),
		PaidAmount: c.PaidAmount, Outstanding: c.Outstanding(), Kind: c.Kind,
		CreatedAt: properties.Timestamp(c.CreatedAt),
	}
	out.PenaltyFor = uuidString(c.PenaltyFor)
	out.ExpenseID = uuidString(c.ExpenseID)
	out.ContractID = uuidString(c.ContractID)
	return out
}

// uuidString is id as text, or nil.
func uuidString(id *uuid.UUID) *string {
	if id == nil {
		return nil
	}
	s := id.String()
	return &s
}
