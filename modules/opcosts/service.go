package opcosts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/bills"
	"github.com/propman/propman/modules/buildings"
	"github.com/propman/propman/modules/compensations"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/counters"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/messages"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/law"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// ServiceParams are the service's dependencies.
type ServiceParams struct {
	fx.In

	DB            *bun.DB
	Store         *Store
	Clock         clock.Clock
	Buildings     *buildings.Service
	Properties    *properties.Service
	Contracts     *contracts.Service
	Expenses      *expenses.Service
	Compensations *compensations.Service
	Renderer      *printforms.Renderer
	Accounts      *accounts.Service
	Dicts         *translations.Dictionaries
	Messages      *messages.Service
	Files         *documents.Files
	// Tenants is nil when the contragents module is off: the letters then
	// print no tenant name.
	Tenants *contragents.Service `optional:"true"`
}

// Service computes, posts and prints operating-cost statements.
type Service struct{ p ServiceParams }

// NewService returns the service.
func NewService(p ServiceParams) *Service { return &Service{p: p} }

func (s *Service) now() time.Time { return s.p.Clock.Now().UTC().Truncate(time.Microsecond) }

func (s *Service) today() period.Date { return period.DateOf(s.p.Clock.Now()) }

// Building returns the building with the raw id when p may see it.
func (s *Service) Building(ctx context.Context, p auth.Principal, rawID string) (*buildings.Building, error) {
	return s.p.Buildings.Authorize(ctx, p, rawID)
}

// KeySet is the key of every operating-cost category of a building and
// the consumption share of each category spread per HeizKV.
type KeySet struct {
	Keys   map[string]string `json:"keys"`
	Shares map[string]int    `json:"consumption_shares"`
}

// Keys returns the key of every operating-cost category of the building
// (area where none was set).
func (s *Service) Keys(ctx context.Context, b *buildings.Building) (KeySet, error) {
	rows, err := s.p.Store.keys(ctx, s.p.DB, b.ID)
	if err != nil {
		return KeySet{}, err
	}
	out := KeySet{Keys: make(map[string]string, len(bills.OperatingCategories)), Shares: map[string]int{}}
	for _, c := range bills.OperatingCategories {
		out.Keys[c] = KeyArea
	}
	for _, r := range rows {
		out.Keys[r.Category] = r.Key
		if r.Key == KeyHeizKV && r.Share != nil {
			out.Shares[r.Category] = *r.Share
		}
	}
	return out, nil
}

// SetKeys sets the keys given (category: key) and, for a category spread
// per HeizKV, its consumption share; an unknown category or key, a
// metered key on a category without meters, or a share outside 50-70 %
// is a 400 naming each, and nothing is written.
func (s *Service) SetKeys(ctx context.Context, b *buildings.Building, in KeySet) (KeySet, error) {
	var details []string
	cats := make([]string, 0, len(in.Keys))
	for c, k := range in.Keys {
		cats = append(cats, c)
		switch {
		case !slices.Contains(bills.OperatingCategories, c):
			details = append(details, "keys."+c+": not an operating-cost category (one of "+strings.Join(bills.OperatingCategories, ", ")+")")
		case !slices.Contains(Keys, k):
			details = append(details, "keys."+c+": must be one of "+strings.Join(Keys, ", "))
		case k == KeyHeizKV && !warm(c):
			details = append(details, "keys."+c+": heizkv (HeizKV) spreads heating and hot water only")
		case k == KeyConsumption && meterKinds[c] == nil:
			details = append(details, "keys."+c+": no meter counts this category; consumption spreads heating and water only")
		case k == KeyHeizKV:
			// § 7 Abs. 1 HeizKV for heating, § 8 Abs. 1 for hot water.
			para := "§ 7 Abs. 1 HeizKV"
			if c == CategoryHotWater {
				para = "§ 8 Abs. 1 HeizKV"
			}
			share, ok := in.Shares[c]
			if !ok {
				details = append(details, fmt.Sprintf("consumption_shares.%s: is required with heizkv (%d to %d %%, %s)", c, MinShare, MaxShare, para))
			} else if share < MinShare || share > MaxShare {
				details = append(details, fmt.Sprintf("consumption_shares.%s: the %s bills are spread %d to %d %% by consumption (%s), not %d %%",
					c, c, MinShare, MaxShare, para, share))
			}
		}
	}
	for c := range in.Shares {
		if in.Keys[c] != KeyHeizKV {
			details = append(details, "consumption_shares."+c+": only a category set to heizkv in the same request takes a share")
		}
	}
	if len(details) > 0 {
		slices.Sort(details)
		return KeySet{}, fault.Validation(details...)
	}
	slices.Sort(cats)
	before, err := s.Keys(ctx, b)
	if err != nil {
		return KeySet{}, err
	}
	err = database.RunInTx(ctx, s.p.DB, func(ctx context.Context, tx bun.Tx) error {
		for _, c := range cats {
			row := &KeyRow{BuildingID: b.ID, Category: c, Key: in.Keys[c], UpdatedAt: s.now()}
			if share, ok := in.Shares[c]; ok {
				row.Share = &share
			}
			if err := s.p.Store.setKey(ctx, tx, row); err != nil {
				return err
			}
		}
		after := maps(before.Keys, in.Keys)
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "opcost_keys", RecordID: b.ID.String(),
			WorkspaceID: b.WorkspaceID, Changes: activity.Diff(map[string]any{"keys": before.Keys, "consumption_shares": before.Shares},
				map[string]any{"keys": after, "consumption_shares": in.Shares})})
	})
	if err != nil {
		return KeySet{}, err
	}
	return s.Keys(ctx, b)
}

func maps(a, b map[string]string) map[string]string {
	out := make(map[string]string, len(a))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// Period is the body of a new statement.
type Period struct {
	From *period.Date `json:"period_from"`
	To   *period.Date `json:"period_to"`
	// CO2 is the heating's CO2 cost to split (Germany, CO2KostAufG).
	CO2 *CO2Input `json:"co2"`
	// EstimateMissing estimates the heating or hot-water consumption of a
	// unit without readings (§ 9a HeizKV) instead of refusing it.
	EstimateMissing bool `json:"estimate_missing"`
}

// checkCO2 checks the CO2 input of a statement of a building in country.
func checkCO2(country string, in *CO2Input) []string {
	if in == nil {
		return nil
	}
	if !strings.EqualFold(country, "DE") {
		return []string{"co2: the CO2 cost is split under the German CO2KostAufG, for buildings in Germany only"}
	}
	var details []string
	if in.Cost <= 0 || in.Cost > money.Max {
		details = append(details, "co2.cost: must be above 0 and at most "+money.Max.String())
	}
	if in.EmissionsKg <= 0 || in.EmissionsKg > money.Max {
		details = append(details, "co2.emissions_kg: must be above 0 and at most "+money.Max.String())
	}
	return details
}

// Create computes a draft statement of the building for the period. A
// period overlapping a posted statement is a 409; a key without its data
// (an area, a share, a household size, readings) a 422 naming the unit or
// contract.
func (s *Service) Create(ctx context.Context, p auth.Principal, b *buildings.Building, in Period) (*Statement, *Computation, error) {
	var details []string
	if in.From == nil {
		details = append(details, "period_from: is required")
	}
	if in.To == nil {
		details = append(details, "period_to: is required")
	}
	if len(details) == 0 {
		switch {
		case in.To.Before(*in.From):
			details = append(details, "period_to: must not be before period_from")
		case !in.To.Before(period.DateOf(in.From.Time().AddDate(1, 0, 0))):
			// § 556 Abs. 3 Satz 1 BGB: the statement is yearly.
			details = append(details, "period_to: a statement covers at most one year")
		}
	}
	details = append(details, checkCO2(b.Country, in.CO2)...)
	if len(details) > 0 {
		return nil, nil, fault.Validation(details...)
	}
	from, to := *in.From, *in.To
	overlap, err := s.p.Store.postedOverlapping(ctx, s.p.DB, b.ID, from, to, uuid.Nil)
	if err != nil {
		return nil, nil, err
	}
	if overlap {
		return nil, nil, fault.Conflict("period_overlaps_posted", "A posted statement of this building covers part of this period.")
	}
	return s.draft(ctx, p, b, from, to, in.CO2, in.EstimateMissing, nil)
}

// Correct computes a draft that corrects the posted statement st (same
// period, today's data): posting it books for each contract only the
// difference to what st booked. co2 nil keeps st's CO2 cost.
func (s *Service) Correct(ctx context.Context, p auth.Principal, b *buildings.Building, st *Statement, orig *Computation, co2 *CO2Input) (*Statement, *Computation, error) {
	if st.Status != Posted {
		return nil, nil, fault.Conflict("not_posted", "Only a posted statement (not a draft, nor one already corrected) can be corrected.")
	}
	if details := checkCO2(b.Country, co2); len(details) > 0 {
		return nil, nil, fault.Validation(details...)
	}
	if co2 == nil {
		co2 = orig.Input
	}
	return s.draft(ctx, p, b, st.From, st.To, co2, orig.EstimateMissing, &correcting{st: st, comp: orig})
}

// correcting is the posted statement a draft corrects.
type correcting struct {
	st   *Statement
	comp *Computation
}

// draft computes and stores a draft statement.
func (s *Service) draft(ctx context.Context, p auth.Principal, b *buildings.Building, from, to period.Date, co2 *CO2Input, estimate bool,
	corr *correcting) (*Statement, *Computation, error) {
	comp, currency, err := s.compute(ctx, p, b, from, to, co2, estimate)
	if err != nil {
		return nil, nil, err
	}
	comp.Input, comp.EstimateMissing = co2, estimate
	var corrects *uuid.UUID
	if corr != nil {
		corrects = &corr.st.ID
		booked := map[uuid.UUID]money.Amount{}
		for i := range corr.comp.Contracts {
			booked[corr.comp.Contracts[i].ContractID] = corr.comp.Contracts[i].Booked()
		}
		for i := range comp.Contracts {
			l := &comp.Contracts[i]
			l.PreviouslyBooked = booked[l.ContractID]
			delete(booked, l.ContractID)
		}
		// A contract the first statement charged and today's data no
		// longer holds gets back what it was charged.
		for _, old := range corr.comp.Contracts {
			if v, ok := booked[old.ContractID]; ok && v != 0 {
				comp.Contracts = append(comp.Contracts, ContractLine{ContractID: old.ContractID, ContractNumber: old.ContractNumber,
					PropertyID: old.PropertyID, Unit: old.Unit, Locale: old.Locale, From: old.From, To: old.To, PreviouslyBooked: v,
					PrepaymentMonthly: old.PrepaymentMonthly})
			}
		}
	}
	text, err := json.Marshal(comp)
	if err != nil {
		return nil, nil, fmt.Errorf("statement: %w", err)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, nil, fmt.Errorf("statement id: %w", err)
	}
	st := &Statement{ID: id, WorkspaceID: b.WorkspaceID, OwnerID: b.OwnerID, BuildingID: b.ID, From: from, To: to, Status: Draft,
		CorrectsID: corrects, Currency: currency, Computation: string(text), CreatedAt: s.now()}
	err = database.RunInTx(ctx, s.p.DB, func(ctx context.Context, tx bun.Tx) error {
		if err := s.p.Store.insert(ctx, tx, st); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "opcost_statement", RecordID: id.String(),
			WorkspaceID: b.WorkspaceID, Changes: activity.Diff(nil, map[string]any{"period_from": from, "period_to": to, "corrects": corrects})})
	})
	if err != nil {
		return nil, nil, err
	}
	return st, comp, nil
}

// monthlyPrepayment is the monthly prepayment c's terms set: the generic
// term, else Germany's running-costs prepayment; 0 for none.
func monthlyPrepayment(c *contracts.Contract) money.Amount {
	var de money.Amount
	for _, t := range c.TermList() {
		if t.Code != contracts.CodePrepayment && t.Code != contracts.CodePrepaymentDE {
			continue
		}
		a, err := money.Parse(t.Value)
		if err != nil {
			continue
		}
		if t.Code == contracts.CodePrepayment {
			return a
		}
		de = a
	}
	return de
}

// compute reads what the statement needs and spreads the costs.
func (s *Service) compute(ctx context.Context, p auth.Principal, b *buildings.Building, from, to period.Date, co2 *CO2Input, estimate bool) (*Computation, string, error) {
	units, err := buildings.UnitsOf(ctx, s.p.DB, b.ID)
	if err != nil {
		return nil, "", err
	}
	if len(units) == 0 {
		return nil, "", unprocessable("no_units", "The building has no units.")
	}
	keys, err := s.Keys(ctx, b)
	if err != nil {
		return nil, "", err
	}
	currency := ""
	in := make([]unitIn, len(units))
	ids := make([]uuid.UUID, len(units))
	var contractIDs []uuid.UUID
	for i, u := range units {
		prop, err := s.p.Properties.Authorize(ctx, p, u.PropertyID.String())
		if err != nil {
			return nil, "", err
		}
		if currency != "" && prop.Currency != currency {
			return nil, "", unprocessable("currency_mismatch", fmt.Sprintf("The unit %q is kept in %s, the building's other units in %s.", prop.Name, prop.Currency, currency))
		}
		currency = prop.Currency
		ids[i] = prop.ID
		in[i] = unitIn{PropertyID: prop.ID, Name: prop.Name, AreaCenti: prop.LivingAreaCenti, ShareE4: u.ShareE4,
			NonResidential: u.Use == buildings.UseNonResidential}
		pid := prop.ID
		dated, err := contracts.DatedIn(ctx, s.p.DB, b.WorkspaceID, from, to, contracts.DatedFilter{PropertyID: &pid})
		if err != nil {
			return nil, "", err
		}
		for _, d := range dated {
			o := occupancy{ContractID: d.ID, Number: d.Number, From: d.StartDate, To: to}
			if o.From.Before(from) {
				o.From = from
			}
			if end := d.EndsOn(); !end.IsZero() && end.Before(o.To) {
				o.To = end
			}
			if o.To.Before(o.From) {
				continue
			}
			c, err := s.p.Contracts.ByID(ctx, s.p.DB, d.ID)
			if err != nil {
				return nil, "", err
			}
			o.Locale, o.Monthly = c.Locale, monthlyPrepayment(c)
			charges, err := expenses.ContractCharges(ctx, s.p.DB, prop.ID, d.ID)
			if err != nil {
				return nil, "", err
			}
			for _, ch := range charges {
				if strings.HasPrefix(ch.Name, expenses.PrepaymentPrefix) && !ch.DueDate.Before(from) && !ch.DueDate.After(to) {
					o.Prepaid += ch.PaidAmount
					o.PrepaidCharged += ch.Amount
				}
			}
			in[i].Contracts = append(in[i].Contracts, o)
			contractIDs = append(contractIDs, d.ID)
		}
	}
	hh, err := buildings.HouseholdsOf(ctx, s.p.DB, contractIDs)
	if err != nil {
		return nil, "", err
	}
	for i := range in {
		for j := range in[i].Contracts {
			for _, h := range hh[in[i].Contracts[j].ContractID] {
				in[i].Contracts[j].Persons = append(in[i].Contracts[j].Persons, personsFrom{From: h.From, Persons: h.Persons})
			}
		}
	}
	// The meters of the metered categories, with the readings of a year
	// either side: a reading after the period's end still prorates its
	// last days.
	var kinds []string
	for c, k := range keys.Keys {
		if k == KeyConsumption || k == KeyHeizKV {
			kinds = append(kinds, meterKinds[c]...)
		}
	}
	if len(kinds) > 0 {
		list, readings, err := counters.ReadingsIn(ctx, s.p.DB, ids, kinds, from.AddDays(-400), to.AddDays(400))
		if err != nil {
			return nil, "", err
		}
		at := make(map[uuid.UUID]int, len(ids))
		for i, id := range ids {
			at[id] = i
		}
		for _, c := range list {
			m := meterIn{Kind: c.Kind, Unit: c.Unit}
			for _, r := range readings[c.ID] {
				m.Readings = append(m.Readings, readingIn{On: r.ReadOn, Value: int64(r.Value)})
			}
			in[at[c.PropertyID]].Meters = append(in[at[c.PropertyID]].Meters, m)
		}
	}
	list, err := bills.AllocableIn(ctx, s.p.DB, ids, from, to)
	if err != nil {
		return nil, "", err
	}
	bs := make([]billIn, 0, len(list))
	for _, bl := range list {
		if bl.OperatingCategory == nil || bl.Currency != currency {
			continue
		}
		bs = append(bs, billIn{PropertyID: bl.PropertyID, Category: *bl.OperatingCategory, Amount: bl.Amount})
	}
	shares := map[string]int{}
	for c, v := range keys.Shares {
		shares[c] = v
	}
	for c, k := range keys.Keys {
		if k == KeyHeizKV && shares[c] == 0 {
			shares[c] = MaxShare
		}
	}
	comp, err := compute(from, to, in, bs, settings{Keys: keys.Keys, Shares: shares, Kinds: meterKinds, CO2: co2, Estimate: estimate})
	return comp, currency, err
}

func errNoStatement() error { return fault.NotFound("Statement not found.") }

// Get returns the building's statement with the raw id and what it
// computed.
func (s *Service) Get(ctx context.Context, b *buildings.Building, rawID string) (*Statement, *Computation, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, nil, errNoStatement()
	}
	st, err := s.p.Store.byID(ctx, s.p.DB, b.ID, id)
	if errors.Is(err, errNotFound) {
		return nil, nil, errNoStatement()
	}
	if err != nil {
		return nil, nil, err
	}
	comp, err := decode(st)
	if err != nil {
		return nil, nil, err
	}
	return st, comp, nil
}

// decode reads what the statement computed.
func decode(st *Statement) (*Computation, error) {
	comp := new(Computation)
	if err := json.Unmarshal([]byte(st.Computation), comp); err != nil {
		return nil, fmt.Errorf("statement %s: %w", st.ID, err)
	}
	return comp, nil
}

func marshal(comp *Computation) (string, error) {
	text, err := json.Marshal(comp)
	if err != nil {
		return "", fmt.Errorf("statement: %w", err)
	}
	return string(text), nil
}

// List returns a page of the building's statements, latest period first,
// each with what it computed.
func (s *Service) List(ctx context.Context, b *buildings.Building, q listing.Query) ([]Statement, []*Computation, listing.Result, error) {
	list, res, err := s.p.Store.list(ctx, b.ID, q)
	if err != nil {
		return nil, nil, res, err
	}
	comps := make([]*Computation, len(list))
	for i := range list {
		comps[i] = new(Computation)
		if err := json.Unmarshal([]byte(list[i].Computation), comps[i]); err != nil {
			return nil, nil, res, fmt.Errorf("statement %s: %w", list[i].ID, err)
		}
	}
	return list, comps, res, nil
}

// Deadline is the day the statement must reach the tenants for a balance
// due to be claimed, under the law of the building's country; ok false
// where the law sets none.
func Deadline(country string, to period.Date) (period.Date, bool) {
	d, ok := law.Of(country).OperatingCosts.Deadline(to.Time())
	return period.DateOf(d), ok
}

// PostInput is the body of a posting.
type PostInput struct {
	// LateNotAtFault records that the landlord is not responsible for a
	// statement sent after the deadline (§ 556 Abs. 3 Satz 3 BGB).
	LateNotAtFault *bool `json:"late_not_at_fault"`
	// CreditsOnly posts the credits of a statement past its deadline and
	// records its balances due as excluded.
	CreditsOnly bool `json:"credits_only"`
}

// Post posts the draft once: a charge for each balance due, a pending
// compensation (a credit) for each credit, in one transaction.
func (s *Service) Post(ctx context.Context, p auth.Principal, b *buildings.Building, st *Statement, comp *Computation, in PostInput) error {
	if st.Status == Posted {
		return fault.Conflict("already_posted", "This statement has been posted.")
	}
	deadline, ok := Deadline(b.Country, st.To)
	late := ok && s.today().After(deadline)
	dues := 0
	for i := range comp.Contracts {
		if comp.Contracts[i].Difference() > 0 {
			dues++
		}
	}
	excused := in.LateNotAtFault != nil && *in.LateNotAtFault
	if late && dues > 0 && !excused && !in.CreditsOnly {
		return fault.New(fault.KindUnprocessable, "deadline_passed", fmt.Sprintf(
			"The deadline for this statement was %s (%s): a balance due can no longer be claimed. Post with late_not_at_fault: true if the delay was not your fault, or with credits_only: true to post the credits alone.",
			deadline, law.Of(b.Country).OperatingCosts.Source))
	}
	name := fmt.Sprintf("Operating-cost statement %s – %s", st.From, st.To)
	if st.CorrectsID != nil {
		name += " (correction)"
	}
	due := s.today().AddDays(30)
	// The properties' locks in one order, so two postings never wait on
	// each other crosswise.
	var props []uuid.UUID
	for _, l := range comp.Contracts {
		if !slices.Contains(props, l.PropertyID) {
			props = append(props, l.PropertyID)
		}
	}
	slices.SortFunc(props, func(a, b uuid.UUID) int { return strings.Compare(a.String(), b.String()) })
	return database.RunInTx(ctx, s.p.DB, func(ctx context.Context, tx bun.Tx) error {
		locked := map[uuid.UUID]*properties.Property{}
		for _, id := range props {
			prop, err := properties.Lock(ctx, tx, id)
			if err != nil {
				return err
			}
			locked[id] = prop
		}
		// Asked under the units' locks: another draft of the building
		// posted meanwhile has taken the same locks, so it is seen here.
		if st.CorrectsID != nil {
			// The corrected statement gives way to this one; corrected
			// meanwhile by another draft, this one is stale.
			ok, err := s.p.Store.supersede(ctx, tx, *st.CorrectsID)
			if err != nil {
				return err
			}
			if !ok {
				return fault.Conflict("already_corrected", "The statement this draft corrects is no longer the posted one; correct the posted one.")
			}
		}
		overlap, err := s.p.Store.postedOverlapping(ctx, tx, b.ID, st.From, st.To, st.ID)
		if err != nil {
			return err
		}
		if overlap {
			return fault.Conflict("period_overlaps_posted", "A posted statement of this building covers part of this period.")
		}
		for i := range comp.Contracts {
			l := &comp.Contracts[i]
			prop := locked[l.PropertyID]
			diff := l.Difference()
			switch {
			case diff > 0 && late && !excused:
				l.Excluded = true
			case diff > 0:
				amount := diff
				c, err := s.p.Expenses.CreateChargeTx(ctx, tx, prop, expenses.ChargeInput{Name: &name, Amount: &amount, DueDate: &due}, l.ContractID)
				if err != nil {
					return err
				}
				l.ChargeID = &c.ID
			case diff < 0:
				cp, err := s.p.Compensations.CreateTx(ctx, tx, p, prop, compensations.Input{ContractID: l.ContractID, Kind: "overpayment_refund",
					Amount: -diff, Description: name})
				if err != nil {
					return err
				}
				l.CompensationID = &cp.ID
			}
		}
		text, err := json.Marshal(comp)
		if err != nil {
			return fmt.Errorf("statement: %w", err)
		}
		now := s.now()
		st.Status, st.Computation, st.LateNotAtFault, st.PostedAt = Posted, string(text), excused, &now
		ok, err := s.p.Store.markPosted(ctx, tx, st)
		if err != nil {
			return err
		}
		if !ok {
			return fault.Conflict("already_posted", "This statement has been posted.")
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "opcost_statement", RecordID: st.ID.String(),
			WorkspaceID: b.WorkspaceID, Changes: activity.Diff(map[string]any{"status": Draft}, map[string]any{"status": Posted, "corrects": st.CorrectsID})})
	})
}

// Delete removes a draft statement (a draft books nothing, so nothing else
// changes); a posted or superseded one is a 409 already_posted: it is
// corrected, never deleted.
func (s *Service) Delete(ctx context.Context, b *buildings.Building, st *Statement) error {
	if st.Status != Draft {
		return fault.Conflict("already_posted", "This statement has been posted: correct it instead of deleting it.")
	}
	return database.RunInTx(ctx, s.p.DB, func(ctx context.Context, tx bun.Tx) error {
		ok, err := s.p.Store.deleteDraft(ctx, tx, st.ID)
		if err != nil {
			return err
		}
		if !ok {
			return fault.Conflict("already_posted", "This statement has been posted: correct it instead of deleting it.")
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Deleted, RecordType: "opcost_statement", RecordID: st.ID.String(),
			WorkspaceID: st.WorkspaceID, Changes: activity.Diff(map[string]any{"period_from": st.From, "period_to": st.To, "status": st.Status}, nil)})
	})
}
