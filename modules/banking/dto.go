package banking

import (
	"encoding/json"

	"github.com/google/uuid"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/money"
)

// LineJSON is a bank line as the API shows it.
type LineJSON struct {
	ID               string        `json:"id"`
	BankAccountID    string        `json:"bank_account_id"`
	Format           string        `json:"format"`
	BookingDate      string        `json:"booking_date"`
	ValueDate        *string       `json:"value_date"`
	Amount           money.Amount  `json:"amount"`
	Currency         string        `json:"currency"`
	CounterpartyName string        `json:"counterparty_name"`
	CounterpartyIBAN string        `json:"counterparty_iban"`
	Remittance       string        `json:"remittance"`
	BankReference    string        `json:"bank_reference"`
	IsReturn         bool          `json:"is_return"`
	ReturnCode       string        `json:"return_code"`
	Status           string        `json:"status"`
	Reasons          []string      `json:"reasons"`
	ContractID       *string       `json:"contract_id"`
	PaymentID        *string       `json:"payment_id"`
	ReturnedBy       *string       `json:"returned_by"`
	EndToEndID       string        `json:"end_to_end_id"`
	Splits           []SplitJSON   `json:"splits"`
	BillProposal     *BillProposal `json:"bill_proposal"`
	CreatedAt        string        `json:"created_at"`
	UpdatedAt        string        `json:"updated_at"`
}

// SplitJSON is one contract's share of a split line.
type SplitJSON struct {
	ContractID string       `json:"contract_id"`
	PaymentID  string       `json:"payment_id"`
	Amount     money.Amount `json:"amount"`
}

func idOut(id *uuid.UUID) *string {
	if id == nil {
		return nil
	}
	s := id.String()
	return &s
}

func lineOut(l *BankLine) LineJSON {
	out := LineJSON{
		ID: l.ID.String(), BankAccountID: l.BankAccountID.String(), Format: l.Format, BookingDate: l.BookingDate.String(),
		Amount: l.Amount, Currency: l.Currency, CounterpartyName: l.CounterpartyName, CounterpartyIBAN: l.CounterpartyIBAN,
		Remittance: l.Remittance, BankReference: l.BankReference, IsReturn: l.IsReturn, ReturnCode: l.ReturnCode,
		Status: l.Status, Reasons: l.Reasons, ContractID: idOut(l.ContractID), PaymentID: idOut(l.PaymentID),
		ReturnedBy: idOut(l.ReturnedBy), CreatedAt: properties.Timestamp(l.CreatedAt), UpdatedAt: properties.Timestamp(l.UpdatedAt),
	}
	if out.Reasons == nil {
		out.Reasons = []string{}
	}
	out.EndToEndID, out.BillProposal = l.EndToEndID, l.BillProposal
	out.Splits = make([]SplitJSON, len(l.Splits))
	for i, sp := range l.Splits {
		out.Splits[i] = SplitJSON{ContractID: sp.ContractID.String(), PaymentID: sp.PaymentID.String(), Amount: sp.Amount}
	}
	if !l.ValueDate.IsZero() {
		v := l.ValueDate.String()
		out.ValueDate = &v
	}
	return out
}

// MappingJSON is a saved CSV mapping as the API shows it.
type MappingJSON struct {
	ID            string     `json:"id"`
	BankAccountID string     `json:"bank_account_id"`
	Name          string     `json:"name"`
	Mapping       CSVMapping `json:"mapping"`
	CreatedAt     string     `json:"created_at"`
	UpdatedAt     string     `json:"updated_at"`
}

// MappingOut is m as the API shows it.
func MappingOut(m *Mapping) MappingJSON {
	return MappingJSON{ID: m.ID.String(), BankAccountID: m.BankAccountID.String(), Name: m.Name, Mapping: m.Spec,
		CreatedAt: properties.Timestamp(m.CreatedAt), UpdatedAt: properties.Timestamp(m.UpdatedAt)}
}

// mappingRequest is the body of a mapping's create and update.
type mappingRequest struct {
	Name    string     `json:"name"`
	Mapping CSVMapping `json:"mapping"`
}

// allocationRequest is one explicit allocation of a match.
type allocationRequest struct {
	ChargeID string          `json:"charge_id"`
	Amount   json.RawMessage `json:"amount"`
}

// matchRequest is the body of POST /bank-lines/{id}/match.
type matchRequest struct {
	ContractID  string              `json:"contract_id"`
	Allocations []allocationRequest `json:"allocations"`
}
