package bills

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// optional is a field a partial update may set, clear (JSON null) or
// leave alone (absent).
type optional[T any] struct {
	Set   bool
	Value *T
}

// UnmarshalJSON is called for null too, which clears the field.
func (o *optional[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		o.Value = nil
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	o.Value = &v
	return nil
}

// Input is the body of POST (supplier_id, bill_date, amount and category
// required) and PUT (every field optional).
type Input struct {
	SupplierID        *string               `json:"supplier_id"`
	BillDate          *period.Date          `json:"bill_date"`
	DueDate           *period.Date          `json:"due_date"`
	PaidOn            optional[period.Date] `json:"paid_on"`
	Amount            *money.Amount         `json:"amount"`
	VATAmount         *money.Amount         `json:"vat_amount"`
	VATRate           *money.Amount         `json:"vat_rate"`
	Category          *string               `json:"category"`
	OperatingCategory optional[string]      `json:"operating_cost_category"`
	Allocable         *bool                 `json:"allocable"`
	DocumentID        optional[string]      `json:"document_id"`
	Note              *string               `json:"note" validate:"omitnil,max=2000,multiline"`
	details           []string
}

// missing names the fields a new bill needs that in lacks.
func (in *Input) missing() []string {
	var out []string
	if in.SupplierID == nil {
		out = append(out, "supplier_id")
	}
	if in.BillDate == nil {
		out = append(out, "bill_date")
	}
	if in.Amount == nil {
		out = append(out, "amount")
	}
	if in.Category == nil {
		out = append(out, "category")
	}
	return out
}

// billJSON is a bill as clients see it.
type billJSON struct {
	ID                string        `json:"id"`
	PropertyID        string        `json:"property_id"`
	SupplierID        string        `json:"supplier_id"`
	BillDate          period.Date   `json:"bill_date"`
	DueDate           period.Date   `json:"due_date"`
	PaidOn            *period.Date  `json:"paid_on"`
	Status            string        `json:"status"`
	Amount            money.Amount  `json:"amount"`
	VATAmount         money.Amount  `json:"vat_amount"`
	VATRate           *money.Amount `json:"vat_rate"`
	NetAmount         money.Amount  `json:"net_amount"`
	Currency          string        `json:"currency"`
	Category          string        `json:"category"`
	OperatingCategory *string       `json:"operating_cost_category"`
	Allocable         bool          `json:"allocable"`
	DocumentID        *string       `json:"document_id"`
	Note              string        `json:"note"`
	CreatedAt         string        `json:"created_at"`
	UpdatedAt         string        `json:"updated_at"`
}

func toJSON(b *Bill) billJSON {
	out := billJSON{ID: b.ID.String(), PropertyID: b.PropertyID.String(), SupplierID: b.SupplierID.String(),
		BillDate: b.BillDate, DueDate: b.DueDate, Status: Unpaid, Amount: b.Amount, VATAmount: b.VAT,
		NetAmount: b.Amount - b.VAT, Currency: b.Currency, Category: b.Category, OperatingCategory: b.OperatingCategory,
		Allocable: b.Allocable, Note: b.Note, CreatedAt: timestamp(b.CreatedAt), UpdatedAt: timestamp(b.UpdatedAt)}
	if b.IsPaid() {
		d := b.PaidOn
		out.PaidOn, out.Status = &d, Paid
	}
	if b.VATRate != nil {
		r := money.Amount(*b.VATRate)
		out.VATRate = &r
	}
	if b.DocumentID != nil {
		d := b.DocumentID.String()
		out.DocumentID = &d
	}
	return out
}

// timestamp formats t as RFC 3339 in UTC, to the second, as every record
// of the property area shows its times.
func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }
