package penalties_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
)

// want is a penalty expected for an overdue charge.
type want struct {
	forCharge charge
	amount    string
}

// checkPenalties compares the property's penalty list with want: one
// penalty per charge, its amount, name, period, contract, currency, due
// today, unpaid.
func checkPenalties(t *testing.T, f fixture, wants []want) {
	t.Helper()
	l := f.penalties(t, "?per_page=200")
	if l.Total != len(wants) || len(l.Penalties) != len(wants) {
		t.Fatalf("%d penalties (total %d), want %d: %+v", len(l.Penalties), l.Total, len(wants), l.Penalties)
	}
	byFor := map[string]charge{}
	for _, p := range l.Penalties {
		if p.PenaltyFor == nil {
			t.Fatalf("penalty without penalty_for: %+v", p)
		}
		if _, dup := byFor[*p.PenaltyFor]; dup {
			t.Fatalf("two penalties for %s", *p.PenaltyFor)
		}
		byFor[*p.PenaltyFor] = p
	}
	for _, w := range wants {
		p, ok := byFor[w.forCharge.ID]
		if !ok {
			t.Errorf("no penalty for %s %s", w.forCharge.Name, w.forCharge.Period)
			continue
		}
		if p.Amount.String() != w.amount || p.Kind != "penalty" || p.Name != "Late fee: "+w.forCharge.Name ||
			p.Period != w.forCharge.Period || p.DueDate != "2026-11-22" || p.Status != "unpaid" ||
			p.Currency != w.forCharge.Currency || p.ContractID == nil || w.forCharge.ContractID == nil ||
			*p.ContractID != *w.forCharge.ContractID || p.Outstanding.String() != w.amount || p.PaidAmount.String() != "0.00" {
			t.Errorf("penalty for %s %s (outstanding %s): %+v, want amount %s", w.forCharge.Name, w.forCharge.Period,
				w.forCharge.Outstanding, p, w.amount)
		}
	}
}

// A contract with a 5% late fee, active since September: refresh-all
// bills September to November, all three overdue on 2026-11-22. September
// is paid in full (no fee), October in part (the fee on what is still
// owed), November not at all. A cancelled metered charge of the contract,
// a manual charge of no contract and a contract without the term get
// nothing; a second refresh creates nothing and counts the three as
// skipped.
func TestRefreshCreatesOnePenaltyPerOverdueCharge(t *testing.T) {
	f := start(t)
	contract := f.activeContract(t, "A-1", 1000, "2026-09-01", 5)
	f.catchUp(t)
	sep, oct, nov := f.chargeOf(t, contract, "2026-09"), f.chargeOf(t, contract, "2026-10"), f.chargeOf(t, contract, "2026-11")
	if nov.DueDate != "2026-11-01" || nov.Amount.String() != "1000.00" {
		t.Fatalf("november's rent %+v", nov)
	}
	f.pay(t, sep.ID, "1000.00")
	f.pay(t, oct.ID, "400.00")

	// A metered charge of the contract, overdue, then cancelled by
	// deleting its reading.
	var counter, reading struct {
		ID string `json:"id"`
	}
	f.app.Post(f.path("/counters"), f.user.Token, map[string]any{"kind": "electricity", "tariff": 1, "contract_id": contract}).
		Expect(http.StatusCreated).JSON(&counter)
	f.app.Post(f.path("/counters/"+counter.ID+"/readings"), f.user.Token, map[string]any{"read_on": "2026-09-01", "value": 0}).Expect(http.StatusCreated)
	f.app.Post(f.path("/counters/"+counter.ID+"/readings"), f.user.Token, map[string]any{"read_on": "2026-10-01", "value": 100}).
		Expect(http.StatusCreated).JSON(&reading)
	f.app.Delete(f.path("/counters/"+counter.ID+"/readings/"+reading.ID), f.user.Token).Expect(http.StatusNoContent)
	cancelled := 0
	for _, c := range f.charges(t, "&status=cancelled") {
		if c.ContractID != nil && *c.ContractID == contract && c.DueDate < "2026-11-22" {
			cancelled++
		}
	}
	if cancelled != 1 {
		t.Fatalf("%d overdue cancelled charges of the contract, want 1", cancelled)
	}
	// A manual charge of no contract, overdue.
	f.app.Post(f.path("/charges"), f.user.Token, map[string]any{"name": "Repair", "amount": 80, "due_date": "2026-10-05"}).Expect(http.StatusCreated)

	// Another property: a contract without the term.
	g := f.onProperty(t)
	other := g.activeContract(t, "B-1", 700, "2026-09-01", nil)
	g.catchUp(t)

	if r := f.refresh(t); r != (result{Created: 2}) {
		t.Fatalf("first refresh %+v, want 2 created", r)
	}
	oct = f.chargeOf(t, contract, "2026-10")
	checkPenalties(t, f, []want{{oct, "30.00"}, {nov, "50.00"}})
	if r := f.refresh(t); r != (result{Skipped: 2}) {
		t.Fatalf("second refresh %+v, want 2 skipped", r)
	}
	checkPenalties(t, f, []want{{oct, "30.00"}, {nov, "50.00"}})

	// The penalties are charges: newest due first, then newest made; the
	// charges list shows them with kind=penalty.
	if got := len(f.charges(t, "&kind=penalty")); got != 2 {
		t.Errorf("%d charges of kind penalty, want 2", got)
	}
	if l := f.penalties(t, "?contract_id="+contract+"&per_page=1"); l.Total != 2 || len(l.Penalties) != 1 || l.PerPage != 1 {
		t.Errorf("one page of the contract's penalties: %+v", l)
	}
	if l := f.penalties(t, "?contract_id="+other); l.Total != 0 || len(l.Penalties) != 0 {
		t.Errorf("penalties of another contract: %+v", l)
	}
	f.app.Get(f.path("/penalties?contract_id=nope"), f.user.Token).Expect(http.StatusBadRequest)

	if r := g.refresh(t); r != (result{}) {
		t.Errorf("refresh without a late fee: %+v, want nothing", r)
	}
	if l := g.penalties(t, ""); l.Total != 0 {
		t.Errorf("%d penalties without a late fee", l.Total)
	}
}

// 2.5% of 333.33 is 8.33325: 8.33. 2.5% of 33.00 (333.33 after 300.33
// were paid) is exactly 0.825: half away from zero gives 0.83 (truncation
// and half-to-even give 0.82). A charge due today is not overdue yet.
func TestRefreshRoundsHalfAwayFromZero(t *testing.T) {
	f := start(t)
	contract := f.activeContract(t, "C-1", 333.33, "2026-10-01", 2.5)
	// November's rent due on the 22nd, today: not overdue.
	late := f.onProperty(t)
	lateContract := late.activeContract(t, "C-2", 100, "2026-11-01", 5, map[string]any{"code": "PAYMENT_DAY_OF_MONTH", "value": 22})
	f.catchUp(t)
	late.catchUp(t)
	if c := late.chargeOf(t, lateContract, "2026-11"); c.DueDate != "2026-11-22" {
		t.Fatalf("the late contract's rent %+v", c)
	}
	oct, nov := f.chargeOf(t, contract, "2026-10"), f.chargeOf(t, contract, "2026-11")
	f.pay(t, oct.ID, "300.33")
	oct = f.chargeOf(t, contract, "2026-10")
	if oct.Outstanding.String() != "33.00" || oct.Status != "partially_paid" {
		t.Fatalf("october after a part payment %+v", oct)
	}
	if r := f.refresh(t); r != (result{Created: 2}) {
		t.Fatalf("refresh %+v, want 2 created", r)
	}
	checkPenalties(t, f, []want{{oct, "0.83"}, {nov, "8.33"}})
	if r := late.refresh(t); r != (result{}) {
		t.Errorf("refresh of a charge due today: %+v, want nothing", r)
	}
	// A charge paid after its penalty was made keeps the penalty; the
	// penalty itself is regular work for payments, never penalised again.
	f.pay(t, nov.ID, "333.33")
	f.app.Clock.Advance(40 * 24 * time.Hour)
	f.user = accountstest.NewUser(t, f.app, "ROLE_USER", "ROLE_ADMIN") // the old token expired; an admin may use any property
	if r := f.refresh(t); r != (result{Skipped: 1}) {
		t.Fatalf("refresh 40 days later %+v, want october skipped", r)
	}
	if l := f.penalties(t, ""); l.Total != 2 {
		t.Errorf("%d penalties, want 2 (none for a penalty)", l.Total)
	}
}

// Unallocated credit of a payment goes to the new penalties in the
// refresh's transaction, oldest due first (all are due today).
func TestRefreshUsesCreditOnPenalties(t *testing.T) {
	f := start(t)
	contract := f.activeContract(t, "A-1", 1000, "2026-09-01", 5)
	f.catchUp(t)
	nov := f.chargeOf(t, contract, "2026-11")
	// 60.00 of which 10.00 go to November's rent: 50.00 credit.
	f.app.Post(f.path("/payments"), f.user.Token, map[string]any{
		"amount": 60, "method": "cash", "allocations": []map[string]any{{"charge_id": nov.ID, "amount": 10}},
	}).Expect(http.StatusCreated)
	if r := f.refresh(t); r != (result{Created: 3}) {
		t.Fatalf("refresh %+v, want 3 created", r)
	}
	paid, statuses := 0.0, map[string]int{}
	var amounts []string
	for _, p := range f.penalties(t, "").Penalties {
		v, _ := p.PaidAmount.Float64()
		paid += v
		statuses[p.Status]++
		amounts = append(amounts, p.Amount.String())
	}
	// 50.00 + 50.00 + 49.50 (5% of 990.00); the credit pays 50.00.
	if paid != 50 || statuses["paid"] != 1 || statuses["unpaid"] != 2 {
		t.Fatalf("penalties %v: paid %v in all, statuses %v; want one paid by the 50.00 credit", amounts, paid, statuses)
	}
	var balance struct {
		Credit any `json:"credit"`
	}
	f.app.Get(f.path("/balance"), f.user.Token).Expect(http.StatusOK).JSON(&balance)
	if v, ok := balance.Credit.(float64); !ok || v != 0 {
		t.Errorf("credit after the refresh: %v, want 0", balance.Credit)
	}
}
