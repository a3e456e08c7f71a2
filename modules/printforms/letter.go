package printforms

import (
	"strings"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Demand is a formal letter demanding payment (the dunning ladder's last
// step: in France the mise en demeure de payer): who writes to whom about
// which dwelling, every amount owed with the total, the demand's
// paragraphs, and the landlord's signature. The notices module fills it
// in, with its paragraphs in the contract's language; the labels are the
// forms' own.
type Demand struct {
	Title          string
	ContractNumber string
	Date           period.Date
	Landlord       Party
	Tenant         Party
	// PropertyAddress is the dwelling's address (or its name).
	PropertyAddress string
	Currency        string
	Lines           []ReceiptLine // each amount owed: charge, period, amount
	Total           money.Amount
	// Paragraphs are the demand itself (line breaks kept).
	Paragraphs []string
	// Bank is the account to pay to (nil: none on file, nothing printed).
	Bank *Bank
}

// Demand renders dm in locale as a PDF.
func (r *Renderer) Demand(locale string, dm Demand) (out []byte, err error) {
	defer recoverRender(&err)
	l, _ := r.labels.forLocale(locale)
	title := clean(dm.Title, false)
	d := newDoc(locale, l, title, dm.Date.Time())
	d.letterHead(title, dm.ContractNumber, dm.Date, dm.Landlord, dm.Tenant, dm.PropertyAddress)
	d.gap(4)
	d.receiptTable(dm.Lines, dm.Total, clean(dm.Currency, false))
	d.gap(6)
	d.paragraphs(dm.Paragraphs)
	d.bank(dm.Bank, l.get(keyBankPayTo))
	d.landlordSignature(dm.Landlord.Name)
	return d.finish(title, "")
}

// letterHead opens a letter about a contract's money: the title with the
// contract's number, the date, both parties with their addresses and the
// let property.
func (d *doc) letterHead(title, number string, date period.Date, landlord, tenant Party, property string) {
	sub := ""
	if n := clean(number, false); strings.TrimSpace(n) != "" {
		sub = d.l.get(keyReceiptContract) + " " + n
	}
	d.title(title, sub)
	d.row(d.l.get(keyDate), d.st.Date(date))
	for _, p := range []struct {
		label string
		party Party
	}{{d.l.get(keyLandlord), landlord}, {d.l.get(keyTenant), tenant}} {
		value := clean(p.party.Name, false)
		if a := clean(p.party.Address, false); strings.TrimSpace(a) != "" {
			value += ", " + a
		}
		d.row(p.label, value)
	}
	d.row(d.l.get(keyProperty), clean(property, false))
}

// paragraphs writes a letter's text, each line of a paragraph as typed.
func (d *doc) paragraphs(list []string) {
	for _, p := range list {
		for _, line := range strings.Split(clean(p, true), "\n") {
			d.para(line, "", 10, 0, 0)
		}
		d.gap(3)
	}
}

// landlordSignature is the landlord's signature line with their printed
// name under it.
func (d *doc) landlordSignature(name string) {
	d.gap(10)
	d.need(22)
	top := d.pdf.GetY()
	d.signLine(marginL, top+10, 80, d.l.get(keySignature)+" – "+d.l.get(keyLandlord))
	d.pdf.SetY(top + 15)
	d.font("", 10)
	d.color(0)
	d.cell(marginL, 80, 5, d.fit(clean(name, false), 80), "L")
	d.pdf.SetY(top + 22)
}
