package compensations

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/law"
	"github.com/propman/propman/platform/money"
)

// word is the statement's text of compensations.print.<key> in the
// catalogue (English where a locale lacks one).
func word(locale, key string) string { return translations.Say(locale, "compensations.print."+key) }

// StatementPDF draws the deposit settlement with the raw id in locale,
// else its contract's. 404 for an unknown id, another workspace's 403 (404
// to a tenant).
func (s *Service) StatementPDF(ctx context.Context, p auth.Principal, rawID, locale string) ([]byte, string, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, "", errNoSettlement()
	}
	st, err := s.settlementByID(ctx, id)
	if err != nil {
		return nil, "", err
	}
	if st.WorkspaceID != p.WorkspaceID && !p.IsAdmin() {
		return nil, "", auth.Refuse(ctx, p, "This settlement belongs to another workspace.", "Deposit settlement not found.")
	}
	c, err := s.contracts.ByID(ctx, s.db, st.ContractID)
	if err != nil {
		return nil, "", err
	}
	prop, err := s.props.Authorize(ctx, p, st.PropertyID.String())
	if err != nil {
		return nil, "", err
	}
	tenant, tenantAddress := "", ""
	if s.tenants != nil {
		if t, err := s.tenants.ByID(ctx, s.db, c.TenantID); err == nil {
			tenant, tenantAddress = t.Name, t.Address
		}
	}
	landlord, landlordAddress := "", ""
	if u, err := s.accounts.User(ctx, c.OwnerID); err == nil {
		landlord = u.Name
		if a := u.PostalAddress(); a != nil {
			landlordAddress = printforms.AddressLine(a.Address, strings.TrimSpace(a.PostalCode+" "+a.City))
		}
	}
	loc := locale
	if loc == "" {
		loc = c.Locale
	}
	if !translations.Has(loc) {
		loc = "en"
	}
	w := func(k string) string { return word(loc, k) }
	sty := printforms.StyleOf(loc)
	m := func(a money.Amount) string { return sty.Money(a, st.Currency) }
	sh := s.renderer.Sheet(loc, w("title"), w("contract")+" "+c.Number, st.CreatedAt)
	sh.Row(w("date"), sty.Date(st.SettledOn))
	sh.Row(w("landlord"), landlord)
	if landlordAddress != "" {
		sh.Row(w("address"), landlordAddress)
	}
	sh.Row(w("tenant"), tenant)
	if a := strings.TrimSpace(tenantAddress); a != "" {
		sh.Row(w("address"), a)
	}
	sh.Row(w("contract"), c.Number)
	sh.Row(w("property"), printforms.AddressLine(prop.Name, prop.Address, strings.TrimSpace(prop.PostalCode+" "+prop.City)))
	sh.Row(w("ended"), sty.Date(st.EndedOn))
	insp := w("norecord")
	if st.Matching != nil {
		insp = w("changed")
		if *st.Matching {
			insp = w("matching")
		}
	}
	sh.Row(w("inspection"), insp)
	out := settlementOut(st)
	sh.Section(w("deductions"))
	ded := out.Deductions
	if len(ded) == 0 {
		sh.Para(w("none"))
	}
	for _, d := range ded {
		sh.Row(d.Reason, m(d.Amount))
	}
	// The interest the deposit earned (§ 551 Abs. 3 BGB), receipt by
	// receipt, or why it earned none.
	interest := func(key string, vars map[string]string) string { return s.renderer.Text(loc, key, vars) }
	sh.Section(interest(printforms.KeyDepositInterest, nil))
	rule := law.Of(prop.CountryCode).DepositInterest
	switch {
	case out.InterestRate == nil && rule.Source != "":
		sh.Para(interest(printforms.KeyDepositNoInterest, map[string]string{"source": rule.Source}))
	case out.InterestRate == nil || len(out.InterestLines) == 0:
		sh.Para(w("none"))
	default:
		rate := sty.Percent(out.InterestRate.String())
		for _, l := range out.InterestLines {
			sh.Row(interest(printforms.KeyDepositInterestLine, map[string]string{"amount": m(l.Amount), "from": sty.Date(l.ReceivedOn),
				"days": strconv.Itoa(l.Days), "to": sty.Date(st.SettledOn), "rate": rate}), m(l.Interest))
		}
	}
	// Every claim the deposit paid, charge by charge.
	if st.AppliedPaymentID != nil {
		lines, err := s.payments.LinesOf(ctx, *st.AppliedPaymentID)
		if err != nil {
			return nil, "", err
		}
		if len(lines) > 0 {
			sh.Section(w("claims"))
			for _, l := range lines {
				label := s.renderer.ChargeName(loc, l.ChargeName)
				if l.Period != "" {
					label += " (" + sty.Period(l.Period) + ")"
				}
				sh.Row(label, m(l.Amount))
			}
		}
	}
	sh.Section(w("summary"))
	sh.Row(w("held"), m(st.Held))
	sh.Row(interest(printforms.KeyDepositInterest, nil), "+ "+m(st.Interest))
	sh.Row(w("deductions"), "− "+m(st.DeductionsTotal))
	sh.Row(w("owed"), m(st.Owed))
	sh.Row(w("applied"), "− "+m(st.Applied))
	sh.Row(w("refund"), m(st.Refund))
	sh.Row(w("stillowed"), m(st.StillOwed))
	kind := w("customary")
	if st.Statutory {
		kind = w("statutory")
	}
	sh.Row(w("deadline"), sty.Date(st.Deadline)+" ("+kind+")")
	sh.Signatures(w("signatures"), [2]string{w("landlord"), w("tenant")}, [2]string{landlord, tenant})
	pdf, err := sh.Finish(w("title") + " " + c.Number)
	if err != nil {
		return nil, "", err
	}
	return pdf, fmt.Sprintf("deposit-settlement-%s.pdf", st.SettledOn), nil
}
