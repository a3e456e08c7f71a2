package printforms

import (
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// RentCall is the letter of a rent call: what falls due on one day under
// a contract, the total, where to pay it and, for a payment in euros, an
// EPC QR code (GiroCode) of that payment. The notices module fills it in
// with its paragraphs in the contract's language; the labels are the
// forms' own.
type RentCall struct {
	ContractNumber string
	Date           period.Date // the letter's day
	Due            period.Date
	Landlord       Party
	Tenant         Party
	// PropertyAddress is the dwelling's address (or its name).
	PropertyAddress string
	Currency        string
	Lines           []ReceiptLine // each amount due: charge, period, amount
	Total           money.Amount
	// Paragraphs are the call itself (line breaks kept).
	Paragraphs []string
	// Bank is the account to pay to (nil: none on file; the letter then
	// says nothing about a bank and has no QR code).
	Bank *Bank
}

// RentCall renders rc in locale as a PDF.
func (r *Renderer) RentCall(locale string, rc RentCall) (out []byte, err error) {
	defer recoverRender(&err)
	l, _ := r.labels.forLocale(locale)
	title := l.get(keyRentCallTitle)
	d := newDoc(locale, l, title, rc.Date.Time())
	d.letterHead(title, rc.ContractNumber, rc.Date, rc.Landlord, rc.Tenant, rc.PropertyAddress)
	d.row(l.get(keyRentCallDue), d.st.Date(rc.Due))
	d.gap(4)
	d.receiptTable(rc.Lines, rc.Total, clean(rc.Currency, false))
	d.gap(6)
	d.paragraphs(rc.Paragraphs)
	if rc.Bank != nil {
		remittance := r.Remittance(locale, rc.Due, rc.ContractNumber)
		d.bank(rc.Bank, l.get(keyBankPayTo))
		d.row(l.get(keyRemittance), remittance)
		if payload, ok := EPCPayload(rc.Bank, rc.Total, rc.Currency, remittance); ok {
			const size = 40.0
			d.need(size + 8)
			d.gap(2)
			top := d.pdf.GetY()
			if err := d.qrCode(payload, marginL, top, size); err != nil {
				return nil, err
			}
			d.font("", 9)
			d.color(60)
			for i, line := range d.wrap(l.get(keyBankQRCaption), contentW-size-6) {
				d.pdf.SetY(top + size/2 - 3 + float64(i)*d.lineH())
				d.cell(marginL+size+4, contentW-size-6, d.lineH(), line, "L")
			}
			d.pdf.SetY(top + size + 2)
		}
	}
	d.gap(8)
	d.need(8)
	d.font("", 10)
	d.color(0)
	d.cell(marginL, 80, 5, d.fit(clean(rc.Landlord.Name, false), 80), "L")
	d.gap(5)
	return d.finish(title+" "+clean(rc.ContractNumber, false), "")
}
