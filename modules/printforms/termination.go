package printforms

import (
	"context"
	"strings"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/period"
)

// Termination is the letter that confirms a contract's termination to the
// tenant (LANDLORD-CORE: "A termination is confirmed by a letter with the
// end date"): who writes to whom about which dwelling, on which day, the
// day the tenancy ends and the reason given.
type Termination struct {
	ContractNumber string
	// Date is the letter's: the day the termination was recorded.
	Date     period.Date
	Landlord Party
	Tenant   Party
	// PropertyName and PropertyAddress name the dwelling.
	PropertyName    string
	PropertyAddress string
	// Ends is the last day of the tenancy.
	Ends   period.Date
	Reason string
	// By is who gave notice (contracts.ByLandlord, ByTenant, ByMutual;
	// "" when not said); NoticeReceived the day the tenant's notice
	// arrived (zero: not said).
	By             string
	NoticeReceived period.Date
}

// TerminationText is the letter's subject and paragraphs in locale: the
// mail the tenant gets says the same as the PDF.
func (r *Renderer) TerminationText(locale string, t Termination) (subject string, paragraphs []string) {
	l, _ := r.labels.forLocale(locale)
	st := StyleOf(locale)
	title := l.get(keyTerminationTitle)
	subject = title + " – " + l.get(keyReceiptContract) + " " + clean(t.ContractNumber, false)
	property := clean(t.PropertyName, false)
	if a := clean(t.PropertyAddress, false); strings.TrimSpace(a) != "" {
		property += " (" + a + ")"
	}
	paragraphs = []string{
		strings.NewReplacer("{number}", clean(t.ContractNumber, false), "{property}", property).Replace(l.get(keyTerminationConfirm)),
		strings.NewReplacer("{date}", st.Date(t.Ends)).Replace(l.get(keyTerminationEnds)),
	}
	switch {
	case t.By == contracts.ByTenant && !t.NoticeReceived.IsZero():
		paragraphs = append(paragraphs, strings.NewReplacer("{date}", st.Date(t.NoticeReceived)).Replace(l.get(keyTerminationByTenantOn)))
	case t.By == contracts.ByTenant:
		paragraphs = append(paragraphs, l.get(keyTerminationByTenant))
	case t.By == contracts.ByLandlord:
		paragraphs = append(paragraphs, l.get(keyTerminationByLandlord))
	case t.By == contracts.ByMutual:
		paragraphs = append(paragraphs, l.get(keyTerminationMutual))
	}
	if reason := strings.TrimSpace(t.Reason); reason != "" {
		paragraphs = append(paragraphs, strings.NewReplacer("{reason}", reason).Replace(l.get(keyTerminationReason)))
	}
	paragraphs = append(paragraphs, l.get(keyTerminationHandover))
	return subject, paragraphs
}

// Termination renders the letter in locale as a PDF.
func (r *Renderer) Termination(locale string, t Termination) (out []byte, err error) {
	defer recoverRender(&err)
	l, _ := r.labels.forLocale(locale)
	title := l.get(keyTerminationTitle)
	_, paragraphs := r.TerminationText(locale, t)
	d := newDoc(locale, l, title, t.Date.Time())
	d.letterHead(title, t.ContractNumber, t.Date, t.Landlord, t.Tenant, AddressLine(t.PropertyName, t.PropertyAddress))
	d.row(l.get(keyEndDate), d.st.Date(t.Ends))
	d.gap(6)
	d.paragraphs(paragraphs)
	d.landlordSignature(t.Landlord.Name)
	return d.finish(title+" "+clean(t.ContractNumber, false), "")
}

// TerminationJob is the confirmation letter of the terminated contract
// with the raw id, as ContractJob checks access and picks the locale (the
// contract's by default). 409 not_terminated for a contract that was not
// terminated.
func (s *Service) TerminationJob(ctx context.Context, p auth.Principal, rawID, localeQuery string) (*Job, error) {
	c, err := s.contracts.Authorize(ctx, p, rawID)
	if err != nil {
		return nil, err
	}
	if c.Status != contracts.Terminated {
		return nil, fault.Conflict("not_terminated", "The contract was not terminated: there is no termination letter.")
	}
	owner, err := s.accounts.User(ctx, c.OwnerID)
	if err != nil {
		return nil, err
	}
	locale, err := s.Locale(localeQuery, c.Locale, owner.Locale)
	if err != nil {
		return nil, err
	}
	as := auth.InWorkspace(c.WorkspaceID, c.OwnerID)
	tenant, err := s.tenants.Authorize(ctx, as, c.TenantID.String())
	if err != nil {
		return nil, err
	}
	prop, err := s.props.Authorize(ctx, as, c.PropertyID.String())
	if err != nil {
		return nil, err
	}
	landlordAddress := ""
	if a := owner.PostalAddress(); a != nil {
		landlordAddress = s.formatAddress(a.Address, a.PostalCode, a.City, a.CountryCode, locale)
	}
	t := Termination{ContractNumber: c.Number, Date: period.DateOf(c.TerminationRecorded()),
		Landlord: Party{Name: owner.Name, Address: landlordAddress},
		Tenant:   Party{Name: tenant.Name, Address: strings.Join(strings.Fields(tenant.Address), " ")},
		// As the tenant's mail writes it (modules/notices): street, postal
		// code and city.
		PropertyName: prop.Name, PropertyAddress: AddressLine(prop.Address, strings.TrimSpace(prop.PostalCode+" "+prop.City)),
		Ends: c.TerminatedOn, Reason: c.TerminationReason, By: c.TerminatedBy, NoticeReceived: c.NoticeReceivedOn}
	v := newVersion("termination", s.labels, locale)
	v.add(c.ID.String(), stamp(c.UpdatedAt), stamp(owner.UpdatedAt), stamp(tenant.UpdatedAt), stamp(prop.UpdatedAt))
	return &Job{
		Key:      v.key(),
		Filename: "termination-" + c.Number + ".pdf",
		Render:   func() ([]byte, error) { return s.render.Termination(locale, t) },
	}, nil
}

// TerminationText is Renderer.TerminationText.
func (s *Service) TerminationText(locale string, t Termination) (string, []string) {
	return s.render.TerminationText(locale, t)
}

// Text is the text of one of the forms' keys (Key...) in locale, with
// {name} placeholders filled from vars: for another module's form drawn
// with a Sheet.
func (r *Renderer) Text(locale, key string, vars map[string]string) string {
	l, _ := r.labels.forLocale(locale)
	text := l.get(key)
	for k, v := range vars {
		text = strings.ReplaceAll(text, "{"+k+"}", v)
	}
	return text
}
