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
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/law"
	"github.com/propman/propman/platform/listing"
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

// Keys returns the key of every operating-cost category of the building
// (area where none was set).
func (s *Service) Keys(ctx context.Context, b *buildings.Building) (map[string]string, error) {
	set, err := s.p.Store.keys(ctx, s.p.DB, b.ID)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(bills.OperatingCategories))
	for _, c := range bills.OperatingCategories {
		out[c] = KeyArea
		if k, ok := set[c]; ok {
			out[c] = k
		}
	}
	return out, nil
}

// SetKeys sets the keys given (category: key); an unknown category or key
// is a 400 listing every one, a key of the later slice too, and nothing
// is written.
func (s *Service) SetKeys(ctx context.Context, b *buildings.Building, in map[string]string) (map[string]string, error) {
	var details []string
	cats := make([]string, 0, len(in))
	for c, k := range in {
		cats = append(cats, c)
		switch {
		case !slices.Contains(bills.OperatingCategories, c):
			details = append(details, "keys."+c+": not an operating-cost category (one of "+strings.Join(bills.OperatingCategories, ", ")+")")
		case slices.Contains(laterKeys, k):
			details = append(details, "keys."+c+": the key "+k+" (metered consumption, heating per HeizKV) is not available yet; use one of "+strings.Join(Keys, ", "))
		case !slices.Contains(Keys, k):
			details = append(details, "keys."+c+": must be one of "+strings.Join(Keys, ", "))
		}
	}
	if len(details) > 0 {
		slices.Sort(details)
		return nil, apierror.Validation(details...)
	}
	slices.Sort(cats)
	before, err := s.Keys(ctx, b)
	if err != nil {
		return nil, err
	}
	err = database.RunInTx(ctx, s.p.DB, func(ctx context.Context, tx bun.Tx) error {
		for _, c := range cats {
			if err := s.p.Store.setKey(ctx, tx, &KeyRow{BuildingID: b.ID, Category: c, Key: in[c], UpdatedAt: s.now()}); err != nil {
				return err
			}
		}
		after := maps(before, in)
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "opcost_keys", RecordID: b.ID.String(),
			WorkspaceID: b.WorkspaceID, Changes: activity.Diff(before, after)})
	})
	if err != nil {
		return nil, err
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
}

// Create computes a draft statement of the building for the period. A
// period overlapping a posted statement is a 409; a key without its data
// (an area, a share, a household size) a 422 naming the unit or contract.
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
	if len(details) > 0 {
		return nil, nil, apierror.Validation(details...)
	}
	from, to := *in.From, *in.To
	overlap, err := s.p.Store.postedOverlapping(ctx, s.p.DB, b.ID, from, to, uuid.Nil)
	if err != nil {
		return nil, nil, err
	}
	if overlap {
		return nil, nil, apierror.Conflict("period_overlaps_posted", "A posted statement of this building covers part of this period.")
	}
	comp, currency, err := s.compute(ctx, p, b, from, to)
	if err != nil {
		return nil, nil, err
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
		Currency: currency, Computation: string(text), CreatedAt: s.now()}
	err = database.RunInTx(ctx, s.p.DB, func(ctx context.Context, tx bun.Tx) error {
		if err := s.p.Store.insert(ctx, tx, st); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "opcost_statement", RecordID: id.String(),
			WorkspaceID: b.WorkspaceID, Changes: activity.Diff(nil, map[string]any{"period_from": from, "period_to": to})})
	})
	if err != nil {
		return nil, nil, err
	}
	return st, comp, nil
}

// compute reads what the statement needs and spreads the costs.
func (s *Service) compute(ctx context.Context, p auth.Principal, b *buildings.Building, from, to period.Date) (*Computation, string, error) {
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
		in[i] = unitIn{PropertyID: prop.ID, Name: prop.Name, AreaCenti: prop.LivingAreaCenti, ShareE4: u.ShareE4}
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
			o.Locale = c.Locale
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
	comp, err := compute(from, to, in, bs, keys)
	return comp, currency, err
}

func errNoStatement() error { return apierror.NotFound("Statement not found.") }

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
	comp := new(Computation)
	if err := json.Unmarshal([]byte(st.Computation), comp); err != nil {
		return nil, nil, fmt.Errorf("statement %s: %w", st.ID, err)
	}
	return st, comp, nil
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
		return apierror.Conflict("already_posted", "This statement has been posted.")
	}
	deadline, ok := Deadline(b.Country, st.To)
	late := ok && s.today().After(deadline)
	dues := 0
	for _, l := range comp.Contracts {
		if l.Result > 0 {
			dues++
		}
	}
	excused := in.LateNotAtFault != nil && *in.LateNotAtFault
	if late && dues > 0 && !excused && !in.CreditsOnly {
		return apierror.New(422, "deadline_passed", fmt.Sprintf(
			"The deadline for this statement was %s (%s): a balance due can no longer be claimed. Post with late_not_at_fault: true if the delay was not your fault, or with credits_only: true to post the credits alone.",
			deadline, law.Of(b.Country).OperatingCosts.Source))
	}
	name := fmt.Sprintf("Operating-cost statement %s – %s", st.From, st.To)
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
		overlap, err := s.p.Store.postedOverlapping(ctx, tx, b.ID, st.From, st.To, st.ID)
		if err != nil {
			return err
		}
		if overlap {
			return apierror.Conflict("period_overlaps_posted", "A posted statement of this building covers part of this period.")
		}
		for i := range comp.Contracts {
			l := &comp.Contracts[i]
			prop := locked[l.PropertyID]
			switch {
			case l.Result > 0 && late && !excused:
				l.Excluded = true
			case l.Result > 0:
				amount := l.Result
				c, err := s.p.Expenses.CreateChargeTx(ctx, tx, prop, expenses.ChargeInput{Name: &name, Amount: &amount, DueDate: &due}, l.ContractID)
				if err != nil {
					return err
				}
				l.ChargeID = &c.ID
			case l.Result < 0:
				cp, err := s.p.Compensations.CreateTx(ctx, tx, p, prop, compensations.Input{ContractID: l.ContractID, Kind: "overpayment_refund",
					Amount: -l.Result, Description: name})
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
			return apierror.Conflict("already_posted", "This statement has been posted.")
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "opcost_statement", RecordID: st.ID.String(),
			WorkspaceID: b.WorkspaceID, Changes: activity.Diff(map[string]any{"status": Draft}, map[string]any{"status": Posted})})
	})
}
