package printforms

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"go.uber.org/fx"
	"golang.org/x/sync/singleflight"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/agreements"
	"github.com/propman/propman/modules/bankaccounts"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/period"
)

// formVersion is part of every ETag: raise it when the layout changes, so
// clients holding a PDF drawn the old way get the new one. (A changed
// label changes the ETags by itself: Labels.Version.)
const formVersion = "2"

// Job is one form to send: its version key (the ETag's content and the
// cache key), its filename, and how to draw it when no cached copy exists.
type Job struct {
	Key string
	// Filename is the attachment's name; Content-Disposition gives it as an
	// ASCII fallback and as UTF-8 (filename*).
	Filename string
	// Warnings name what the form could not fill in (WarnLandlordAddress,
	// ...), sent in the Propman-Warnings header.
	Warnings []string
	Render   func() ([]byte, error)
	// SHA256 is set for the stored original of a contract (signed.go):
	// the hex digest of the bytes Render returns, sent as X-Content-SHA256.
	SHA256 string
}

// Service gathers what a form shows, through the other modules' exported
// services, and decides its locale and version.
type Service struct {
	db        *bun.DB
	contracts *contracts.Service
	tenants   *contragents.Service
	props     *properties.Service
	accounts  *accounts.Service
	blocks    *agreements.Blocks
	dir       directory
	render    *Renderer
	labels    string
	// files stores a contract's lease as printed at activation; nil when
	// the documents module is off (every form is then drawn live).
	files *documents.Files
	clock clock.Clock
	texts *Labels
	// freezing stores one original per contract when several first
	// requests come at once.
	freezing singleflight.Group
}

// directory is what the service reads of *reference.Directory (an
// interface so the receipt path can be tested without a database).
type directory interface {
	Language(code string) (reference.Language, bool)
	Country(code string) (reference.Country, bool)
}

// ServiceParams are the service's dependencies as fx provides them.
type ServiceParams struct {
	fx.In

	DB          *bun.DB
	Contracts   *contracts.Service
	Contragents *contragents.Service
	Properties  *properties.Service
	Accounts    *accounts.Service
	Directory   *reference.Directory
	Blocks      *agreements.Blocks
	Renderer    *Renderer
	Labels      *Labels
	Clock       clock.Clock
	Files       *documents.Files `optional:"true"`
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{db: p.DB, contracts: p.Contracts, tenants: p.Contragents, props: p.Properties, accounts: p.Accounts,
		blocks: p.Blocks, dir: p.Directory, render: p.Renderer, labels: p.Labels.Version(),
		files: p.Files, clock: p.Clock, texts: p.Labels}
}

// errLocale is the 400 of a ?locale= that is not an active language.
func errLocale() error {
	return fault.Validation("locale: must be the code of an active language (GET /api/v1/languages)")
}

// Locale is the form's locale: the query's when given (400 unless it is an
// active language), else the first of defaults that is an active
// language, else en. The code returned is the Directory's own string.
func (s *Service) Locale(query string, defaults ...string) (string, error) {
	if query = strings.TrimSpace(query); query != "" {
		if len(query) > 35 {
			return "", errLocale()
		}
		l, ok := s.dir.Language(query)
		if !ok {
			return "", errLocale()
		}
		return l.Code, nil
	}
	for _, d := range defaults {
		if l, ok := s.dir.Language(d); ok {
			return l.Code, nil
		}
	}
	return "en", nil
}

// ContractJob checks that p may see the contract with the raw id (404 for
// a non-UUID or unknown id, 403 for another user's unless p is an admin),
// picks the locale (?locale=, else the contract's, else its owner's, else
// en) and reads what the form shows. Nothing is drawn yet.
//
// A contract that left draft has one original: the PDF stored when it was
// activated (signed.go), served byte for byte in its own locale. Another
// locale is a live convenience translation, marked as such.
func (s *Service) ContractJob(ctx context.Context, p auth.Principal, rawID, localeQuery string) (*Job, error) {
	c, err := s.contracts.Authorize(ctx, p, rawID)
	if err != nil {
		return nil, err
	}
	owner, err := s.accounts.User(ctx, c.OwnerID)
	if err != nil {
		return nil, err
	}
	locale, err := s.Locale(localeQuery, c.Locale, owner.Locale)
	if err != nil {
		return nil, err
	}
	if c.Status == contracts.Draft || s.files == nil {
		return s.contractJob(ctx, c, owner, locale, "")
	}
	original, _ := s.Locale("", c.Locale, owner.Locale)
	if locale == original {
		return s.signedJob(ctx, c, owner)
	}
	return s.contractJob(ctx, c, owner, locale, original)
}

// contractJob reads what the form of c shows in locale; convenienceOf,
// when not empty, is the locale of the signed original, and the form is
// marked as a translation of it.
func (s *Service) contractJob(ctx context.Context, c *contracts.Contract, owner *accounts.User, locale, convenienceOf string) (*Job, error) {
	// The owner's view: the contract's property and tenant are the owner's
	// (the contracts module makes sure), whoever asks.
	as := auth.InWorkspace(c.WorkspaceID, c.OwnerID)
	tenant, err := s.tenants.Authorize(ctx, as, c.TenantID.String())
	if err != nil {
		return nil, err
	}
	prop, err := s.props.Authorize(ctx, as, c.PropertyID.String())
	if err != nil {
		return nil, err
	}
	terms := c.TermList()
	codes := make([]string, len(terms), len(terms)+1)
	for i, t := range terms {
		codes[i] = t.Code
	}
	// The country's statutory-interest block is the sign that its law
	// allows no fixed late fee (the penalties module refuses to charge
	// one there): a lease must not promise it.
	statutory := contracts.StatutoryInterestCode(prop.CountryCode)
	codes = append(codes, statutory)
	found, err := s.blocks.ByCodes(ctx, s.db, codes)
	if err != nil {
		return nil, err
	}
	blocks := make(map[string]agreements.Block, len(found))
	for _, b := range found {
		blocks[strings.ToUpper(b.Code)] = b
	}

	rents, err := s.contracts.Rents(ctx, c)
	if err != nil {
		return nil, err
	}
	acc, err := s.contracts.PaymentAccount(ctx, s.db, c)
	if err != nil {
		return nil, err
	}

	// The rents' history changes only with the contract's updated_at
	// (ChangeRent sets it), so the version needs no more than that.
	v := newVersion("contract", s.labels, locale)
	v.add(c.ID.String(), stamp(c.UpdatedAt), stamp(owner.UpdatedAt), stamp(tenant.UpdatedAt), stamp(prop.UpdatedAt), convenienceOf)
	if acc != nil {
		v.add(acc.ID.String(), stamp(acc.UpdatedAt))
	}
	phone := ""
	if owner.Phone != nil {
		phone = *owner.Phone
	}
	// Without a postal address in the profile the form says none is on
	// file and leaves a line to write it on (and Propman-Warnings says so).
	landlordAddress := ""
	if a := owner.PostalAddress(); a != nil {
		landlordAddress = s.formatAddress(a.Address, a.PostalCode, a.City, a.CountryCode, locale)
	}
	form := ContractForm{
		Number: c.Number, Currency: c.Currency,
		Landlord:     Party{Name: owner.Name, Address: landlordAddress, Email: owner.Email, Phone: phone},
		Tenant:       Party{Name: tenant.Name, Address: tenant.Address, Email: tenant.Email, Phone: tenant.Phone, TaxID: tenant.TaxID},
		PropertyName: prop.Name, PropertyAddress: s.address(prop, locale),
		Start: c.StartDate, End: c.EndDate, StartRent: c.Rent(), Deposit: c.Deposit(), DueDay: c.DueDay,
		DepositMonths: depositMonths(terms),
		Updated:       c.UpdatedAt,
		Bank:          BankOf(acc),
	}
	// The rent in force at the start is the first of the history; the
	// contract's rent_minor is the latest (it may already be a future
	// indexation's). A later rent is a letter of its own (notices), never
	// a clause of the signed lease: the lease reads as it was signed, its
	// date the day it was activated.
	if len(rents) > 0 {
		first := rents[0].Amount
		form.StartRent = &first
		if c.Status != contracts.Draft {
			form.Updated = rents[0].CreatedAt
		}
	}
	form.Country = prop.CountryCode
	form.CompanyLandlord = owner.LandlordTypeOf() == accounts.LandlordCompany
	form.LivingArea = prop.LivingArea()
	sb, noFixedFee := blocks[statutory]
	if noFixedFee {
		v.add(sb.Code, stamp(sb.UpdatedAt))
	}
	var warnings []string
	for _, t := range terms {
		if noFixedFee && strings.EqualFold(t.Code, contracts.CodeLateFee) {
			warnings = append(warnings, WarnLateFeeNotAllowed)
			continue
		}
		ft := FormTerm{Code: t.Code, Name: t.Code, Value: t.Value}
		if b, ok := blocks[strings.ToUpper(t.Code)]; ok {
			ft.Name, ft.DataType = localized(b.Name, locale, t.Code), b.DataType
			v.add(b.Code, stamp(b.UpdatedAt))
		}
		form.Terms = append(form.Terms, ft)
	}
	if convenienceOf != "" {
		form.Convenience = s.convenienceNote(locale, convenienceOf)
		warnings = append([]string{WarnConvenience}, warnings...)
	}
	if strings.TrimSpace(form.Landlord.Address) == "" {
		warnings = append(warnings, WarnLandlordAddress)
	}
	if strings.TrimSpace(form.Tenant.Address) == "" {
		warnings = append(warnings, WarnTenantAddress)
	}
	return &Job{
		Key:      v.key(),
		Filename: "contract-" + c.Number + ".pdf",
		Warnings: warnings,
		Render:   func() ([]byte, error) { return s.render.Contract(locale, form) },
	}, nil
}

// The warnings of a contract's form (the Propman-Warnings header): what
// the form had to leave for the parties to fill in by hand, or left out.
const (
	WarnLandlordAddress = "landlord_address_missing"
	WarnTenantAddress   = "tenant_address_missing"
	// WarnLateFeeNotAllowed: the contract agrees a fixed late fee
	// (LATE_FEE_PERCENTAGE) where the property's country allows none;
	// the form leaves the clause out.
	WarnLateFeeNotAllowed = "late_fee_not_allowed"
	// WarnConvenience: the contract was activated and its original is in
	// another language; this copy is a translation drawn from today's
	// data, not the signed original.
	WarnConvenience = "convenience_translation"
)

// depositMonthsCodes are the blocks that agree the deposit as a number of
// monthly rents, in the order the contracts module reads them.
var depositMonthsCodes = []string{contracts.CodeDepositMonths, "DE_KAUTION_MONTHS", "FR_DEPOT_GARANTIE_MONTHS", "ES_FIANZA_MONTHS"}

// depositMonths is the number of monthly rents the terms agree the
// deposit as (0: none).
func depositMonths(terms []contracts.Term) int64 {
	for _, code := range depositMonthsCodes {
		for _, t := range terms {
			if strings.EqualFold(t.Code, code) {
				return intOf(t.Value)
			}
		}
	}
	return 0
}

// ReceiptJob is ContractJob for a receipt the source finds.
func (s *Service) ReceiptJob(ctx context.Context, src ReceiptSource, p auth.Principal, rawID, localeQuery string) (*Job, error) {
	pr, err := src.PrintableReceipt(ctx, p, rawID)
	if err != nil {
		return nil, err
	}
	locale, err := s.Locale(localeQuery, pr.DefaultLocale)
	if err != nil {
		return nil, err
	}
	v := newVersion("receipt", s.labels, locale)
	v.add(rawID, pr.Version)
	rc := pr.Receipt
	if a := pr.LandlordAddress; a != nil {
		rc.Landlord.Address = s.formatAddress(a.Address, a.PostalCode, a.City, a.CountryCode, locale)
	}
	return &Job{
		Key:      v.key(),
		Filename: "receipt-" + rc.Number + ".pdf",
		Render:   func() ([]byte, error) { return s.render.Receipt(locale, rc) },
	}, nil
}

// address is the property's address as formatAddress writes it.
func (s *Service) address(p *properties.Property, locale string) string {
	return s.formatAddress(p.Address, p.PostalCode, p.City, p.CountryCode, locale)
}

// formatAddress is one line: the street, postal code and city, and the
// country's name in locale (its code when the country is unknown), the
// empty parts left out.
func (s *Service) formatAddress(street, postalCode, city, country, locale string) string {
	var parts []string
	add := func(v string) {
		if v = strings.TrimSpace(v); v != "" {
			parts = append(parts, v)
		}
	}
	add(street)
	add(strings.TrimSpace(postalCode + " " + city))
	if c, ok := s.dir.Country(country); ok {
		add(localized(c.Name, locale, c.Code))
	} else {
		add(country)
	}
	return strings.Join(parts, ", ")
}

// localized is m's text in locale, else in English, else def.
func localized(m map[string]string, locale, def string) string {
	if s := m[locale]; s != "" {
		return s
	}
	if s := m["en"]; s != "" {
		return s
	}
	return def
}

func stamp(t time.Time) string { return strconv.FormatInt(t.UnixNano(), 36) }

// version digests everything a form's bytes depend on.
type version struct{ parts []string }

func newVersion(kind, labels, locale string) *version {
	return &version{parts: []string{formVersion, kind, labels, locale}}
}

func (v *version) add(parts ...string) { v.parts = append(v.parts, parts...) }

// key is the digest: 32 hex digits.
func (v *version) key() string {
	h := sha256.New()
	for _, p := range v.parts {
		h.Write([]byte(strconv.Itoa(len(p))))
		h.Write([]byte{':'})
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// ChargeName is Renderer.ChargeName: a charge's name in locale.
func (s *Service) ChargeName(locale, name string) string { return s.render.ChargeName(locale, name) }

// Demand is Renderer.Demand: a formal demand for payment as a PDF.
func (s *Service) Demand(locale string, dm Demand) ([]byte, error) {
	return s.render.Demand(locale, dm)
}

// BankOf is the account a as the forms print it; nil for nil.
func BankOf(a *bankaccounts.Account) *Bank {
	if a == nil {
		return nil
	}
	return &Bank{Holder: a.Holder, IBAN: a.IBAN, BIC: a.BIC, BankName: a.BankName, Currency: a.Currency}
}

// RentCall is Renderer.RentCall: a rent call's letter as a PDF, with the
// EPC QR code of the payment when it is in euros.
func (s *Service) RentCall(locale string, rc RentCall) ([]byte, error) {
	return s.render.RentCall(locale, rc)
}

// BankLines is Renderer.BankLines: the account as lines of a mail.
func (s *Service) BankLines(locale string, b *Bank, remittance string) string {
	return s.render.BankLines(locale, b, remittance)
}

// Remittance is Renderer.Remittance: a rent call's payment reference.
func (s *Service) Remittance(locale string, due period.Date, number string) string {
	return s.render.Remittance(locale, due, number)
}
