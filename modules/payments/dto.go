package payments

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// paymentRequest is the body of POST .../payments. Amounts and dates
// arrive raw so that each gets its own exact message.
type paymentRequest struct {
	Amount      json.RawMessage      `json:"amount"`
	Currency    *string              `json:"currency"`
	PaidOn      json.RawMessage      `json:"paid_on"`
	Method      *string              `json:"method"`
	Reference   *string              `json:"reference"`
	ContractID  *string              `json:"contract_id"`
	PayerID     *string              `json:"payer_id"`
	Allocations *[]allocationRequest `json:"allocations"`
	// BankAccountID is the workspace's bank account the money came into.
	BankAccountID *string `json:"bank_account_id"`
}

type allocationRequest struct {
	ChargeID *string         `json:"charge_id"`
	Amount   json.RawMessage `json:"amount"`
}

// MaxReferenceLen bounds a payment's reference, MaxReasonLen a reversal's
// reason.
const (
	MaxReferenceLen = 200
	MaxReasonLen    = 500
)

// input checks the request field by field; today is the default paid_on.
func (r *paymentRequest) input(today period.Date) (Input, []string) {
	var in Input
	var details []string
	fail := func(format string, args ...any) { details = append(details, fmt.Sprintf(format, args...)) }
	amount := func(field string, raw json.RawMessage) money.Amount {
		if raw == nil || string(raw) == "null" {
			fail("%s: is required", field)
			return 0
		}
		a, err := money.Parse(raw)
		switch {
		case err != nil:
			fail("%s: %v", field, err)
		case a <= 0:
			fail("%s: must be more than 0", field)
		}
		return a
	}
	in.Amount = amount("amount", r.Amount)
	if r.Currency != nil {
		in.Currency = strings.ToUpper(strings.TrimSpace(*r.Currency))
	}
	in.PaidOn = today
	if r.PaidOn != nil && string(r.PaidOn) != "null" {
		d, err := period.ParseJSON(r.PaidOn)
		if err != nil {
			fail("paid_on: must be a date, YYYY-MM-DD")
		}
		in.PaidOn = d
	}
	switch {
	case r.Method == nil:
		fail("method: is required (%s)", strings.Join(Methods, ", "))
	case !slices.Contains(Methods, *r.Method):
		fail("method: must be one of %s", strings.Join(Methods, ", "))
	default:
		in.Method = *r.Method
	}
	if r.Reference != nil {
		in.Reference = strings.TrimSpace(*r.Reference)
		if utf8.RuneCountInString(in.Reference) > MaxReferenceLen {
			fail("reference: must be at most %d characters", MaxReferenceLen)
		}
	}
	in.ContractID = optionalID(r.ContractID, "contract_id", fail)
	in.PayerID = optionalID(r.PayerID, "payer_id", fail)
	in.BankAccountID = optionalID(r.BankAccountID, "bank_account_id", fail)
	if r.Allocations != nil {
		in.Explicit = true
		if len(*r.Allocations) > MaxAllocations {
			fail("allocations: at most %d", MaxAllocations)
			return in, details
		}
		for i, a := range *r.Allocations {
			field := fmt.Sprintf("allocations[%d]", i)
			var id uuid.UUID
			if a.ChargeID == nil {
				fail("%s.charge_id: is required", field)
			} else if got, err := uuid.Parse(*a.ChargeID); err != nil || len(*a.ChargeID) != 36 {
				fail("%s.charge_id: must be a charge's UUID", field)
			} else {
				id = got
			}
			in.Allocations = append(in.Allocations, AllocationInput{ChargeID: id, Amount: amount(field+".amount", a.Amount)})
		}
	}
	return in, details
}

func optionalID(raw *string, field string, fail func(string, ...any)) *uuid.UUID {
	if raw == nil {
		return nil
	}
	id, err := uuid.Parse(*raw)
	if err != nil || len(*raw) != 36 {
		fail("%s: must be a UUID, or null", field)
		return nil
	}
	return &id
}

// reverseRequest is the body of POST .../payments/{id}/reverse.
type reverseRequest struct {
	Reason *string `json:"reason" validate:"multiline"`
}

// paymentJSON is a payment as clients see it.
type paymentJSON struct {
	ID             string           `json:"id"`
	PropertyID     string           `json:"property_id"`
	ContractID     *string          `json:"contract_id"`
	PayerID        *string          `json:"payer_id"`
	Amount         money.Amount     `json:"amount"`
	Currency       string           `json:"currency"`
	PaidOn         period.Date      `json:"paid_on"`
	Method         string           `json:"method"`
	Reference      string           `json:"reference"`
	Status         string           `json:"status"`
	Allocations    []allocationJSON `json:"allocations"`
	Unallocated    money.Amount     `json:"unallocated"`
	ReversedAt     *string          `json:"reversed_at"`
	ReversalReason *string          `json:"reversal_reason"`
	CreatedAt      string           `json:"created_at"`
	UpdatedAt      string           `json:"updated_at"`
}

type allocationJSON struct {
	ChargeID string       `json:"charge_id"`
	Amount   money.Amount `json:"amount"`
}

func paymentOut(p *Payment) paymentJSON {
	out := paymentJSON{
		ID: p.ID.String(), PropertyID: p.PropertyID.String(), ContractID: idString(p.ContractID), PayerID: idString(p.PayerID),
		Amount: p.Amount, Currency: p.Currency, PaidOn: p.PaidOn, Method: p.Method, Reference: p.Reference,
		Status: p.Status, Allocations: make([]allocationJSON, len(p.Allocations)), Unallocated: p.Unallocated,
		ReversalReason: p.ReversalReason,
		CreatedAt:      properties.Timestamp(p.CreatedAt), UpdatedAt: properties.Timestamp(p.UpdatedAt),
	}
	for i, a := range p.Allocations {
		out.Allocations[i] = allocationJSON{ChargeID: a.ChargeID.String(), Amount: a.Amount}
	}
	if p.ReversedAt != nil {
		at := properties.Timestamp(*p.ReversedAt)
		out.ReversedAt = &at
	}
	return out
}

func idString(id *uuid.UUID) *string {
	if id == nil {
		return nil
	}
	s := id.String()
	return &s
}
