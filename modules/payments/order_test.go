package payments_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// ledger is a contract's charges by what they are.
type ledger struct {
	contract string
	deposit  charge
	rent     map[string]charge // by period
	prepay   map[string]charge // by period
	meter    charge
}

// contractLedger makes, on a new property of the user, an active contract
// from 2026-09-01 (rent 1000.00, utility prepayment 150.00, deposit
// 2000.00) with the body's extra fields, bills September to November and
// one metered charge of 100.00 (read on 2026-10-01, due 2026-10-15). Owed:
// 5,550.00. Due dates: deposit, September's rent and prepayment
// 2026-09-01 (the deposit made first, at activation); October's
// 2026-10-01; the meter 2026-10-15; November's 2026-11-01.
func contractLedger(t testing.TB, f fixture, number string, extra map[string]any) (fixture, ledger) {
	t.Helper()
	f.property = newProperty(t, f.app, f.user.Token)
	var tenant, c struct {
		ID              string `json:"id"`
		AllocationOrder string `json:"allocation_order"`
	}
	f.app.Post("/api/v1/contragents", f.user.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Tenant " + number}).
		Expect(http.StatusCreated).JSON(&tenant)
	body := map[string]any{"property_id": f.property, "tenant_id": tenant.ID, "number": number, "terms": []any{
		map[string]any{"code": "MONTHLY_RENT_AMOUNT", "value": 1000},
		map[string]any{"code": "CONTRACT_START_DATE", "value": "2026-09-01"},
		map[string]any{"code": "UTILITY_PREPAYMENT_AMOUNT", "value": 150},
		map[string]any{"code": "DEPOSIT_AMOUNT", "value": 2000},
	}}
	for k, v := range extra {
		body[k] = v
	}
	f.app.Post("/api/v1/contracts", f.user.Token, body).Expect(http.StatusCreated).JSON(&c)
	f.app.Post("/api/v1/contracts/"+c.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	f.app.Post(f.url("/expenses/refresh-all?since=2026-09"), f.user.Token, nil).Expect(http.StatusOK)
	var counter struct {
		ID string `json:"id"`
	}
	f.app.Post(f.url("/counters"), f.user.Token, map[string]any{"kind": "electricity", "tariff": 1, "contract_id": c.ID}).
		Expect(http.StatusCreated).JSON(&counter)
	f.app.Post(f.url("/counters/"+counter.ID+"/readings"), f.user.Token, map[string]any{"read_on": "2026-09-01", "value": 0}).Expect(http.StatusCreated)
	f.app.Post(f.url("/counters/"+counter.ID+"/readings"), f.user.Token, map[string]any{"read_on": "2026-10-01", "value": 100}).Expect(http.StatusCreated)

	l := ledger{contract: c.ID, rent: map[string]charge{}, prepay: map[string]charge{}}
	var list chargeList
	f.app.Get(f.url("/charges?per_page=200&contract_id="+c.ID), f.user.Token).Expect(http.StatusOK).JSON(&list)
	for _, ch := range list.Charges {
		switch {
		case ch.Name == "Deposit":
			l.deposit = ch
		case strings.HasPrefix(ch.Name, "Rent"):
			l.rent[ch.Period] = ch
		case strings.HasPrefix(ch.Name, "Utility prepayment"):
			l.prepay[ch.Period] = ch
		default:
			l.meter = ch
		}
	}
	if list.Total != 8 || l.deposit.Amount != "2000.00" || len(l.rent) != 3 || len(l.prepay) != 3 || l.meter.Amount != "100.00" || l.meter.DueDate != "2026-10-15" {
		t.Fatalf("ledger of %s: %+v", number, list)
	}
	return f, l
}

// paid returns what the payment allocated to each charge.
func paid(p payment) map[string]string {
	out := map[string]string{}
	for _, a := range p.Allocations {
		out[a.ChargeID] = a.Amount.String()
	}
	return out
}

// checkPaid compares the payment's allocations with want (charge id ->
// amount): exactly those charges, those amounts.
func checkPaid(t *testing.T, order string, p payment, want map[string]string) {
	t.Helper()
	got := paid(p)
	if len(got) != len(want) {
		t.Errorf("%s: allocations %v, want %v", order, got, want)
	}
	for id, amount := range want {
		if got[id] != amount {
			t.Errorf("%s: charge %s got %q, want %s (all: %v)", order, id, got[id], amount, got)
		}
	}
	if p.Unallocated != "0.00" {
		t.Errorf("%s: unallocated %s", order, p.Unallocated)
	}
}

// A part payment of 2,400.00 for the contract, without allocations, over a
// ledger of deposit, rent, prepayments and a meter charge, in each
// allocation order.
func TestAllocationOrders(t *testing.T) {
	base := start(t)
	pay := func(f fixture, l ledger) payment {
		return f.pay(t, map[string]any{"amount": 2400, "method": "bank_transfer", "contract_id": l.contract})
	}

	// oldest_first (the default): the deposit, due with September's rent
	// and made before it, takes 2,000.00; the 400.00 left go to
	// September's rent and prepayment (same due date).
	f, l := contractLedger(t, base, "O-1", nil)
	p := pay(f, l)
	got := paid(p)
	if got[l.deposit.ID] != "2000.00" || len(got) > 3 {
		t.Errorf("oldest_first: %v, want the deposit paid first", got)
	}
	var sep int64
	for id, a := range got {
		if id != l.deposit.ID && id != l.rent["2026-09"].ID && id != l.prepay["2026-09"].ID {
			t.Errorf("oldest_first: paid %s on a later charge %s", a, id)
		}
		if id != l.deposit.ID {
			sep += cents(t, json.Number(a))
		}
	}
	if sep != 40000 {
		t.Errorf("oldest_first: %d cents on September's charges, want 400.00", sep)
	}

	// rent_first, set at creation: September, October, then 400.00 of
	// November's rent; nothing on the deposit, prepayments or meter.
	f, l = contractLedger(t, base, "R-1", map[string]any{"allocation_order": "rent_first"})
	checkPaid(t, "rent_first", pay(f, l), map[string]string{
		l.rent["2026-09"].ID: "1000.00", l.rent["2026-10"].ID: "1000.00", l.rent["2026-11"].ID: "400.00",
	})
	if c := f.charge(t, l.deposit.ID); c.PaidAmount != "0.00" {
		t.Errorf("rent_first: deposit %+v", c)
	}

	// deposit_last, set on the active contract: September (1,150.00),
	// October (1,150.00), the meter (100.00): 2,400.00, the deposit last.
	f, l = contractLedger(t, base, "D-1", nil)
	var c struct {
		AllocationOrder string `json:"allocation_order"`
		Status          string `json:"status"`
	}
	f.app.Put("/api/v1/contracts/"+l.contract, f.user.Token, map[string]any{"allocation_order": "DEPOSIT_LAST"}).Expect(http.StatusOK).JSON(&c)
	if c.AllocationOrder != "deposit_last" || c.Status != "active" {
		t.Fatalf("contract after PUT %+v", c)
	}
	checkPaid(t, "deposit_last", pay(f, l), map[string]string{
		l.rent["2026-09"].ID: "1000.00", l.prepay["2026-09"].ID: "150.00",
		l.rent["2026-10"].ID: "1000.00", l.prepay["2026-10"].ID: "150.00",
		l.meter.ID: "100.00",
	})
	if c := f.charge(t, l.deposit.ID); c.PaidAmount != "0.00" {
		t.Errorf("deposit_last: deposit %+v", c)
	}
}

// The setting is read back, refused when unknown (nothing changes), and on
// an active contract only the money settings may change.
func TestAllocationOrderSetting(t *testing.T) {
	f := start(t)
	f, l := contractLedger(t, f, "S-1", map[string]any{"allocation_order": "rent_first"})
	var c struct {
		AllocationOrder string `json:"allocation_order"`
		LateFeeBase     string `json:"late_fee_base"`
	}
	f.app.Get("/api/v1/contracts/"+l.contract, f.user.Token).Expect(http.StatusOK).JSON(&c)
	if c.AllocationOrder != "rent_first" || c.LateFeeBase != "periodic" {
		t.Fatalf("contract %+v", c)
	}
	res := f.app.Put("/api/v1/contracts/"+l.contract, f.user.Token, map[string]any{"allocation_order": "newest_first"}).Expect(http.StatusBadRequest)
	if !strings.Contains(res.String(), "allocation_order: must be one of oldest_first, rent_first, deposit_last") {
		t.Errorf("400 body %s", res.String())
	}
	f.app.Put("/api/v1/contracts/"+l.contract, f.user.Token, map[string]any{"allocation_order": "oldest_first", "number": "S-2"}).Expect(http.StatusConflict)
	f.app.Get("/api/v1/contracts/"+l.contract, f.user.Token).Expect(http.StatusOK).JSON(&c)
	if c.AllocationOrder != "rent_first" {
		t.Errorf("allocation_order %q after refused PUTs", c.AllocationOrder)
	}
}

// BenchmarkPostForContract posts, through HTTP, payments of 0.01 for a
// contract with the 8-charge ledger above in each allocation order: what
// reading the order (and, for rent_first and deposit_last, the charges it
// puts first or last) adds to a payment.
func BenchmarkPostForContract(b *testing.B) {
	base := start(b)
	for _, order := range []string{"oldest_first", "rent_first", "deposit_last"} {
		f, l := contractLedger(b, base, "B-"+order, map[string]any{"allocation_order": order})
		body := `{"amount": 0.01, "method": "cash", "contract_id": "` + l.contract + `"}`
		b.Run(f.app.Engine+"/"+order, func(b *testing.B) {
			for range b.N {
				f.send(b, http.MethodPost, f.url("/payments"), body)
			}
		})
	}
}
