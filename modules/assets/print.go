package assets

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
)

// word is the inspection form's text of assets.print.<key> in the
// catalogue (English where a locale lacks one).
func word(locale, key string) string { return translations.Say(locale, "assets.print."+key) }

// InspectionPDF draws the inspection with the raw id in its contract's
// locale: the contract, property and date, every asset's condition, the
// meter readings, notes, on a check-out what changed since the check-in,
// and the signature lines of landlord and tenant. 404 for an unknown id,
// another workspace's inspection 403 (404 to a tenant).
func (s *Service) InspectionPDF(ctx context.Context, p auth.Principal, rawID, locale string) ([]byte, string, error) {
	ins, err := s.store.inspection(ctx, s.db, rawID, nil)
	if errors.Is(err, database.ErrNotFound) {
		return nil, "", errNoInspection()
	}
	if err != nil {
		return nil, "", err
	}
	if ins.WorkspaceID != p.WorkspaceID && !p.IsAdmin() {
		return nil, "", auth.Refuse(ctx, p, "This inspection belongs to another workspace.", "Inspection not found.")
	}
	c, err := s.contracts.ByID(ctx, s.db, ins.ContractID)
	if err != nil {
		return nil, "", err
	}
	prop, err := s.props.Authorize(ctx, p, ins.PropertyID.String())
	if err != nil {
		return nil, "", err
	}
	changes, err := s.changes(ctx, s.db, ins)
	if err != nil {
		return nil, "", err
	}
	pp := parties{property: printforms.AddressLine(prop.Name, prop.Address, strings.TrimSpace(prop.PostalCode+" "+prop.City))}
	if s.tenants != nil {
		if t, err := s.tenants.ByID(ctx, s.db, c.TenantID); err == nil {
			pp.tenant, pp.tenantAddress = t.Name, strings.Join(strings.Fields(t.Address), " ")
		}
	}
	if u, err := s.accounts.User(ctx, c.OwnerID); err == nil {
		pp.landlord = u.Name
		if a := u.PostalAddress(); a != nil {
			pp.landlordAddress = printforms.AddressLine(a.Address, strings.TrimSpace(a.PostalCode+" "+a.City))
		}
	}
	if locale == "" {
		locale = c.Locale
	}
	pdf, err := s.draw(c, locale, pp, ins, changes)
	if err != nil {
		return nil, "", err
	}
	return pdf, fmt.Sprintf("inspection-%s-%s.pdf", ins.Kind, ins.InspectedOn), nil
}

// parties are who and what an inspection report names.
type parties struct {
	landlord, landlordAddress, tenant, tenantAddress, property string
}

func (s *Service) draw(c *contracts.Contract, loc string, pp parties, ins *Inspection, changes []Change) ([]byte, error) {
	if !translations.Has(loc) {
		loc = "en"
	}
	w := func(k string) string { return word(loc, k) }
	st := printforms.StyleOf(loc)
	title := w(ins.Kind)
	sh := s.renderer.Sheet(loc, title, w("contract")+" "+c.Number, ins.CreatedAt)
	sh.Row(w("date"), st.Date(ins.InspectedOn))
	sh.Row(w("landlord"), pp.landlord)
	if pp.landlordAddress != "" {
		sh.Row(w("address"), pp.landlordAddress)
	}
	sh.Row(w("tenant"), pp.tenant)
	if pp.tenantAddress != "" {
		sh.Row(w("address"), pp.tenantAddress)
	}
	sh.Row(w("contract"), c.Number)
	sh.Row(w("property"), pp.property)
	sh.Section(w("assets"))
	items := parseItems(ins.Items)
	if len(items) == 0 {
		sh.Para(w("none"))
	}
	for _, it := range items {
		v := w(it.Condition)
		if it.Notes != "" {
			v += " – " + it.Notes
		}
		sh.Row(it.Name, v)
	}
	sh.Section(w("readings"))
	readings := parseReadings(ins.Readings)
	if len(readings) == 0 {
		sh.Para(w("none"))
	}
	for _, r := range readings {
		sh.Row(r.Counter, st.Decimal(string(r.Value))+" "+r.Unit)
	}
	if ins.Notes != "" {
		sh.Section(w("notes"))
		sh.Para(ins.Notes)
	}
	if ins.Kind == CheckOut {
		sh.Section(w("changes"))
		if len(changes) == 0 {
			sh.Para(w("nochange"))
		}
		for _, ch := range changes {
			before, after := w("missing"), w("missing")
			if ch.Before != nil {
				before = w(*ch.Before)
			}
			if ch.After != nil {
				after = w(*ch.After)
			}
			sh.Row(ch.Name, w("before")+": "+before+"; "+w("after")+": "+after)
		}
	}
	sh.Signatures(w("signatures"), [2]string{w("landlord"), w("tenant")}, [2]string{pp.landlord, pp.tenant})
	return sh.Finish(title + " " + c.Number)
}
