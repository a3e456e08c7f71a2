package expenses

import (
	"context"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/chargename"
)

// Namer renders a generated name in a locale (the printforms module's
// Renderer, which holds the catalogue's wording). Without it names read in
// English, as they are stored.
type Namer interface {
	NameCharge(locale string, n chargename.Name) string
}

// nameIn is n in locale; English (the stored wording) without a namer.
func (s *Service) nameIn(locale, stored string, n chargename.Name) string {
	if s.namer == nil || locale == "" || locale == "en" || n.Kind == chargename.Custom || n.Kind == "" {
		return stored
	}
	return s.namer.NameCharge(locale, n)
}

// ChargeJSONIn is ChargeJSON with the charge's name in locale: the
// contract's locale for a tenant, the profile's for a landlord.
func (s *Service) ChargeJSONIn(locale string) func(*Charge) any {
	return func(c *Charge) any { return s.chargeIn(locale, c) }
}

// ExpenseJSONIn is expenseOut with the expense's name in locale.
func (s *Service) ExpenseJSONIn(locale string) func(*Expense) expenseJSON {
	return func(e *Expense) expenseJSON { return s.expenseIn(locale, e) }
}

func (s *Service) chargeIn(locale string, c *Charge) chargeJSON {
	out := chargeOut(c)
	out.Name = s.nameIn(locale, c.Name, c.GeneratedName())
	return out
}

func (s *Service) expenseIn(locale string, e *Expense) expenseJSON {
	out := expenseOut(e)
	out.Name = s.nameIn(locale, e.Name, e.GeneratedName())
	return out
}

// ReaderLocale is the profile locale of the signed-in caller p, who reads
// the landlord API; English when the profile cannot be read.
func (s *Service) ReaderLocale(ctx context.Context, p auth.Principal) string {
	if s.namer == nil || p.UserID == 0 {
		return accounts.DefaultLocale
	}
	// The guard has usually read the user already.
	if u, ok := p.Record.(*accounts.User); ok && u.Locale != "" {
		return u.Locale
	}
	if s.accounts == nil {
		return accounts.DefaultLocale
	}
	u, err := s.accounts.User(ctx, p.UserID)
	if err != nil || u.Locale == "" {
		return accounts.DefaultLocale
	}
	return u.Locale
}
