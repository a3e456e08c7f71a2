package billing

import (
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/platform/fault"
)

// PDF renders the invoice with the print forms' layout (English texts).
func (s *Service) PDF(inv *Invoice) ([]byte, error) {
	if s.render == nil {
		return nil, fault.Unavailable("Invoice PDFs need the printforms module, which is switched off.")
	}
	c := s.cfg
	rows := [][2]string{
		{"Invoice number", inv.Number},
		{"Issued on", inv.IssuedAt.UTC().Format("2006-01-02")},
		{"Period", inv.Period},
		{"From", c.IssuerName + " " + c.IssuerAddress},
		{"Supplier VAT ID", c.IssuerVATID},
		{"Bill to", inv.Customer + " (" + inv.Country + ")"},
		{"Customer VAT ID", deref(inv.VATID)},
		{"Status", inv.Status},
	}
	out := printforms.Invoice{Locale: "en", Title: "Invoice", Number: inv.Number, IssuedAt: inv.IssuedAt, Rows: rows, Currency: inv.Currency}
	for _, l := range inv.Lines {
		out.Lines = append(out.Lines, printforms.InvoiceLine{Description: l.Description + " (" + l.Period + ")", Amount: l.Amount})
	}
	vatLabel := "VAT " + inv.VATRate + " %"
	if inv.ReverseCharge {
		vatLabel = "VAT 0 % (reverse charge)"
		out.Notes = append(out.Notes, "Reverse charge: VAT to be accounted for by the recipient (Article 196 of Council Directive 2006/112/EC).")
	}
	out.Sums = []printforms.InvoiceSum{{Label: "Net", Amount: inv.Net - inv.Credit}, {Label: vatLabel, Amount: inv.VAT}, {Label: "Total", Amount: inv.Total}}
	if inv.Status == InvoicePaid {
		out.Watermark = "PAID"
	}
	return s.render.Invoice(out)
}
