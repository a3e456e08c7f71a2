package taxyear

import (
	"bytes"
	"fmt"
	"time"

	"github.com/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/platform/period"
)

// pdfKeys are the catalogue's words of the PDF (taxyear.pdf.<key>).
var pdfKeys = []string{"owner", "property", "period", "workspace", "amount", "manual", "basis", "depreciation", "finance_costs", "created"}

// PDF draws the report as a summary in its locale: a page per property,
// then the workspace's totals when there is more than one property, each
// line with its number on the form, its label and its amount as the
// locale writes them; the layout of the owner statement.
func (r *Report) PDF(created time.Time) ([]byte, error) {
	w := r.words
	style := printforms.StyleOf(r.Locale)
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetMargins(20, 20, 20)
	pdf.SetAutoPageBreak(true, 20)
	pdf.AddUTF8FontFromBytes("go", "", goregular.TTF)
	pdf.AddUTF8FontFromBytes("go", "B", gobold.TTF)
	created = created.UTC().Truncate(time.Second)
	pdf.SetCreationDate(created)
	pdf.SetModificationDate(created)
	pdf.SetTitle(r.Title, true)
	pdf.SetCreator("propman", true)
	pdf.SetProducer("propman", true)
	pdf.SetLang(r.Locale)
	label := func(k, v string) {
		pdf.SetFont("go", "B", 10)
		pdf.CellFormat(40, 6, w["pdf."+k], "", 0, "L", false, 0, "")
		pdf.SetFont("go", "", 10)
		pdf.CellFormat(0, 6, printforms.Printable(v, false), "", 1, "L", false, 0, "")
	}
	page := func(b *Block) {
		pdf.AddPage()
		pdf.SetFont("go", "B", 16)
		pdf.MultiCell(0, 8, r.Title, "", "L", false)
		pdf.Ln(2)
		if r.Owner != "" {
			label("owner", r.Owner)
		}
		if b.PropertyID != nil {
			name := b.Name
			if b.Address != "" {
				name += ", " + b.Address
			}
			label("property", name)
		} else {
			label("property", w["pdf.workspace"])
		}
		label("period", style.Date(r.From)+" – "+style.Date(r.To))
		pdf.Ln(3)
		pdf.SetFont("go", "B", 10)
		pdf.CellFormat(18, 7, w["line_word"], "B", 0, "L", false, 0, "")
		pdf.CellFormat(112, 7, "", "B", 0, "L", false, 0, "")
		pdf.CellFormat(0, 7, w["pdf.amount"], "B", 1, "R", false, 0, "")
		for _, l := range b.Lines {
			font, border := "", ""
			if l.Kind == kindTotal {
				font, border = "B", "T"
			}
			amount := "—"
			if l.Amount != nil {
				amount = style.Money(*l.Amount, b.Currency)
			}
			pdf.SetFont("go", font, 10)
			if l.Kind == kindMemo || l.Kind == kindManual {
				pdf.SetTextColor(90, 90, 90)
			}
			pdf.CellFormat(18, 6, l.Line, border, 0, "L", false, 0, "")
			pdf.CellFormat(112, 6, l.Label, border, 0, "L", false, 0, "")
			pdf.CellFormat(0, 6, amount, border, 1, "R", false, 0, "")
			pdf.SetTextColor(0, 0, 0)
		}
		pdf.Ln(4)
		pdf.SetFont("go", "", 9)
		// The notes the lines need: the mark of a manual line, the cash
		// basis, depreciation (computed, not paid), box 44 (no expense).
		var manual, depreciation, finance bool
		for _, l := range b.Lines {
			manual = manual || l.Kind == kindManual
			depreciation = depreciation || l.Key == srcDepreciation && l.Amount != nil
			finance = finance || l.Key == "residential_finance_costs" && l.Amount != nil
		}
		if manual {
			pdf.MultiCell(0, 5, "— "+w["pdf.manual"], "", "L", false)
		}
		pdf.MultiCell(0, 5, w["pdf.basis"], "", "L", false)
		if depreciation {
			pdf.MultiCell(0, 5, w["pdf.depreciation"], "", "L", false)
		}
		if finance {
			pdf.MultiCell(0, 5, w["pdf.finance_costs"], "", "L", false)
		}
		pdf.MultiCell(0, 5, w["pdf.created"]+" "+style.Date(period.DateOf(created)), "", "L", false)
	}
	for i := range r.Properties {
		page(&r.Properties[i])
	}
	if len(r.Properties) != 1 {
		for i := range r.Totals {
			page(&r.Totals[i])
		}
	}
	var out bytes.Buffer
	if err := pdf.Output(&out); err != nil {
		return nil, fmt.Errorf("tax year pdf: %w", err)
	}
	return out.Bytes(), nil
}
