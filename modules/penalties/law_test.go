package penalties_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// deposit2 sets a deposit of two months' rent, a one-off charge due on the
// start date.
var deposit2 = map[string]any{"code": "DEPOSIT_MONTHS", "value": 2}

// byFor maps the property's penalties by the charge they were made for.
func (f fixture) byFor(t *testing.T) map[string]charge {
	t.Helper()
	out := map[string]charge{}
	for _, p := range f.penalties(t, "?per_page=200").Penalties {
		out[*p.PenaltyFor] = p
	}
	return out
}

// depositOf returns the contract's deposit charge.
func (f fixture) depositOf(t *testing.T, contractID string) charge {
	t.Helper()
	for _, c := range f.charges(t, "&kind=regular&contract_id="+contractID) {
		if c.Name == "Deposit" {
			return c
		}
	}
	t.Fatalf("contract %s has no deposit charge", contractID)
	return charge{}
}

// rentOf returns the contract's rent charge of the period (the deposit
// has a period too).
func (f fixture) rentOf(t *testing.T, contractID, period string) charge {
	t.Helper()
	for _, c := range f.charges(t, "&kind=regular&contract_id="+contractID) {
		if c.Period == period && strings.HasPrefix(c.Name, "Rent") {
			return c
		}
	}
	t.Fatalf("contract %s has no rent of %s", contractID, period)
	return charge{}
}

// refuse expects the refresh to answer 422 penalty_not_allowed with a line
// naming each contract number, and to change nothing.
func (f fixture) refuse(t *testing.T, numbers ...string) {
	t.Helper()
	before := len(f.charges(t, ""))
	res := f.app.Post(f.path("/penalties/refresh"), f.user.Token, nil).Expect(http.StatusUnprocessableEntity)
	m := res.Map()
	details, _ := m["details"].([]any)
	if m["error"] != "penalty_not_allowed" || len(details) != len(numbers) {
		t.Fatalf("refresh: %s, want penalty_not_allowed naming %v", res.String(), numbers)
	}
	for i, n := range numbers {
		if s, _ := details[i].(string); !strings.Contains(s, "contract "+n+":") {
			t.Errorf("details[%d] %q does not name contract %s", i, s, n)
		}
	}
	if after := len(f.charges(t, "")); after != before {
		t.Errorf("%d charges after a refused refresh, %d before", after, before)
	}
}

// Germany: a fixed late fee is void in a residential lease (BGB §555); the
// contract claims statutory default interest with DE_STATUTORY_INTEREST
// (it also carries LATE_FEE_PERCENTAGE 5, which is not charged). Rate:
// base rate 1.27 (the default) + 5 points = 6.27 % a year, per day over
// 365, from the due date to today (2026-11-22):
//   - October's rent, due 2026-10-01, 600.00 still owed after 400.00 paid,
//     52 days: 600.00 x 0.0627 x 52 / 365 = 5.3595... -> 5.36;
//   - November's rent, due 2026-11-01, 1000.00 owed, 21 days:
//     1000.00 x 0.0627 x 21 / 365 = 3.6073... -> 3.61;
//   - September's rent is paid: nothing;
//   - the deposit (2000.00, due 2026-09-01, unpaid) is not the base of a
//     late fee: nothing.
func TestGermanyChargesStatutoryInterestNotALateFee(t *testing.T) {
	f := start(t).inCountry(t, "DE")
	contract := f.activeContract(t, "D-1", 1000, "2026-09-01", 5, deposit2,
		map[string]any{"code": "DE_STATUTORY_INTEREST", "value": true})
	f.catchUp(t)
	sep, oct, nov := f.rentOf(t, contract, "2026-09"), f.rentOf(t, contract, "2026-10"), f.rentOf(t, contract, "2026-11")
	f.pay(t, sep.ID, "1000.00")
	f.pay(t, oct.ID, "400.00")
	dep := f.depositOf(t, contract)
	if dep.Amount.String() != "2000.00" || dep.DueDate != "2026-09-01" {
		t.Fatalf("deposit %+v", dep)
	}

	if r := f.refresh(t); r != (result{Created: 2}) {
		t.Fatalf("refresh %+v, want 2 created", r)
	}
	got := f.byFor(t)
	for _, w := range []struct {
		of     charge
		amount string
	}{{oct, "5.36"}, {nov, "3.61"}} {
		p, ok := got[w.of.ID]
		if !ok || p.Amount.String() != w.amount || p.Name != "Default interest: "+w.of.Name || p.Kind != "penalty" || p.DueDate != "2026-11-22" {
			t.Errorf("interest on %s: %+v, want %s", w.of.Period, p, w.amount)
		}
	}
	if _, ok := got[dep.ID]; ok {
		t.Errorf("the deposit got a penalty: %+v", got[dep.ID])
	}
	if r := f.refresh(t); r != (result{Skipped: 2}) {
		t.Errorf("second refresh %+v, want 2 skipped", r)
	}
}

// The base rate is configuration: 3.62 + 5 = 8.62 % on November's rent,
// 1000.00 x 0.0862 x 21 / 365 = 4.9594... -> 4.96.
func TestGermanBaseRateIsConfigured(t *testing.T) {
	f := start(t, testkit.WithConfig("modules.penalties.interest.de.base", "3.62")).inCountry(t, "DE")
	contract := f.activeContract(t, "D-2", 1000, "2026-11-01", nil, map[string]any{"code": "DE_STATUTORY_INTEREST", "value": true})
	f.catchUp(t)
	nov := f.rentOf(t, contract, "2026-11")
	if r := f.refresh(t); r != (result{Created: 1}) {
		t.Fatalf("refresh %+v", r)
	}
	if p := f.byFor(t)[nov.ID]; p.Amount.String() != "4.96" {
		t.Errorf("interest %+v, want 4.96", p)
	}
}

// A German contract with only a fixed late fee, and a French one with a
// late fee or with the statutory-interest block (France has no configured
// rate: interest runs from a formal notice), are refused: 422
// penalty_not_allowed, nothing charged. A German one with nothing overdue
// does not stand in the way.
func TestFixedLateFeeRefusedWhereTheLawForbidsIt(t *testing.T) {
	f := start(t)
	de := f.inCountry(t, "DE")
	de.activeContract(t, "DE-5", 1000, "2026-10-01", 5, deposit2)
	de.catchUp(t)
	de.refuse(t, "DE-5")
	if l := de.penalties(t, ""); l.Total != 0 {
		t.Errorf("%d penalties after 422", l.Total)
	}

	fr := f.inCountry(t, "FR")
	fr.activeContract(t, "FR-5", 800, "2026-10-01", 5)
	fr.catchUp(t)
	fr.refuse(t, "FR-5")

	frStat := f.inCountry(t, "FR")
	frStat.activeContract(t, "FR-S", 800, "2026-10-01", nil, map[string]any{"code": "FR_STATUTORY_INTEREST", "value": true})
	frStat.catchUp(t)
	frStat.refuse(t, "FR-S")

	// Nothing overdue yet: the refresh has nothing to refuse.
	future := f.inCountry(t, "DE")
	future.activeContract(t, "DE-F", 1000, "2026-12-01", 5)
	if r := future.refresh(t); r != (result{}) {
		t.Errorf("refresh with nothing overdue %+v", r)
	}
}

// In a country without such a rule the late fee is as before, but never on
// the deposit unless the contract's late_fee_base is all: 5 % of the
// deposit (2000.00) is 100.00.
func TestDepositIsNotTheBaseOfALateFeeUnlessTheContractSaysSo(t *testing.T) {
	f := start(t)
	contract := f.activeContract(t, "E-1", 1000, "2026-11-01", 5, deposit2)
	f.catchUp(t)
	nov, dep := f.rentOf(t, contract, "2026-11"), f.depositOf(t, contract)
	if dep.DueDate != "2026-11-01" {
		t.Fatalf("deposit %+v", dep)
	}
	if r := f.refresh(t); r != (result{Created: 1}) {
		t.Fatalf("refresh %+v, want 1 created (the rent only)", r)
	}
	if got := f.byFor(t); got[nov.ID].Amount.String() != "50.00" || len(got) != 1 {
		t.Fatalf("penalties %+v", got)
	}

	// The contract says the deposit is a base too (a setting changed on
	// an active contract).
	var c struct {
		LateFeeBase string `json:"late_fee_base"`
	}
	f.app.Put("/api/v1/contracts/"+contract, f.user.Token, map[string]any{"late_fee_base": "all"}).Expect(http.StatusOK).JSON(&c)
	if c.LateFeeBase != "all" {
		t.Fatalf("late_fee_base %q", c.LateFeeBase)
	}
	if r := f.refresh(t); r != (result{Created: 1, Skipped: 1}) {
		t.Fatalf("refresh %+v, want the deposit's penalty", r)
	}
	if p := f.byFor(t)[dep.ID]; p.Amount.String() != "100.00" {
		t.Errorf("deposit's penalty %+v, want 100.00", p)
	}
}
