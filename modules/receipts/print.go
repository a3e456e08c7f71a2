package receipts

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/auth"
)

// printSource gives the print forms a receipt to render
// (printforms.ReceiptSource): the receipt, its property and the owner's
// locale, after the same access check as the routes.
type printSource struct {
	db        *bun.DB
	svc       *Service
	props     *properties.Service
	accounts  *accounts.Service
	payments  *payments.Service
	contracts *contracts.Service // nil when the contracts module is off
}

type printSourceParams struct {
	fx.In

	DB         *bun.DB
	Service    *Service
	Properties *properties.Service
	Accounts   *accounts.Service
	Payments   *payments.Service
	Contracts  *contracts.Service `optional:"true"`
}

func newPrintSource(p printSourceParams) printforms.ReceiptSource {
	return &printSource{db: p.DB, svc: p.Service, props: p.Properties, accounts: p.Accounts, payments: p.Payments, contracts: p.Contracts}
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
	// The payment: when, how, its reference, its contract, and what was
	// still owed at the end of its day (payments.Service.BalanceAfter).
	pay, err := s.payments.Payment(ctx, prop, r.PaymentID.String())
	if err != nil {
		return printforms.PrintableReceipt{}, err
	}
	balance, err := s.payments.BalanceAfter(ctx, pay)
	if err != nil {
		return printforms.PrintableReceipt{}, err
	}
	quittance, err := s.payments.SettlesMonth(ctx, pay)
	if err != nil {
		return printforms.PrintableReceipt{}, err
	}
	number, contractStamp := "", ""
	var bank *printforms.Bank
	if pay.ContractID != nil && s.contracts != nil {
		c, err := s.contracts.Authorize(ctx, auth.InWorkspace(r.WorkspaceID, r.OwnerID), pay.ContractID.String())
		switch {
		case err == nil:
			number, contractStamp = c.Number, fmt.Sprint(c.UpdatedAt.UnixMicro())
			// Where the next payments go: the contract's account, printed
			// under the figures (LANDLORD-CORE "Where to pay").
			acc, err := s.contracts.PaymentAccount(ctx, s.db, c)
			if err != nil {
				return printforms.PrintableReceipt{}, err
			}
			if acc != nil {
				bank = printforms.BankOf(acc)
				contractStamp += "." + acc.ID.String() + "." + fmt.Sprint(acc.UpdatedAt.UnixMicro())
			}
		case errors.Is(err, contracts.ErrNotFound):
			// A contract deleted since: the receipt prints without its number.
		default:
			return printforms.PrintableReceipt{}, err
		}
	}
	address := strings.Join(nonEmpty(prop.Address, strings.TrimSpace(prop.PostalCode+" "+prop.City)), ", ")
	return printforms.PrintableReceipt{
		Receipt: printforms.Receipt{
			Number: r.Number, IssuedAt: r.IssuedAt, Landlord: printforms.Party{Name: owner.Name}, PayerName: r.Payer, PropertyName: prop.Name,
			PropertyAddress: address, Currency: r.Currency, Lines: lines, Total: r.Amount, Status: status,
			PaidOn: pay.PaidOn, Method: pay.Method, Reference: pay.Reference, ContractNumber: number,
			Balance: &balance, Credit: r.Credit, Quittance: quittance, Bank: bank,
		},
		DefaultLocale:   owner.Locale,
		LandlordAddress: owner.PostalAddress(),
		// The balance is that of the payment's day as the ledger knows it
		// now: a payment keyed in later for an earlier day changes it, so
		// it is part of the version.
		Version: fmt.Sprintf("%s.%s.%d.%d.%d.%s.%d", r.ID, r.Status, r.UpdatedAt.UnixMicro(), prop.UpdatedAt.UnixMicro(), owner.UpdatedAt.UnixMicro(), contractStamp, balance) + fmt.Sprintf(".%t", quittance),
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
