package compensations

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/propman/propman/modules/contracts"

	"github.com/google/uuid"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Bounds of untrusted input.
const (
	maxDeductions = 100
	maxEvidence   = 20
)

// compensationJSON is a compensation as clients see it.
type compensationJSON struct {
	ID           string       `json:"id"`
	PropertyID   string       `json:"property_id"`
	ContractID   string       `json:"contract_id"`
	Kind         string       `json:"kind"`
	Amount       money.Amount `json:"amount"`
	Currency     string       `json:"currency"`
	Description  string       `json:"description"`
	Status       string       `json:"status"`
	PaymentID    *string      `json:"payment_id"`
	Method       *string      `json:"method"`
	Reference    *string      `json:"reference"`
	PaidOn       *period.Date `json:"paid_on"`
	Reason       string       `json:"reason"`
	SettlementID *string      `json:"settlement_id"`
	CreatedAt    string       `json:"created_at"`
	UpdatedAt    string       `json:"updated_at"`
}

func idString(id *uuid.UUID) *string {
	if id == nil {
		return nil
	}
	s := id.String()
	return &s
}

func toJSON(cp *Compensation) compensationJSON {
	out := compensationJSON{ID: cp.ID.String(), PropertyID: cp.PropertyID.String(), ContractID: cp.ContractID.String(),
		Kind: cp.Kind, Amount: cp.Amount, Currency: cp.Currency, Description: cp.Description, Status: cp.Status,
		PaymentID: idString(cp.PaymentID), Method: cp.Method, Reference: cp.Reference, Reason: cp.Reason,
		SettlementID: idString(cp.SettlementID), CreatedAt: properties.Timestamp(cp.CreatedAt), UpdatedAt: properties.Timestamp(cp.UpdatedAt)}
	if !cp.PaidOn.IsZero() {
		d := cp.PaidOn
		out.PaidOn = &d
	}
	return out
}

func compensationOut(cp *Compensation) compensationJSON { return toJSON(cp) }

// createRequest is the body of POST .../compensations.
type createRequest struct {
	ContractID  string          `json:"contract_id"`
	Kind        string          `json:"kind"`
	Amount      json.RawMessage `json:"amount"`
	Description string          `json:"description" validate:"multiline"`
}

func positive(details *[]string, field string, raw json.RawMessage) money.Amount {
	if raw == nil || string(raw) == "null" {
		*details = append(*details, field+": is required")
		return 0
	}
	a, err := money.Parse(raw)
	switch {
	case err != nil:
		*details = append(*details, field+": "+err.Error())
	case a <= 0:
		*details = append(*details, field+": must be more than 0")
	}
	return a
}

func (r *createRequest) input() (Input, []string) {
	var in Input
	var details []string
	id, err := uuid.Parse(r.ContractID)
	if err != nil || len(r.ContractID) != 36 {
		details = append(details, "contract_id: must be the id of a contract of this property")
	}
	in.ContractID = id
	if !slices.Contains(Kinds, r.Kind) {
		details = append(details, "kind: must be one of "+strings.Join(Kinds, ", "))
	}
	in.Kind = r.Kind
	in.Amount = positive(&details, "amount", r.Amount)
	in.Description = strings.TrimSpace(r.Description)
	if utf8.RuneCountInString(in.Description) > 2000 {
		details = append(details, "description: must be at most 2000 characters")
	}
	return in, details
}

// payOutRequest is the body of POST .../pay-out.
type payOutRequest struct {
	Method    string          `json:"method"`
	Reference string          `json:"reference"`
	PaidOn    json.RawMessage `json:"paid_on"`
}

func (r *payOutRequest) input(today period.Date) (PayOut, []string) {
	var out PayOut
	var details []string
	if !slices.Contains(payoutMethods, r.Method) {
		details = append(details, "method: must be one of "+strings.Join(payoutMethods, ", "))
	}
	out.Method = r.Method
	out.Reference = strings.TrimSpace(r.Reference)
	if utf8.RuneCountInString(out.Reference) > 200 {
		details = append(details, "reference: must be at most 200 characters")
	}
	out.PaidOn = today
	if r.PaidOn != nil && string(r.PaidOn) != "null" {
		d, err := period.ParseJSON(r.PaidOn)
		switch {
		case err != nil:
			details = append(details, "paid_on: "+err.Error())
		case d.After(today):
			details = append(details, "paid_on: must not be in the future")
		default:
			out.PaidOn = d
		}
	}
	return out, details
}

// reasonRequest is the body of cancel and reverse.
type reasonRequest struct {
	Reason string `json:"reason" validate:"multiline"`
}

// settleRequest is the body of POST .../deposit-settlements.
type settleRequest struct {
	ContractID string `json:"contract_id"`
	// InterestRate is the yearly rate in percent the deposit earned.
	InterestRate json.RawMessage `json:"interest_rate"`
	Deductions   []struct {
		Reason   string          `json:"reason"`
		Amount   json.RawMessage `json:"amount"`
		Evidence []string        `json:"evidence"`
	} `json:"deductions"`
}

func (r *settleRequest) input() (SettleInput, []string) {
	var in SettleInput
	var details []string
	id, err := uuid.Parse(r.ContractID)
	if err != nil || len(r.ContractID) != 36 {
		details = append(details, "contract_id: must be the id of a contract of this property")
	}
	in.ContractID = id
	if r.InterestRate != nil && strings.TrimSpace(string(r.InterestRate)) != "null" {
		if rate, err := contracts.ParseInterestRate(r.InterestRate); err != nil {
			details = append(details, "interest_rate: "+err.Error())
		} else {
			in.InterestRate = &rate
		}
	}
	if len(r.Deductions) > maxDeductions {
		return in, append(details, fmt.Sprintf("deductions: at most %d", maxDeductions))
	}
	in.Deductions = []Deduction{}
	for i, d := range r.Deductions {
		field := fmt.Sprintf("deductions[%d]", i)
		reason := strings.TrimSpace(d.Reason)
		if n := utf8.RuneCountInString(reason); n < 1 || n > 500 {
			details = append(details, field+".reason: must be 1 to 500 characters")
		}
		amount := positive(&details, field+".amount", d.Amount)
		if len(d.Evidence) > maxEvidence {
			details = append(details, fmt.Sprintf("%s.evidence: at most %d documents", field, maxEvidence))
			d.Evidence = nil
		}
		ev := []string{}
		for j, raw := range d.Evidence {
			id, err := uuid.Parse(raw)
			if err != nil || len(raw) != 36 {
				details = append(details, fmt.Sprintf("%s.evidence[%d]: must be a document id", field, j))
				continue
			}
			ev = append(ev, id.String())
			if !slices.Contains(in.evidence, id) {
				in.evidence = append(in.evidence, id)
			}
		}
		in.Deductions = append(in.Deductions, Deduction{Reason: reason, Amount: amount, Evidence: ev})
	}
	return in, details
}

// settlementJSON is a settlement as clients see it.
type settlementJSON struct {
	ID               string       `json:"id"`
	PropertyID       string       `json:"property_id"`
	ContractID       string       `json:"contract_id"`
	Currency         string       `json:"currency"`
	EndedOn          period.Date  `json:"ended_on"`
	SettledOn        period.Date  `json:"settled_on"`
	DepositHeld      money.Amount `json:"deposit_held"`
	Owed             money.Amount `json:"owed"`
	Deductions       []Deduction  `json:"deductions"`
	DeductionsTotal  money.Amount `json:"deductions_total"`
	AppliedToOwed    money.Amount `json:"applied_to_owed"`
	Refund           money.Amount `json:"refund"`
	StillOwed        money.Amount `json:"still_owed"`
	AppliedPaymentID *string      `json:"applied_payment_id"`
	CompensationID   *string      `json:"compensation_id"`
	Deadline         period.Date  `json:"deadline"`
	Statutory        bool         `json:"statutory"`
	Matching         *bool        `json:"matching"`
	// InterestRate is the yearly rate in percent the deposit's interest
	// was computed at (null: none applies); Interest is part of Refund.
	InterestRate  *contracts.InterestRate `json:"interest_rate"`
	Interest      money.Amount            `json:"interest"`
	InterestLines []InterestLine          `json:"interest_lines"`
	CreatedAt     string                  `json:"created_at"`
}

func settlementOut(st *Settlement) settlementJSON {
	out := settlementJSON{ID: st.ID.String(), PropertyID: st.PropertyID.String(), ContractID: st.ContractID.String(),
		Currency: st.Currency, EndedOn: st.EndedOn, SettledOn: st.SettledOn, DepositHeld: st.Held, Owed: st.Owed,
		Deductions: []Deduction{}, DeductionsTotal: st.DeductionsTotal, AppliedToOwed: st.Applied, Refund: st.Refund,
		StillOwed: st.StillOwed, AppliedPaymentID: idString(st.AppliedPaymentID), CompensationID: idString(st.CompensationID),
		Deadline: st.Deadline, Statutory: st.Statutory, Matching: st.Matching, CreatedAt: properties.Timestamp(st.CreatedAt)}
	_ = json.Unmarshal([]byte(st.Deductions), &out.Deductions)
	out.Interest, out.InterestLines = st.Interest, []InterestLine{}
	if st.InterestRateE4 != nil {
		r := contracts.InterestRate(*st.InterestRateE4)
		out.InterestRate = &r
	}
	_ = json.Unmarshal([]byte(st.InterestLines), &out.InterestLines)
	return out
}

// payoutMethods are the ways money is paid out to a tenant: the payment
// methods that move money out (no direct debit, no set-off).
var payoutMethods = []string{"bank_transfer", "cash", "card", "cheque", "other"}
