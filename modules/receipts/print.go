package receipts

import (
	"context"
	"fmt"
	"strings"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/auth"
)

// printSource gives the print forms a receipt to render
// (printforms.ReceiptSource): the receipt, its property and the owner's
// locale, after the same access check as the routes.
type printSource struct {
	svc      *Service
	props    *properties.Service
	accounts *accounts.Service
}

func newPrintSource(svc *Service, props *properties.Service, users *accounts.Service) printforms.ReceiptSource {
	return &printSource{svc: svc, props: props, accounts: users}
}

func (s *printSource) PrintableReceipt(ctx context.Context, p auth.Principal, rawID string) (printforms.PrintableReceipt, error) {
	r, err := s.svc.Authorize(ctx, p, rawID)
	if err != nil {
		return printforms.PrintableReceipt{}, err
	}
	prop, err := s.props.Authorize(ctx, p, r.PropertyID.String())
	if err != nil {
		return printforms.PrintableReceipt{}, err
	}
	owner, err := s.accounts.User(ctx, r.OwnerID)
	if err != nil {
		return printforms.PrintableReceipt{}, err
	}
	lines := make([]printforms.ReceiptLine, len(r.Lines))
	for i, l := range r.Lines {
		lines[i] = printforms.ReceiptLine{Charge: l.ChargeName, Period: l.Period, Amount: l.Amount}
	}
	status := printforms.ReceiptIssued
	if r.Status == Void {
		status = printforms.ReceiptVoid
	}
	address := strings.Join(nonEmpty(prop.Address, strings.TrimSpace(prop.PostalCode+" "+prop.City)), ", ")
	return printforms.PrintableReceipt{
		Receipt: printforms.Receipt{
			Number: r.Number, IssuedAt: r.IssuedAt, PayerName: r.Payer, PropertyName: prop.Name,
			PropertyAddress: address, Currency: r.Currency, Lines: lines, Total: r.Amount, Status: status,
		},
		DefaultLocale: owner.Locale,
		Version:       fmt.Sprintf("%s.%s.%d.%d", r.ID, r.Status, r.UpdatedAt.UnixMicro(), prop.UpdatedAt.UnixMicro()),
	}, nil
}

func nonEmpty(parts ...string) []string {
	out := parts[:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}
