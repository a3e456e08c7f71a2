package printforms

import (
	"strings"
	"time"

	"github.com/propman/propman/platform/money"
)

// Invoice is everything a service invoice (propman charging a workspace
// for its subscription, modules/billing) shows. The billing module fills
// it in with its own words; printforms lays it out with the fonts and
// helpers of the other forms.
type Invoice struct {
	Locale   string // number and date formats (the texts are the caller's)
	Title    string // "Invoice"
	Number   string
	IssuedAt time.Time
	// Rows are the label/value pairs under the title (issuer, customer,
	// VAT ids, period, status), in order.
	Rows     [][2]string
	Currency string
	Lines    []InvoiceLine
	// Sums are the lines under the table (net, VAT, total), the last one
	// printed bold.
	Sums []InvoiceSum
	// Notes are paragraphs at the end (the reverse-charge wording).
	Notes []string
	// Watermark is printed across every page when not empty ("PAID").
	Watermark string
}

// InvoiceLine is one line of an invoice.
type InvoiceLine struct {
	Description string
	Amount      money.Amount
}

// InvoiceSum is one line under an invoice's table.
type InvoiceSum struct {
	Label  string
	Amount money.Amount
}

// Invoice renders inv as a PDF.
func (r *Renderer) Invoice(inv Invoice) (out []byte, err error) {
	defer recoverRender(&err)
	l, _ := r.labels.forLocale(inv.Locale)
	number := clean(inv.Number, false)
	title := clean(inv.Title, false)
	d := newDoc(inv.Locale, l, title+" "+number, inv.IssuedAt)
	d.title(title, number)
	for _, row := range inv.Rows {
		if v := clean(row[1], false); strings.TrimSpace(v) != "" {
			d.row(clean(row[0], false), v)
		}
	}
	d.gap(4)
	currency := clean(inv.Currency, false)
	for _, ln := range inv.Lines {
		d.font("", 10)
		h := d.lineH()
		names := d.wrap(clean(ln.Description, false), colCharge+colPeriod-3)
		if len(names) == 0 {
			names = []string{""}
		}
		d.need(float64(len(names)) * h)
		y := d.pdf.GetY()
		d.color(0)
		d.cell(marginL+colCharge+colPeriod, colAmount-1, h, d.st.Money(ln.Amount, currency), "R")
		d.pdf.SetY(y)
		for _, name := range names {
			d.need(h)
			d.cell(marginL+1, colCharge+colPeriod-3, h, name, "L")
			d.gap(h)
		}
		d.gap(0.8)
		d.rule(210)
		d.gap(0.8)
	}
	for i, s := range inv.Sums {
		style := ""
		if i == len(inv.Sums)-1 {
			style = "B"
		}
		d.sumLine(clean(s.Label, false), d.st.Money(s.Amount, currency), style)
	}
	d.gap(6)
	for _, n := range inv.Notes {
		d.para(clean(n, false), "", 9, 60, 0)
		d.gap(2)
	}
	return d.finish(title+" "+number, clean(inv.Watermark, false))
}
