package notices

import (
	"bytes"
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// bankOf is, through db, the account c's rent is paid to as the letters
// print it; nil when its workspace has none.
func (s *Service) bankOf(ctx context.Context, db bun.IDB, c *contracts.Contract) (*printforms.Bank, error) {
	acc, err := s.contracts.PaymentAccount(ctx, db, c)
	if err != nil {
		return nil, err
	}
	return printforms.BankOf(acc), nil
}

// rentCallForm is the rent call's letter of g (charges of c due on
// g.due), written on today in l's language: the mail's paragraphs, the
// amounts, the account and, in euros, the QR code of the payment.
func (s *Service) rentCallForm(c *contracts.Contract, l *letter, g group, today period.Date, bank *printforms.Bank) printforms.RentCall {
	lines := make([]printforms.ReceiptLine, len(g.charges))
	var total money.Amount
	for i := range g.charges {
		ch := &g.charges[i]
		lines[i] = printforms.ReceiptLine{Charge: ch.Name, Period: ch.Period, Amount: ch.Outstanding()}
		total += ch.Outstanding()
	}
	return printforms.RentCall{ContractNumber: c.Number, Date: today, Due: g.due,
		Landlord: printforms.Party{Name: l.landlord, Address: l.landlordAddress}, Tenant: printforms.Party{Name: l.tenant, Address: l.tenantAddress},
		PropertyAddress: l.place(), Currency: g.charges[0].Currency, Lines: lines, Total: total,
		Paragraphs: []string{l.w.RentCallOutro},
		Bank:       bank}
}

// rentCallDoc renders the rent call's letter in c's language and files it
// as a document of the contract, in the notice's transaction; it returns
// the document to attach.
func (s *Service) rentCallDoc(ctx context.Context, tx bun.Tx, c *contracts.Contract, form printforms.RentCall, title string) (uuid.UUID, error) {
	pdf, err := s.forms.RentCall(c.Locale, form)
	if err != nil {
		return uuid.Nil, err
	}
	blob, err := s.files.Put(ctx, fileName("rent-call-"+c.Number+"-"+form.Due.String()+".pdf"), bytes.NewReader(pdf))
	if err != nil {
		return uuid.Nil, err
	}
	doc, err := s.files.Insert(ctx, tx, documents.NewFile{WorkspaceID: c.WorkspaceID, PropertyID: c.PropertyID,
		ContractID: &c.ID, Title: title, Category: "other", UploadedBy: c.OwnerID}, blob)
	if err != nil {
		s.files.Discard(blob)
		return uuid.Nil, err
	}
	return doc.ID, nil
}

// fileName replaces the characters a file name cannot hold.
func fileName(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < ' ' {
			return '-'
		}
		return r
	}, name)
}

// dueOn is the rent call of contract c for the charges due on day still
// owed (late fees left out, as the daily run's call does), nil when none.
func (s *Service) dueOn(ctx context.Context, c *contracts.Contract, day period.Date) (*group, error) {
	g := &group{contract: c.ID, due: day}
	for after := uuid.Nil; ; {
		list, err := s.expenses.Owed(ctx, c.WorkspaceID, day, day, after, page)
		if err != nil {
			return nil, err
		}
		for _, ch := range list {
			if ch.ContractID != nil && *ch.ContractID == c.ID && ch.Kind != expenses.Penalty {
				g.charges = append(g.charges, ch)
			}
		}
		if len(list) < page {
			break
		}
		after = list[len(list)-1].ID
	}
	if len(g.charges) == 0 {
		return nil, nil
	}
	sortCharges(g.charges)
	return g, nil
}

// RentCall is the rent call's PDF of what the contract ct owes on day
// and has not paid, in locale (the contract's language when empty), and
// its file name; ErrNothingDue when nothing falls due that day and is
// still owed.
func (s *Service) RentCall(ctx context.Context, ct *contracts.Contract, day period.Date, rawLocale string) ([]byte, string, error) {
	locale, err := s.forms.Locale(rawLocale, ct.Locale)
	if err != nil {
		return nil, "", err
	}
	g, err := s.dueOn(ctx, ct, day)
	if err != nil {
		return nil, "", err
	}
	if g == nil {
		return nil, "", ErrNothingDue
	}
	l, err := s.letterFor(ctx, s.db, ct)
	if err != nil {
		return nil, "", err
	}
	l.w, l.st = wordingOf(locale), printforms.StyleOf(locale)
	bank, err := s.bankOf(ctx, s.db, ct)
	if err != nil {
		return nil, "", err
	}
	today := period.DateOf(s.clock.Now())
	pdf, err := s.forms.RentCall(locale, s.rentCallForm(ct, l, *g, today, bank))
	if err != nil {
		return nil, "", err
	}
	return pdf, asciiName(fileName("rent-call-" + ct.Number + "-" + day.String() + ".pdf")), nil
}

// asciiName keeps a file name's printable ASCII, others as '_', for a
// Content-Disposition header.
func asciiName(name string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r > '~' || r == '"' {
			return '_'
		}
		return r
	}, name)
}
