package contracts_test

import (
	"net/http"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/platform/testkit"
)

// Activation creates the rent and prepayment expenses and the deposit
// charge; refresh-all then bills exactly rent + prepayment.
func TestActivateThenRefreshAll(t *testing.T) {
	f := start(t)
	c := f.create(t, "R-1", term{"MONTHLY_RENT_AMOUNT", 950}, term{"CONTRACT_START_DATE", "2026-11-01"},
		term{"CONTRACT_END_DATE", "2027-10-31"}, term{"PAYMENT_DAY_OF_MONTH", 3},
		term{"UTILITY_PREPAYMENT_AMOUNT", 200}, term{"DEPOSIT_MONTHS", 2})
	var active contract
	f.app.Post(base+"/"+c.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK).JSON(&active)
	if active.Status != "active" {
		t.Fatalf("activated %+v", active)
	}
	var el expenseList
	f.app.Get("/api/v1/properties/"+f.property+"/expenses", f.user.Token).Expect(http.StatusOK).JSON(&el)
	if el.Total != 2 {
		t.Fatalf("expenses %+v", el)
	}
	for _, e := range el.Expenses {
		if e.Type != "MONTHLY" || e.StartDate != "2026-11-01" || e.EndDate == nil || *e.EndDate != "2027-10-31" ||
			e.DueDay != 3 || e.ContractID == nil || *e.ContractID != c.ID {
			t.Errorf("expense %+v", e)
		}
	}
	if el.Expenses[0].Amount != 950.0 || el.Expenses[0].Name != "Rent, contract R-1" || el.Expenses[1].Amount != 200.0 {
		t.Errorf("expenses %+v", el.Expenses)
	}
	// The contract's expenses follow it: no direct change or deletion.
	expenseURL := "/api/v1/properties/" + f.property + "/expenses/" + el.Expenses[0].ID
	if res := f.app.Put(expenseURL, f.user.Token, map[string]any{"amount": 1}).Expect(http.StatusConflict); res.Map()["error"] != "contract_expense" {
		t.Fatal(res.String())
	}
	if res := f.app.Delete(expenseURL, f.user.Token).Expect(http.StatusConflict); res.Map()["error"] != "contract_expense" {
		t.Fatal(res.String())
	}
	l := f.charges(t, "?contract_id="+c.ID)
	if l.Total != 1 || l.Charges[0].Name != "Deposit" || l.Charges[0].Amount != 1900.0 || l.Charges[0].DueDate != "2026-11-01" ||
		l.Charges[0].ExpenseID != nil {
		t.Fatalf("deposit %+v", l)
	}
	if r := f.refresh(t); r != (refreshResult{Created: 2}) {
		t.Fatalf("refresh %+v", r)
	}
	if r := f.refresh(t); r != (refreshResult{Skipped: 2}) {
		t.Fatalf("second refresh %+v", r)
	}
	l = f.charges(t, "?contract_id="+c.ID+"&period=2026-11")
	if l.Total != 3 {
		t.Fatalf("charges %+v", l)
	}
	for _, ch := range l.Charges {
		if ch.ContractID == nil || *ch.ContractID != c.ID {
			t.Errorf("charge without the contract: %+v", ch)
		}
		if ch.ExpenseID != nil && ch.DueDate != "2026-11-03" {
			t.Errorf("rent due %s", ch.DueDate)
		}
	}
	if other := f.charges(t, "?contract_id=019a0000-0000-7000-8000-000000000000"); other.Total != 0 {
		t.Fatalf("unknown contract has %d charges", other.Total)
	}
	// Active: no PUT, no DELETE, no second activation.
	if res := f.app.Put(base+"/"+c.ID, f.user.Token, map[string]any{"number": "X"}).Expect(http.StatusConflict); res.Map()["error"] != "not_draft" {
		t.Fatal(res.String())
	}
	if res := f.app.Delete(base+"/"+c.ID, f.user.Token).Expect(http.StatusConflict); res.Map()["error"] != "has_charges" {
		t.Fatal(res.String())
	}
	if res := f.app.Post(base+"/"+c.ID+"/activate", f.user.Token, nil).Expect(http.StatusConflict); res.Map()["error"] != "not_draft" {
		t.Fatal(res.String())
	}
}

func TestActivateNeedsRentAndStart(t *testing.T) {
	f := start(t)
	c := f.create(t, "N-1", term{"PETS_ALLOWED", false})
	before := snapshot(t, f.app)
	res := f.app.Post(base+"/"+c.ID+"/activate", f.user.Token, nil).Expect(http.StatusBadRequest)
	var e struct{ Details []string }
	res.JSON(&e)
	if len(e.Details) != 2 || !contains(e.Details[0], "MONTHLY_RENT_AMOUNT") || !contains(e.Details[1], "CONTRACT_START_DATE") {
		t.Fatalf("details %v", e.Details)
	}
	if after := snapshot(t, f.app); !reflect.DeepEqual(before, after) {
		t.Fatal("a refused activation wrote")
	}
}

func TestOverlapIsRefused(t *testing.T) {
	f := start(t)
	a := f.create(t, "A", term{"MONTHLY_RENT_AMOUNT", 500}, term{"CONTRACT_START_DATE", "2026-01-01"}, term{"CONTRACT_END_DATE", "2026-12-31"})
	b := f.create(t, "B", term{"MONTHLY_RENT_AMOUNT", 500}, term{"CONTRACT_START_DATE", "2026-12-31"})
	c := f.create(t, "C", term{"MONTHLY_RENT_AMOUNT", 500}, term{"CONTRACT_START_DATE", "2027-01-01"})
	f.app.Post(base+"/"+a.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	before := snapshot(t, f.app)
	if res := f.app.Post(base+"/"+b.ID+"/activate", f.user.Token, nil).Expect(http.StatusConflict); res.Map()["error"] != "overlap" {
		t.Fatal(res.String())
	}
	if after := snapshot(t, f.app); !reflect.DeepEqual(before, after) {
		t.Fatal("a refused activation wrote")
	}
	f.app.Post(base+"/"+c.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	// Another property's contract never overlaps.
	g := f
	g.property = newProperty(t, f.app, f.user.Token, "DE")
	d := g.create(t, "D", term{"MONTHLY_RENT_AMOUNT", 500}, term{"CONTRACT_START_DATE", "2026-06-01"})
	f.app.Post(base+"/"+d.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
}

// Two overlapping contracts activated at the same time: exactly one wins,
// 20 times over.
func TestConcurrentOverlappingActivations(t *testing.T) {
	f := start(t)
	for i := range 20 {
		f.property = newProperty(t, f.app, f.user.Token, "DE")
		var ids [2]string
		for j := range ids {
			ids[j] = f.create(t, string(rune('a'+j))+time.Duration(i).String(), rentTerms("2026-11-01")...).ID
		}
		var wg sync.WaitGroup
		var codes [2]int
		for j := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[j] = f.app.Post(base+"/"+ids[j]+"/activate", f.user.Token, nil).Status
			}()
		}
		wg.Wait()
		ok, conflict := 0, 0
		for _, code := range codes {
			switch code {
			case http.StatusOK:
				ok++
			case http.StatusConflict:
				conflict++
			}
		}
		if ok != 1 || conflict != 1 {
			t.Fatalf("try %d: statuses %v, want one 200 and one 409", i, codes)
		}
		var el expenseList
		f.app.Get("/api/v1/properties/"+f.property+"/expenses", f.user.Token).Expect(http.StatusOK).JSON(&el)
		if el.Total != 1 {
			t.Fatalf("try %d: %d expenses", i, el.Total)
		}
	}
}

// Terminated mid-month: the month of the date is billed, later ones are not;
// charges made stay.
func TestTerminateMidMonth(t *testing.T) {
	f := start(t, longTokens)
	c := f.create(t, "T-1", rentTerms("2026-11-01")...)
	f.app.Post(base+"/"+c.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	f.refresh(t)
	f.app.Clock.Advance(14 * 24 * time.Hour) // 2026-12-06
	if r := f.refresh(t); r.Created != 1 {
		t.Fatalf("december %+v", r)
	}
	for _, bad := range []string{"2026-10-31", "2026-02-30", ""} {
		f.app.Post(base+"/"+c.ID+"/terminate", f.user.Token, map[string]any{"date": bad}).Expect(http.StatusBadRequest)
	}
	f.app.Post(base+"/"+c.ID+"/terminate", f.user.Token, map[string]any{}).Expect(http.StatusBadRequest)
	var term contract
	f.app.Post(base+"/"+c.ID+"/terminate", f.user.Token, map[string]any{"date": "2026-12-15", "reason": " moves "}).
		Expect(http.StatusOK).JSON(&term)
	// The tenancy runs until the 15th: ending, with that end date.
	if term.Status != "ending" || *term.TerminatedOn != "2026-12-15" || *term.TerminationReason != "moves" || term.EndDate == nil || *term.EndDate != "2026-12-15" {
		t.Fatalf("terminated %+v", term)
	}
	var listed contractList
	f.app.Get(base+"?status=ending", f.user.Token).Expect(http.StatusOK).JSON(&listed)
	if listed.Total != 1 {
		t.Fatalf("ending list %+v", listed)
	}
	f.app.Get(base+"?status=terminated", f.user.Token).Expect(http.StatusOK).JSON(&listed)
	if listed.Total != 0 {
		t.Fatalf("terminated list before the date %+v", listed)
	}
	var el expenseList
	f.app.Get("/api/v1/properties/"+f.property+"/expenses", f.user.Token).Expect(http.StatusOK).JSON(&el)
	if el.Total != 1 || el.Expenses[0].EndDate == nil || *el.Expenses[0].EndDate != "2026-12-15" {
		t.Fatalf("expenses %+v", el)
	}
	f.app.Clock.Advance(31 * 24 * time.Hour) // 2027-01-06
	if r := f.refresh(t); r.Created != 0 {
		t.Fatalf("january after termination %+v", r)
	}
	f.app.Get(base+"/"+c.ID, f.user.Token).Expect(http.StatusOK).JSON(&term)
	if term.Status != "terminated" {
		t.Fatalf("after the termination date: %+v", term)
	}
	f.app.Get(base+"?status=terminated", f.user.Token).Expect(http.StatusOK).JSON(&listed)
	if listed.Total != 1 {
		t.Fatalf("terminated list after the date %+v", listed)
	}
	if l := f.charges(t, "?contract_id="+c.ID); l.Total != 2 {
		t.Fatalf("charges %+v", l)
	}
	if res := f.app.Post(base+"/"+c.ID+"/terminate", f.user.Token, map[string]any{"date": "2026-12-20"}).Expect(http.StatusConflict); res.Map()["error"] != "not_active" {
		t.Fatal(res.String())
	}
	f.app.Delete(base+"/"+c.ID, f.user.Token).Expect(http.StatusConflict)
	// A draft cannot be terminated.
	d := f.create(t, "T-2")
	f.app.Post(base+"/"+d.ID+"/terminate", f.user.Token, map[string]any{"date": "2026-12-20"}).Expect(http.StatusConflict)
}

// An active contract whose end date passed shows as ended.
func TestEnded(t *testing.T) {
	f := start(t)
	c := f.create(t, "E", term{"MONTHLY_RENT_AMOUNT", 500}, term{"CONTRACT_START_DATE", "2026-01-01"}, term{"CONTRACT_END_DATE", "2026-06-30"})
	var got contract
	f.app.Post(base+"/"+c.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK).JSON(&got)
	if got.Status != "ended" {
		t.Fatalf("status %s", got.Status)
	}
	var l contractList
	f.app.Get(base+"?status=ended", f.user.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 1 {
		t.Fatalf("ended list %+v", l)
	}
}

// longTokens keeps tokens valid while a test moves the clock by weeks.
var longTokens = testkit.WithConfig("auth.ttl", "2400h")
