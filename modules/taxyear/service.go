package taxyear

import (
	"context"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/bills"
	"github.com/propman/propman/modules/ledger"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/journal"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// depositSettlements is the journal source of a settlement's deductions.
const depositSettlements = "deposit_settlements"

// The years a tax year may be asked for.
const (
	MinYear = 2000
	MaxYear = 2100
)

// Service computes tax years.
type Service struct {
	db         *bun.DB
	store      *Store
	clock      clock.Clock
	properties *properties.Service
	accounts   *accounts.Service
	ledger     *ledger.Service
	dicts      *translations.Dictionaries
}

// NewService returns the service.
func NewService(db *bun.DB, store *Store, clk clock.Clock, props *properties.Service, acc *accounts.Service,
	books *ledger.Service, dicts *translations.Dictionaries) *Service {
	return &Service{db: db, store: store, clock: clk, properties: props, accounts: acc, ledger: books, dicts: dicts}
}

// Request is what a tax year is asked for; zero values take the defaults.
type Request struct {
	Year       int
	Form       string
	PropertyID string
	Locale     string
}

// Line is one line of a form with its amount (nil on a manual line).
type Line struct {
	Line   string
	Key    string
	Kind   string
	Label  string
	Amount *money.Amount
}

// Block is a form filled in for one property, or summed over the
// workspace's properties of one currency (Property nil).
type Block struct {
	PropertyID *uuid.UUID
	Name       string
	Address    string
	Country    string
	Currency   string
	Lines      []Line
}

// Report is a tax year: one block per property and the workspace's
// totals per currency.
type Report struct {
	Form       string
	Year       int
	From, To   period.Date
	Locale     string
	Title      string
	Owner      string
	Properties []Block
	Totals     []Block
	words      map[string]string
}

// Word is the catalogue's text of a tax-year key in the report's locale.
func (r *Report) Word(key string) string { return r.words[key] }

func errBadForm() error {
	return fault.Validation("form: must be one of " + strings.Join(Forms, ", ") + ", or absent for the form of the properties' country")
}

// Compute fills in the form of the year from the books.
func (s *Service) Compute(ctx context.Context, p *auth.Principal, in Request) (*Report, error) {
	if in.Year == 0 {
		in.Year = s.clock.Now().UTC().Year() - 1
	}
	if in.Year < MinYear || in.Year > MaxYear {
		return nil, fault.Validation("year: must be a year from 2000 to 2100")
	}
	if in.Form != "" && !slices.Contains(Forms, in.Form) {
		return nil, errBadForm()
	}
	var props []propertyRow
	var only *uuid.UUID
	if in.PropertyID != "" {
		prop, err := s.properties.Authorize(ctx, *p, in.PropertyID)
		if fault.Is(err, fault.KindForbidden) || err == nil && prop.WorkspaceID != p.WorkspaceID {
			// Another workspace's property is not there for this one.
			return nil, fault.NotFound("Property not found.")
		}
		if err != nil {
			return nil, err
		}
		only = &prop.ID
		props = []propertyRow{{ID: prop.ID, Name: prop.Name, Address: prop.Address, Postal: prop.PostalCode, City: prop.City, Country: prop.CountryCode,
			Currency: prop.Currency, OwnerID: prop.OwnerID}}
	} else {
		var err error
		if props, err = s.store.properties(ctx, p.WorkspaceID); err != nil {
			return nil, err
		}
	}
	form := in.Form
	if form == "" {
		for _, pr := range props {
			f, ok := formOfCountry[pr.Country]
			if !ok {
				return nil, fault.Validation("form: is required: no form is known for the country " + pr.Country)
			}
			if form != "" && f != form {
				return nil, fault.Validation("form: is required: the workspace's properties are in countries with different forms")
			}
			form = f
		}
		if form == "" {
			return nil, fault.Validation("form: is required: the workspace has no property to take the country from")
		}
	}
	rep := &Report{Form: form, Year: in.Year, Locale: "en", Properties: []Block{}, Totals: []Block{}}
	rep.From, rep.To = periodOf(form, in.Year)
	owner := p.UserID
	if len(props) > 0 {
		owner = props[0].OwnerID
	}
	if u, err := s.accounts.User(ctx, owner); err == nil {
		rep.Owner = u.Name
		if u.Locale != "" {
			rep.Locale = u.Locale
		}
	}
	if in.Locale != "" {
		rep.Locale = in.Locale
	}
	rep.words = s.words(rep.Locale, form)
	rep.Title = rep.words["title"]

	sums, err := s.sources(ctx, p.WorkspaceID, only, props, rep.From, rep.To)
	if err != nil {
		return nil, err
	}
	totals := map[string]map[string]money.Amount{}
	var currencies []string
	for _, pr := range props {
		got := sums[pr.ID]
		id := pr.ID
		addr := strings.TrimSpace(pr.Postal + " " + pr.City)
		if pr.Address != "" && addr != "" {
			addr = pr.Address + ", " + addr
		} else if pr.Address != "" {
			addr = pr.Address
		}
		rep.Properties = append(rep.Properties, rep.block(&id, pr.Name, addr, pr.Country, pr.Currency, got))
		t, ok := totals[pr.Currency]
		if !ok {
			t = map[string]money.Amount{}
			totals[pr.Currency] = t
			currencies = append(currencies, pr.Currency)
		}
		for k, v := range got {
			t[k] += v
		}
	}
	slices.Sort(currencies)
	for _, cur := range currencies {
		rep.Totals = append(rep.Totals, rep.block(nil, "", "", "", cur, totals[cur]))
	}
	return rep, nil
}

// sources sums, per property, what each source of the form's lines came
// to from..to: money received by class, bills paid by category, and the
// compensations the ledger booked.
func (s *Service) sources(ctx context.Context, workspaceID int64, only *uuid.UUID, props []propertyRow, from, to period.Date) (map[uuid.UUID]map[string]money.Amount, error) {
	out := make(map[uuid.UUID]map[string]money.Amount, len(props))
	currency := make(map[uuid.UUID]string, len(props))
	for _, pr := range props {
		currency[pr.ID] = pr.Currency
	}
	at := func(id uuid.UUID) map[string]money.Amount {
		m, ok := out[id]
		if !ok {
			m = map[string]money.Amount{}
			out[id] = m
		}
		return m
	}
	rec, err := s.store.received(ctx, workspaceID, only, from, to)
	if err != nil {
		return nil, err
	}
	for _, r := range rec {
		m := at(r.PropertyID)
		switch journal.Account(r.Account) {
		case journal.RentIncome, "advance":
			m[srcRent] += r.Amount
		case journal.OtherIncome:
			m[srcOther] += r.Amount
		case journal.Prepayments:
			m[srcPrepayments] += r.Amount
		case journal.DepositsHeld:
			m[srcDeposits] += r.Amount
		}
	}
	paid, err := bills.PaidIn(ctx, s.db, workspaceID, only, from, to)
	if err != nil {
		return nil, err
	}
	for _, b := range paid {
		at(b.PropertyID)[b.Category] += b.Amount
	}
	// The compensations and the deposit deductions are the ledger's: a
	// claim set off is booked on the day it is set off, one paid out on
	// the day it is paid, a deduction on the day of the settlement.
	lines, err := s.ledger.WorkspaceSums(ctx, workspaceID, only, []journal.Account{journal.CompensationExpense, journal.OtherIncome}, from, to)
	if err != nil {
		return nil, err
	}
	for _, l := range lines {
		switch {
		case l.Currency != currency[l.PropertyID]:
		case l.Account == journal.CompensationExpense:
			at(l.PropertyID)[srcCompensation] += l.Debit - l.Credit
		case l.Account == journal.OtherIncome && l.SourceTable == depositSettlements:
			// What a settlement deducts from the deposit the landlord
			// keeps that day: received, as other income.
			at(l.PropertyID)[srcOther] += l.Credit - l.Debit
		}
	}
	// The depreciation of the year, from each property's basis: the key
	// is there (even at 0) when a basis is, so the line is computed.
	bases, err := s.store.bases(ctx, workspaceID, only)
	if err != nil {
		return nil, err
	}
	for id, b := range bases {
		if b.Currency == currency[id] {
			at(id)[srcDepreciation] += b.yearAmount(to.Year())
		}
	}
	return out, nil
}

// block fills in the form's lines from the sums of its sources.
func (r *Report) block(id *uuid.UUID, name, addr, country, currency string, sums map[string]money.Amount) Block {
	b := Block{PropertyID: id, Name: name, Address: addr, Country: country, Currency: currency}
	var income, expense money.Amount
	for _, d := range formLines[r.Form] {
		l := Line{Line: d.Line, Key: d.Key, Kind: d.Kind, Label: r.words[d.Key]}
		var v money.Amount
		for _, src := range d.Sources {
			v += sums[src]
		}
		kind := d.Kind
		if len(d.Sources) > 0 && recordedOnly[d.Sources[0]] {
			if _, ok := sums[d.Sources[0]]; !ok {
				kind = kindManual
			}
		}
		l.Kind = kind
		switch kind {
		case kindManual:
			b.Lines = append(b.Lines, l)
			continue
		case kindIncome:
			income += v
		case kindExpense:
			expense += v
		case kindTotal:
			switch d.Key {
			case totalIncome:
				v = income
			case totalExpenses:
				v = expense
			case totalResult:
				v = income - expense
			}
		}
		l.Amount = &v
		b.Lines = append(b.Lines, l)
	}
	return b
}

// words are the catalogue's texts of the form in locale: its title, its
// lines' labels, and the PDF's words.
func (s *Service) words(locale, form string) map[string]string {
	// Catalogue keys are dotted words: anlage_v, 2044, sa105, schedule_e.
	key := strings.ReplaceAll(form, "-", "_")
	var keys []string
	for _, d := range formLines[form] {
		keys = append(keys, "taxyear."+key+"."+d.Key)
	}
	keys = append(keys, "taxyear."+key+".title", "taxyear."+key+".line_word")
	for _, k := range pdfKeys {
		keys = append(keys, "taxyear.pdf."+k)
	}
	found, _ := s.dicts.Select(locale, keys)
	out := make(map[string]string, len(found))
	for k, v := range found {
		k = strings.TrimPrefix(k, "taxyear.")
		k = strings.TrimPrefix(k, key+".")
		out[k] = v
	}
	return out
}
