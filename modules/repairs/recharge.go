package repairs

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/chargename"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// The agreement blocks of Germany's small-repairs clause
// (Kleinreparaturklausel): the limit per repair, and the optional fixed
// yearly cap beside 8 % of the yearly net rent.
const (
	codeRepairLimit = "DE_KLEINREPARATUREN_LIMIT"
	codeYearlyCap   = "DE_KLEINREPARATUREN_YEARLY_CAP"
)

// yearlyShareE4 is the clause's yearly limit as a share of the yearly net
// rent, in hundredths of a percent: 8 %, as the printed clause says.
const yearlyShareE4 = 800

// tenantCategories are the categories a tenant may be charged for, by
// country:
//   - DE: the small-repairs clause covers only parts the tenant uses often
//     and directly (taps, switches, handles, thermostat valves, the
//     landlord's appliances), never damp, pests or what is not named;
//   - FR: the réparations locatives of the décret n° 87-712 (plomberie
//     and robinetterie, menues réparations of heating and hot water,
//     electrical switches and sockets, doors, windows and locks, the
//     appliances the lease names); damp and mould are the landlord's
//     (logement décent), pests are not on the list.
var tenantCategories = map[string][]string{
	"DE": {"plumbing", "heating", "electrical", "appliance", "windows_doors"},
	"FR": {"plumbing", "heating", "electrical", "appliance", "windows_doors"},
}

func errRecharge(code, msg string) error { return fault.Conflict(code, msg) }

// Recharged is what Recharge charged and why.
type Recharged struct {
	Amount  money.Amount
	Invoice money.Amount
	// Capped is true when the yearly limit cut the invoice down.
	Capped bool
}

// Recharge charges the tenant of a done (or closed) request's contract
// its repair's cost where the contract and the law allow it, as a charge
// of kind repair on the contract (modules/expenses), due on due (not
// before today), once per request. Otherwise 409 with the
// reason's code (README, "Recharging the tenant").
func (s *Service) Recharge(ctx context.Context, prop *properties.Property, rawID string, due period.Date) (*Request, *WorkOrder, *Recharged, error) {
	today := period.DateOf(s.now())
	if due.Before(today) {
		return nil, nil, nil, fault.Validation("due_date: must not be before today")
	}
	var out *Request
	var order *WorkOrder
	var got *Recharged
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		// The property's lock first: the charge needs it, and it orders
		// two recharges of one contract so the yearly sum is read after
		// the other's write.
		if _, err := properties.Lock(ctx, tx, prop.ID); err != nil {
			return err
		}
		r, err := s.find(ctx, tx, rawID, func(r *Request) bool { return r.PropertyID == prop.ID })
		if err != nil {
			return err
		}
		o, err := s.latest(ctx, tx, r.ID)
		if err != nil {
			return err
		}
		switch {
		case r.RechargeChargeID != nil:
			return errRecharge("recharge_exists", "This repair is already charged to the tenant.")
		case r.Status != Done && r.Status != Closed:
			return errTransition("repair request", r.Status, "recharged")
		case r.ContractID == nil:
			return errRecharge("recharge_no_contract", "The request is the property's alone: there is no tenant to charge.")
		case o == nil || o.Status != OrderDone || o.InvoiceMinor == nil || *o.InvoiceMinor <= 0:
			return errRecharge("recharge_no_invoice", "The provider gave no invoice amount: there is nothing to charge.")
		}
		c, err := s.contracts.ByID(ctx, tx, *r.ContractID)
		if err != nil {
			return err
		}
		invoice := money.Amount(*o.InvoiceMinor)
		day := period.DateOf(o.UpdatedAt)
		got, err = s.rechargeable(ctx, tx, prop, c, r, invoice, day)
		if err != nil {
			return err
		}
		name := chargename.Name{Kind: chargename.Repair, Args: []string{c.Number}}
		amount, dueDate := got.Amount, due
		ch, err := s.charges.CreateChargeTx(ctx, tx, prop, expenses.ChargeInput{Generated: &name, Amount: &amount, DueDate: &dueDate}, c.ID)
		if err != nil {
			return err
		}
		before := toJSON(r, o, true)
		minor := int64(got.Amount)
		r.RechargeChargeID, r.RechargeMinor, r.RechargeOn, r.UpdatedAt = &ch.ID, &minor, day, s.now()
		if ok, err := s.store.setRecharge(ctx, tx, r); err != nil || !ok {
			if err == nil {
				err = errRecharge("recharge_exists", "This repair is already charged to the tenant.")
			}
			return err
		}
		w := s.words(c.Locale)
		st := printforms.StyleOf(c.Locale)
		capped := ""
		if got.Capped {
			capped = " " + w.say("repairs.recharged.capped", "invoice", st.Money(invoice, prop.Currency))
		}
		basis := map[string]string{"DE": "de", "FR": "fr"}[prop.CountryCode]
		if err := s.tellKey(ctx, tx, r, "recharged", "repairs.recharged.body_"+basis, "", "amount", st.Money(got.Amount, prop.Currency),
			"due", st.Date(due), "capped", capped); err != nil {
			return err
		}
		out, order = r, o
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "repair_request", RecordID: r.ID.String(),
			WorkspaceID: r.WorkspaceID, Changes: activity.Diff(before, toJSON(r, o, true))})
	})
	if err != nil {
		return nil, nil, nil, err
	}
	return out, order, got, nil
}

// rechargeable is what of invoice the tenant of c may be charged for r,
// done on day, or the refusal with its reason.
func (s *Service) rechargeable(ctx context.Context, tx bun.IDB, prop *properties.Property, c *contracts.Contract, r *Request,
	invoice money.Amount, day period.Date) (*Recharged, error) {
	allowed, known := tenantCategories[prop.CountryCode]
	if !known {
		return nil, errRecharge("recharge_not_allowed", fmt.Sprintf(
			"propman knows no rule under which a tenant in %s bears repair costs; the landlord bears them.", prop.CountryCode))
	}
	if !slices.Contains(allowed, r.Category) {
		if prop.CountryCode == "FR" {
			return nil, errRecharge("recharge_not_tenant_repair", fmt.Sprintf(
				"A repair of category %s is not a réparation locative (décret n° 87-712): the landlord bears it.", r.Category))
		}
		return nil, errRecharge("recharge_not_tenant_repair", fmt.Sprintf(
			"A repair of category %s is not a small repair of parts the tenant uses often and directly: the landlord bears it.", r.Category))
	}
	if prop.CountryCode == "FR" {
		return &Recharged{Amount: invoice, Invoice: invoice}, nil
	}
	terms := c.TermList()
	limit, ok := termAmount(terms, codeRepairLimit)
	if !ok {
		return nil, errRecharge("recharge_no_clause", "The contract has no small-repairs clause (DE_KLEINREPARATUREN_LIMIT): the landlord bears the repair.")
	}
	// A repair above the limit is not a small repair: the clause does not
	// make the tenant pay a part of it up to the limit (BGH, 7 June 1989,
	// VIII ZR 91/88).
	if invoice > limit {
		return nil, errRecharge("recharge_above_repair_limit", fmt.Sprintf(
			"The invoice (%s) is above the contract's limit per repair (%s): the repair is not a small repair and the landlord bears all of it.",
			invoice, limit))
	}
	yearly, ok := yearlyLimit(c, terms, day)
	if !ok {
		return nil, errRecharge("recharge_no_clause", "The contract sets neither a rent nor a yearly cap, so the small-repairs clause has no yearly limit and cannot be applied.")
	}
	from, to := period.NewDate(day.Year(), 1, 1), period.NewDate(day.Year(), 12, 31)
	used, err := s.store.rechargedIn(ctx, tx, c.ID, from, to)
	if err != nil {
		return nil, err
	}
	left := yearly - money.Amount(used)
	if left <= 0 {
		return nil, errRecharge("recharge_yearly_limit_reached", fmt.Sprintf(
			"The tenant has been charged %s for small repairs in %d, the contract's yearly limit (%s).", money.Amount(used), day.Year(), yearly))
	}
	if invoice > left {
		return &Recharged{Amount: left, Invoice: invoice, Capped: true}, nil
	}
	return &Recharged{Amount: invoice, Invoice: invoice}, nil
}

// yearlyLimit is the clause's limit for the calendar year of day: 8 % of
// twelve times the rent in force on day, rounded down to the cent (never
// more than the clause allows), or the fixed yearly cap when that is
// lower; false when the contract has neither.
func yearlyLimit(c *contracts.Contract, terms []contracts.Term, day period.Date) (money.Amount, bool) {
	var limit money.Amount
	found := false
	if rent, _, _ := c.RentOn(day); rent != nil {
		limit, found = money.Amount(int64(*rent)*12*yearlyShareE4/10000), true
	}
	if fixed, ok := termAmount(terms, codeYearlyCap); ok && (!found || fixed < limit) {
		limit, found = fixed, true
	}
	return limit, found
}

// termAmount reads a money term of the contract in cents; false when it is
// absent, not a number, or not more than 0.
func termAmount(terms []contracts.Term, code string) (money.Amount, bool) {
	i := slices.IndexFunc(terms, func(t contracts.Term) bool { return t.Code == code })
	if i < 0 {
		return 0, false
	}
	if a, err := money.Parse(terms[i].Value); err == nil {
		return a, a > 0
	}
	var raw json.Number
	if json.Unmarshal(terms[i].Value, &raw) != nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(raw.String(), 64)
	if err != nil || f <= 0 || f > 1e9 {
		return 0, false
	}
	// More than two decimals: the tenant's favour, down to the cent.
	return money.Amount(math.Floor(f * 100)), true
}
