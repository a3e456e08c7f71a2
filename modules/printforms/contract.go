package printforms

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/propman/propman/modules/agreements"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/platform/law"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
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
	Start, End      period.Date // End zero: open-ended
	// StartRent is the monthly rent in force on the start date (nil: not
	// set); RentSteps are later rents agreed in the lease itself, oldest
	// first, printed as a clause of their own (an indexation made after
	// the signature is a letter, not part of the lease).
	StartRent *money.Amount
	RentSteps []RentStep
	// Country is the property's country: its law shapes the form (a
	// French lease states its fixed term).
	Country string
	// CompanyLandlord: the landlord lets as a company (the profile's
	// landlord_type), which lengthens a French lease's term.
	CompanyLandlord bool
	// LivingArea is the dwelling's living area in m² (nil: not given).
	LivingArea *money.Amount
	// Deposit is the deposit (nil: not set); DepositMonths the number of
	// monthly rents it was agreed as (0: agreed as an amount).
	Deposit       *money.Amount
	DepositMonths int64
	DueDay        int
	Terms         []FormTerm
	// Bank is the account the rent is paid to (nil: none on file; the
	// lease then says nothing about a bank).
	Bank *Bank
	// Updated is the contract's last change: the PDF's creation date.
	Updated time.Time
	// Convenience, when not empty, marks the form as a translation of the
	// signed original (printed in red under the title).
	Convenience string
}

// RentStep is a rent from a day on.
type RentStep struct {
	From   period.Date
	Amount money.Amount
}

// Party is a landlord or tenant as printed. An empty address is printed
// as "not on file" with a line to write it on; other empty fields are
// left out.
type Party struct {
	Name, Address, Email, Phone, TaxID string
}

// FormTerm is one condition of the contract: its agreement block's name
// in the form's locale (used only for a block without lease wording), its
// data type, and the value as the contract stores it (JSON). The block's
// description is guidance for the landlord and is not printed.
type FormTerm struct {
	Code     string
	Name     string
	DataType string
	Value    json.RawMessage
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
	if f.Convenience != "" {
		d.font("B", 11)
		d.pdf.SetTextColor(190, 20, 20)
		for _, line := range d.wrap(clean(f.Convenience, false), contentW) {
			d.cell(marginL, contentW, d.lineH(), line, "L")
			d.gap(d.lineH())
		}
		d.color(0)
		d.gap(3)
	}
	d.para(l.get(keyPreamble), "", 10, 0, 0)
	d.gap(1)

	d.section(l.get(keyParties))
	d.party(l.get(keyLandlord), f.Landlord)
	d.gap(2)
	d.party(l.get(keyTenant), f.Tenant)

	d.section(l.get(keyProperty))
	d.row(l.get(keyPropertyName), clean(f.PropertyName, false))
	if a := clean(f.PropertyAddress, false); strings.TrimSpace(a) != "" {
		d.row(l.get(keyAddress), a)
	}
	// The living area (France requires it, loi 89-462 art. 3): "42,5 m²".
	if f.LivingArea != nil {
		d.row(l.get(keyLivingArea), d.st.Decimal(areaNumber(*f.LivingArea))+nbsp+"m²")
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
	// Where the law fixes the lease's term (France, loi 89-462 art. 10:
	// three years for a natural-person landlord, six for a company; the
	// table in platform/law) the form states the term and the day it
	// ends; a contract that names its own end keeps it.
	if years := law.Of(f.Country).Term.Years(f.CompanyLandlord); years > 0 && !f.Start.IsZero() {
		last := f.End
		if last.IsZero() {
			t := f.Start.Time().AddDate(years, 0, -1)
			last = period.NewDate(t.Year(), t.Month(), t.Day())
		}
		end = d.st.Date(last)
		months := (last.Year()-f.Start.Year())*12 + int(last.Month()) - int(f.Start.Month()) + 1
		d.row(l.get(keyStartDate), start)
		d.row(l.get(keyLeaseTerm), fill(l.get(keyLeaseTermValue), locale, int64(months), map[string]string{
			"months": strconv.Itoa(months), "date": end}))
	} else {
		d.row(l.get(keyStartDate), start)
	}
	d.row(l.get(keyEndDate), end)
	d.row(l.get(keyRentAtStart), d.amount(f.StartRent, f.Currency, notSet))
	d.row(l.get(keyDeposit), d.deposit(f))
	d.row(l.get(keyPaymentDay), fill(l.get(keyPaymentDayValue), locale, int64(f.DueDay), map[string]string{"day": dayOfMonth(locale, f.DueDay)}))
	d.bank(f.Bank, l.get(keyBankClause))

	clauses := d.clauses(f)
	if len(clauses) > 0 {
		d.section(l.get(keyTerms))
		for i, c := range clauses {
			d.clause(clauseNumber(locale, f.Country, i+1), c)
		}
	}

	d.signatures(l.get(keySignatures), [2]string{l.get(keyLandlord), l.get(keyTenant)},
		[2]string{clean(f.Landlord.Name, false), clean(f.Tenant.Name, false)})
	return d.finish(title+" "+number, "")
}

// areaNumber is an area of 2 decimals as a plain number without trailing
// zeros: 42.50 is "42.5", 60.00 is "60".
func areaNumber(a money.Amount) string {
	s := a.String()
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// party writes a party's name, address (or that none is on file, with a
// line to write it on), email, phone and tax id, those it has.
func (d *doc) party(role string, p Party) {
	d.row(role, clean(p.Name, false))
	if a := clean(AddressLine(p.Address), false); strings.TrimSpace(a) != "" {
		d.row(d.l.get(keyAddress), a)
	} else {
		d.row(d.l.get(keyAddress), d.l.get(keyNotOnFile))
		d.need(9)
		d.gap(6)
		d.pdf.SetDrawColor(0, 0, 0)
		d.pdf.SetLineWidth(0.3)
		d.pdf.Line(marginL+labelW, d.pdf.GetY(), pageW-marginR, d.pdf.GetY())
		d.gap(2)
	}
	for _, f := range []struct{ key, value string }{
		{keyEmail, p.Email}, {keyPhone, p.Phone}, {keyTaxID, p.TaxID},
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

// deposit is the deposit as the parties agreed it: "2 Monatsmieten =
// 1.900,00 €" when it was agreed as a number of monthly rents (and is that
// many times the rent at the start), else the amount.
func (d *doc) deposit(f ContractForm) string {
	amount := d.amount(f.Deposit, f.Currency, d.l.get(keyNotSet))
	if f.Deposit == nil || f.DepositMonths <= 0 || f.StartRent == nil || int64(*f.Deposit) != f.DepositMonths*int64(*f.StartRent) {
		return amount
	}
	return fill(d.l.get(keyDepositMonths), d.locale, f.DepositMonths,
		map[string]string{"count": d.st.Int(f.DepositMonths), "amount": amount})
}

// clauses are the contract's conditions in lease wording, in the
// contract's order, with the rent schedule (when the rent changes after
// the start) right after the rent's clause, or last.
func (d *doc) clauses(f ContractForm) []string {
	var out []string
	schedule := d.schedule(f)
	for _, t := range f.Terms {
		out = append(out, d.wordTerm(t, f))
		if strings.EqualFold(t.Code, contracts.CodeRent) && schedule != "" {
			out = append(out, schedule)
			schedule = ""
		}
	}
	if schedule != "" {
		out = append(out, schedule)
	}
	return out
}

// schedule is the clause listing the rents after the start, or "".
func (d *doc) schedule(f ContractForm) string {
	if len(f.RentSteps) == 0 {
		return ""
	}
	lines := []string{d.l.get(keyRentSchedule)}
	for _, s := range f.RentSteps {
		lines = append(lines, "– "+fill(d.l.get(keyRentStep), d.locale, 0, map[string]string{
			"date": d.st.Date(s.From), "amount": d.st.Money(s.Amount, clean(f.Currency, false)),
		}))
	}
	return strings.Join(lines, "\n")
}

// wordTerm is one term as a sentence of the lease: the block's wording in
// the locale with the value filled in, or "<name>: <value>." for a block
// without wording.
func (d *doc) wordTerm(t FormTerm, f ContractForm) string {
	code := strings.ToUpper(t.Code)
	value := d.value(t, f.Currency)
	if code == contracts.CodePaymentDay {
		value = dayOfMonth(d.locale, int(intOf(t.Value)))
	}
	if code == contracts.CodeRent && f.StartRent != nil {
		// The rent clause states the rent of the start, as the key data do;
		// later rents are the schedule's.
		value = d.st.Money(*f.StartRent, clean(f.Currency, false))
	}
	w, ok := wordingOf(code, d.locale)
	if !ok {
		v := strings.TrimRight(value, ". ")
		return clean(t.Name, false) + ": " + v + "."
	}
	text := w.Value
	if t.DataType == agreements.TypeBool {
		switch strings.TrimSpace(string(t.Value)) {
		case "true":
			text = w.Yes
		case "false":
			text = w.No
		}
	}
	if text == "" {
		return clean(t.Name, false) + ": " + value + "."
	}
	// {deposit} is in the clauses that agree the deposit as a number of
	// monthly rents: that many times the rent at the start, so that the
	// clause's two figures always agree (even when the landlord also set
	// a deposit amount, which then has its own clause).
	deposit := ""
	if f.StartRent != nil && intOf(t.Value) > 0 && int64(*f.StartRent)*intOf(t.Value) <= int64(money.Max) {
		deposit = d.st.Money(money.Amount(int64(*f.StartRent)*intOf(t.Value)), clean(f.Currency, false))
	} else {
		text = strings.ReplaceAll(text, " ({deposit})", "")
	}
	return keepTogether.Replace(fill(text, d.locale, intOf(t.Value), map[string]string{"value": value, "deposit": deposit}))
}

// dayOfMonth is the day as a lease names it: French writes the first of
// the month "1er".
func dayOfMonth(locale string, day int) string {
	if locale == "fr" && day == 1 {
		return "1er"
	}
	return strconv.Itoa(day)
}

// keepTogether joins a citation of the law with no-break spaces, so that a
// line never ends between "§" and its number or before the code's name.
var keepTogether = strings.NewReplacer("§§ ", "§§"+nbsp, "§ ", "§"+nbsp, " BGB", nbsp+"BGB", " LAU", nbsp+"LAU",
	"n° ", "n°"+nbsp, "№ ", "№"+nbsp, "art. ", "art."+nbsp, "Art. ", "Art."+nbsp, "ст. ", "ст."+nbsp)

// clauseNumber is how a lease numbers its clauses: "Article N" in French,
// "§ N" in a lease of German-speaking law (in any language, as translated
// German leases are read), "N." anywhere else (an English tenancy
// agreement).
func clauseNumber(locale, country string, n int) string {
	switch {
	case locale == "fr":
		return "Article " + strconv.Itoa(n)
	case country == "DE" || country == "AT" || country == "CH":
		return "§ " + strconv.Itoa(n)
	}
	return strconv.Itoa(n) + "."
}

// clause writes one numbered clause: the number in the margin, the text
// indented beside it; "Article N" is on a line of its own.
func (d *doc) clause(number, text string) {
	d.font("", 10)
	h := d.lineH()
	lines := d.wrap(text, contentW-8)
	// A clause of up to a quarter page is not split.
	if rowH := float64(len(lines)) * h; rowH <= (bottom-marginT)/4 {
		d.need(rowH + 1)
	} else {
		d.need(3 * h)
	}
	d.gap(1)
	d.font("B", 10)
	d.color(0)
	if strings.HasPrefix(number, "Article") {
		d.cell(marginL, contentW, h, number, "L")
		d.gap(h)
		d.font("", 10)
		for _, line := range d.wrap(text, contentW) {
			d.need(h)
			d.cell(marginL, contentW, h, line, "L")
			d.gap(h)
		}
		d.gap(1.5)
		return
	}
	d.cell(marginL, 8, h, number, "L")
	d.font("", 10)
	for _, line := range lines {
		d.need(h)
		d.cell(marginL+8, contentW-8, h, line, "L")
		d.gap(h)
	}
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
		if dt, err := period.ParseJSON([]byte(raw)); err == nil {
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

// signatures writes the signature block: for each party its role and
// name, a line for the place and date and a line to sign on. The block is
// never split over two pages.
func (d *doc) signatures(heading string, roles, names [2]string) {
	d.font("B", 12)
	d.need(d.lineH() + 6 + 52)
	d.section(heading)
	d.gap(2)
	colW := (contentW - 12) / 2
	top := d.pdf.GetY()
	for i := 0; i < 2; i++ {
		x := marginL + float64(i)*(colW+12)
		d.signLine(x, top+14, colW, d.l.get(keyPlaceDate))
		d.signLine(x, top+34, colW, d.l.get(keySignature)+" – "+roles[i])
		d.pdf.SetY(top + 39)
		d.font("", 10)
		d.color(0)
		d.cell(x, colW, 5, d.fit(names[i], colW), "L")
	}
	d.pdf.SetY(top + 46)
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
