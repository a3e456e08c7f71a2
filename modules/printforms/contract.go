package printforms

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/propman/propman/modules/agreements"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/expenses/calendar"
	"github.com/propman/propman/modules/expenses/money"
)

// ContractForm is everything the contract's print form shows, gathered by
// the service; the renderer reads nothing else.
type ContractForm struct {
	Number   string
	Currency string
	Landlord Party
	Tenant   Party
	// PropertyName and PropertyAddress (street, postal code and city,
	// country) describe the rented property.
	PropertyName    string
	PropertyAddress string
	Start, End      calendar.Date // End zero: open-ended
	Rent, Deposit   *money.Amount // nil: not set
	DueDay          int
	Terms           []FormTerm
	// Updated is the contract's last change: the PDF's creation date.
	Updated time.Time
}

// Party is a landlord or tenant as printed; empty fields are left out.
type Party struct {
	Name, Address, Email, Phone, TaxID string
}

// FormTerm is one condition of the contract: its agreement block's name
// and description in the form's locale, its data type, and the value as
// the contract stores it (JSON).
type FormTerm struct {
	Code        string
	Name        string
	Description string
	DataType    string
	Value       json.RawMessage
}

// Renderer draws the print forms.
type Renderer struct {
	labels *Labels
}

// NewRenderer returns a renderer wording forms with labels.
func NewRenderer(labels *Labels) *Renderer { return &Renderer{labels: labels} }

// Contract renders f in locale as a PDF.
func (r *Renderer) Contract(locale string, f ContractForm) (out []byte, err error) {
	defer recoverRender(&err)
	l, _ := r.labels.forLocale(locale)
	number := clean(f.Number, false)
	title := l.get(keyContractTitle)
	heading := l.get(keyContractNumber) + " " + number
	d := newDoc(locale, l, title+" "+number, f.Updated)
	d.title(title, heading)

	d.section(l.get(keyParties))
	d.row(l.get(keyLandlord), clean(f.Landlord.Name, false))
	d.partyDetails(f.Landlord)
	d.gap(2)
	d.row(l.get(keyTenant), clean(f.Tenant.Name, false))
	d.partyDetails(f.Tenant)

	d.section(l.get(keyProperty))
	d.row(l.get(keyProperty), clean(f.PropertyName, false))
	if a := clean(f.PropertyAddress, false); strings.TrimSpace(a) != "" {
		d.row(l.get(keyAddress), a)
	}

	d.section(l.get(keyMainTerms))
	notSet := l.get(keyNotSet)
	start := notSet
	if !f.Start.IsZero() {
		start = d.st.Date(f.Start)
	}
	end := l.get(keyOpenEnded)
	if !f.End.IsZero() {
		end = d.st.Date(f.End)
	}
	d.row(l.get(keyStartDate), start)
	d.row(l.get(keyEndDate), end)
	d.row(l.get(keyRent), d.amount(f.Rent, f.Currency, notSet))
	d.row(l.get(keyDeposit), d.amount(f.Deposit, f.Currency, notSet))
	d.row(l.get(keyPaymentDay), strconv.Itoa(f.DueDay))

	if len(f.Terms) > 0 {
		d.section(l.get(keyTerms))
		for i, t := range f.Terms {
			d.term(i+1, t, f.Currency)
		}
	}

	d.signatures(l.get(keySignatures), [2]string{l.get(keyLandlord), l.get(keyTenant)},
		[2]string{clean(f.Landlord.Name, false), clean(f.Tenant.Name, false)})
	return d.finish(title+" "+number, "")
}

// partyDetails writes a party's address, email, phone and tax id, those it
// has.
func (d *doc) partyDetails(p Party) {
	for _, f := range []struct{ key, value string }{
		{keyAddress, p.Address}, {keyEmail, p.Email}, {keyPhone, p.Phone}, {keyTaxID, p.TaxID},
	} {
		if v := clean(f.value, false); strings.TrimSpace(v) != "" {
			d.row(d.l.get(f.key), v)
		}
	}
}

func (d *doc) amount(a *money.Amount, currency, none string) string {
	if a == nil {
		return none
	}
	return d.st.Money(*a, clean(currency, false))
}

// term writes one condition: its number and name, its description, its
// value.
func (d *doc) term(n int, t FormTerm, currency string) {
	d.font("B", 10.5)
	h := d.lineH()
	d.need(h * 3)
	d.gap(1)
	d.para(strconv.Itoa(n)+". "+clean(t.Name, false), "B", 10.5, 0, 0)
	if desc := clean(t.Description, true); strings.TrimSpace(desc) != "" {
		d.para(desc, "", 8.5, 100, 6)
	}
	d.gap(0.5)
	d.para(d.value(t, currency), "", 10, 0, 6)
	d.gap(1.5)
}

// value formats a term's value by its block's data type: numbers with the
// locale's separators, money with the currency, percentages with %, dates
// in the locale's order, booleans as the locale's yes or no, text as it
// is (cleaned). A value that does not read as its type is printed as
// stored.
func (d *doc) value(t FormTerm, currency string) string {
	raw := strings.TrimSpace(string(t.Value))
	switch t.DataType {
	case agreements.TypeInt:
		if n, err := strconv.ParseInt(raw, 10, 64); err == nil {
			return d.st.Int(n)
		}
	case agreements.TypeFloat:
		switch {
		case strings.HasSuffix(t.Code, "_PERCENTAGE"):
			return d.st.Percent(raw)
		case contracts.IsMoney(t.Code):
			if a, err := money.Parse([]byte(raw)); err == nil {
				return d.st.Money(a, clean(currency, false))
			}
		}
		return d.st.Decimal(raw)
	case agreements.TypeBool:
		switch raw {
		case "true":
			return d.l.get(keyYes)
		case "false":
			return d.l.get(keyNo)
		}
	case agreements.TypeDate:
		if dt, err := calendar.ParseJSON([]byte(raw)); err == nil {
			return d.st.Date(dt)
		}
	case agreements.TypeText:
		var s string
		if json.Unmarshal([]byte(raw), &s) == nil {
			return clean(s, true)
		}
	}
	return clean(raw, true)
}

// signatures writes the signature block: for each party its role, its
// name, a line to sign on and a line for the date. The block is never
// split over two pages.
func (d *doc) signatures(heading string, roles, names [2]string) {
	d.font("B", 12)
	d.need(d.lineH() + 6 + 48)
	d.section(heading)
	d.gap(2)
	colW := (contentW - 12) / 2
	top := d.pdf.GetY()
	for i := 0; i < 2; i++ {
		x := marginL + float64(i)*(colW+12)
		d.pdf.SetY(top)
		d.font("B", 10)
		d.color(0)
		d.cell(x, colW, 5, d.fit(roles[i], colW), "L")
		d.pdf.SetY(top + 5)
		d.font("", 10)
		d.cell(x, colW, 5, d.fit(names[i], colW), "L")
		d.signLine(x, top+25, colW, d.l.get(keySignature))
		d.signLine(x, top+40, colW*0.6, d.l.get(keyDate))
	}
	d.pdf.SetY(top + 48)
}

// signLine draws a line to write on at y and its caption under it.
func (d *doc) signLine(x, y, w float64, caption string) {
	d.pdf.SetDrawColor(0, 0, 0)
	d.pdf.SetLineWidth(0.3)
	d.pdf.Line(x, y, x+w, y)
	d.font("", 8)
	d.color(90)
	d.pdf.SetY(y + 0.5)
	d.cell(x, w, 4, d.fit(caption, w), "L")
}
