package violations_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/testkit"
)

type violation struct {
	ID           string   `json:"id"`
	Code         *string  `json:"code"`
	Status       string   `json:"status"`
	Fine         *float64 `json:"fine"`
	FineChargeID *string  `json:"fine_charge_id"`
	Note         string   `json:"note"`
}

type charge struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Kind   string  `json:"kind"`
	Amount float64 `json:"amount"`
	Status string  `json:"status"`
}

func id(t testing.TB, r *testkit.Response) string {
	t.Helper()
	var v struct {
		ID string `json:"id"`
	}
	r.JSON(&v)
	return v.ID
}

type fixture struct {
	app      *testkit.App
	token    string
	property string
	contract string
}

func start(t *testing.T, opts ...testkit.Option) fixture {
	t.Helper()
	return startWith(t, nil, opts...)
}

// startWith is start with the contract's terms extended by more.
func startWith(t *testing.T, more []map[string]any, opts ...testkit.Option) fixture {
	t.Helper()
	app := testkit.Start(t, opts...)
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	u := accountstest.NewUser(t, app)
	f := fixture{app: app, token: u.Token}
	f.property = id(t, app.Post("/api/v1/properties", u.Token, map[string]any{"name": "Flat", "country_code": "NL"}).Expect(http.StatusCreated))
	tenant := id(t, app.Post("/api/v1/contragents", u.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Tom"}).Expect(http.StatusCreated))
	f.contract = id(t, app.Post("/api/v1/contracts", u.Token, map[string]any{"property_id": f.property, "tenant_id": tenant, "number": "V-1",
		"terms": append([]map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 700}, {"code": "CONTRACT_START_DATE", "value": "2026-09-01"},
			{"code": "LATE_FEE_PERCENTAGE", "value": 10}}, more...)}).Expect(http.StatusCreated))
	app.Post("/api/v1/contracts/"+f.contract+"/activate", u.Token, nil).Expect(http.StatusOK)
	return f
}

func (f fixture) path(s string) string { return "/api/v1/properties/" + f.property + s }

func (f fixture) charges(t *testing.T, query string) []charge {
	t.Helper()
	var l struct {
		Charges []charge `json:"charges"`
	}
	f.app.Get(f.path("/charges?per_page=200&"+query), f.token).Expect(http.StatusOK).JSON(&l)
	return l.Charges
}

func TestViolationLifecycleAndFine(t *testing.T) {
	f := start(t)
	var v violation
	f.app.Post(f.path("/violations"), f.token, map[string]any{"contract_id": f.contract, "code": "monthly_rent_amount", "occurred_on": "2026-10-03",
		"description": "Rent paid in cash to a neighbour.\nAgain.", "fine": 150, "fine_due_date": "2026-10-15"}).Expect(http.StatusCreated).JSON(&v)
	if v.Status != "open" || v.Fine == nil || *v.Fine != 150 || v.FineChargeID == nil || v.Code == nil || *v.Code != "MONTHLY_RENT_AMOUNT" {
		t.Fatalf("created %+v", v)
	}
	fines := f.charges(t, "kind=fine")
	if len(fines) != 1 || fines[0].ID != *v.FineChargeID || fines[0].Amount != 150 || fines[0].Name != "Fine: V-1, MONTHLY_RENT_AMOUNT" {
		t.Fatalf("fine charges %+v", fines)
	}
	// A German landlord reads the fine in German, naming the contract and
	// never the block's code.
	f.app.Put("/api/v1/user/profile", f.token, map[string]any{"locale": "de"}).Expect(http.StatusOK)
	if de := f.charges(t, "kind=fine"); de[0].Name != "Vertragsstrafe, Vertrag V-1" {
		t.Fatalf("the fine reads %q in German", de[0].Name)
	}
	f.app.Put("/api/v1/user/profile", f.token, map[string]any{"locale": "en"}).Expect(http.StatusOK)
	// The fine is overdue (today is 2026-11-22) and the contract has a late
	// fee: the penalties run gives none to the fine.
	f.app.Post(f.path("/penalties/refresh"), f.token, nil).Expect(http.StatusOK)
	for _, c := range f.charges(t, "kind=penalty") {
		if c.Name == "Late fee: "+fines[0].Name {
			t.Fatalf("a late fee on the fine: %+v", c)
		}
	}
	// Illegal transitions: 409 invalid_transition, nothing changed.
	res := f.app.Post(f.path("/violations/"+v.ID+"/resolve"), f.token, nil).Expect(http.StatusConflict)
	if res.Map()["error"] != "invalid_transition" {
		t.Fatalf("resolve open: %s", res.String())
	}
	f.app.Post(f.path("/violations/"+v.ID+"/dispute"), f.token, map[string]any{"note": "Tenant says it was a gift."}).Expect(http.StatusOK).JSON(&v)
	f.app.Post(f.path("/violations/"+v.ID+"/acknowledge"), f.token, nil).Expect(http.StatusConflict)
	f.app.Post(f.path("/violations/"+v.ID+"/resolve"), f.token, nil).Expect(http.StatusOK).JSON(&v)
	if v.Status != "resolved" || v.Note != "Tenant says it was a gift." {
		t.Fatalf("resolved %+v", v)
	}
	for _, to := range []string{"acknowledge", "dispute", "resolve", "withdraw"} {
		f.app.Post(f.path("/violations/"+v.ID+"/"+to), f.token, nil).Expect(http.StatusConflict)
	}
	if c := f.charges(t, "kind=fine"); c[0].Status != "unpaid" {
		t.Fatalf("a resolved violation's fine stands: %+v", c)
	}

	// Withdrawn: the fine is cancelled; once paid, withdrawal waits for the
	// payment's reversal.
	var w violation
	f.app.Post(f.path("/violations"), f.token, map[string]any{"contract_id": f.contract, "occurred_on": "2026-11-01", "description": "Noise", "fine": 80}).
		Expect(http.StatusCreated).JSON(&w)
	f.app.Post(f.path("/violations/"+w.ID+"/withdraw"), f.token, nil).Expect(http.StatusOK).JSON(&w)
	for _, c := range f.charges(t, "kind=fine") {
		if c.ID == *w.FineChargeID && c.Status != "cancelled" {
			t.Fatalf("withdrawn fine %+v", c)
		}
	}
	var x violation
	f.app.Post(f.path("/violations"), f.token, map[string]any{"contract_id": f.contract, "occurred_on": "2026-11-02", "description": "Smoke", "fine": 50}).
		Expect(http.StatusCreated).JSON(&x)
	pay := id(t, f.app.Post(f.path("/payments"), f.token, map[string]any{"amount": 50, "paid_on": "2026-11-22", "method": "cash",
		"allocations": []map[string]any{{"charge_id": *x.FineChargeID, "amount": 50}}}).Expect(http.StatusCreated))
	res = f.app.Post(f.path("/violations/"+x.ID+"/withdraw"), f.token, nil).Expect(http.StatusConflict)
	if res.Map()["error"] != "has_payments" {
		t.Fatalf("withdraw paid: %s", res.String())
	}
	f.app.Post(f.path("/payments/"+pay+"/reverse"), f.token, map[string]any{"reason": "fine dropped"}).Expect(http.StatusOK)
	f.app.Post(f.path("/violations/"+x.ID+"/withdraw"), f.token, nil).Expect(http.StatusOK)

	var l struct {
		Violations []violation `json:"violations"`
		Total      int         `json:"total"`
	}
	f.app.Get(f.path("/violations?status=withdrawn"), f.token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 2 {
		t.Fatalf("withdrawn list %+v", l)
	}
}

// A contract that sets LATE_FEE_ON_FINES gives its overdue fines a late
// fee, once; withdrawing the violation cancels the fine and its fee, and
// waits, changing nothing, while money is allocated to the fee.
func TestFineCarriesALateFeeWhenTheContractSaysSo(t *testing.T) {
	f := startWith(t, []map[string]any{{"code": "LATE_FEE_ON_FINES", "value": true}})
	var v violation
	f.app.Post(f.path("/violations"), f.token, map[string]any{"contract_id": f.contract, "occurred_on": "2026-10-03",
		"description": "Bins left on the stairs", "fine": 150.55, "fine_due_date": "2026-10-15"}).Expect(http.StatusCreated).JSON(&v)
	var run struct {
		Created int `json:"created"`
		Skipped int `json:"skipped"`
	}
	f.app.Post(f.path("/penalties/refresh"), f.token, nil).Expect(http.StatusOK).JSON(&run)
	fee := func() *charge {
		for _, c := range f.charges(t, "kind=penalty") {
			if c.Name == "Late fee: Fine: V-1" {
				return &c
			}
		}
		return nil
	}
	got := fee()
	// 10 % of 150.55 is 15.055, rounded half away from zero.
	if run.Created != 1 || got == nil || got.Amount != 15.06 || got.Status != "unpaid" {
		t.Fatalf("refresh %+v, late fee on the fine %+v", run, got)
	}
	f.app.Post(f.path("/penalties/refresh"), f.token, nil).Expect(http.StatusOK).JSON(&run)
	if run.Created != 0 || len(f.charges(t, "kind=penalty")) != 1 {
		t.Fatalf("second refresh %+v: %+v", run, f.charges(t, "kind=penalty"))
	}

	pay := id(t, f.app.Post(f.path("/payments"), f.token, map[string]any{"amount": 15.06, "paid_on": "2026-11-22", "method": "cash",
		"allocations": []map[string]any{{"charge_id": got.ID, "amount": 15.06}}}).Expect(http.StatusCreated))
	res := f.app.Post(f.path("/violations/"+v.ID+"/withdraw"), f.token, nil).Expect(http.StatusConflict)
	if res.Map()["error"] != "has_payments" {
		t.Fatalf("withdraw with a paid late fee: %s", res.String())
	}
	if c := f.charges(t, "kind=fine"); len(c) != 1 || c[0].Status != "unpaid" {
		t.Fatalf("the refused withdrawal changed the fine: %+v", c)
	}
	f.app.Post(f.path("/payments/"+pay+"/reverse"), f.token, map[string]any{"reason": "fine dropped"}).Expect(http.StatusOK)
	f.app.Post(f.path("/violations/"+v.ID+"/withdraw"), f.token, nil).Expect(http.StatusOK)
	if c := f.charges(t, "kind=fine"); len(c) != 1 || c[0].Status != "cancelled" {
		t.Fatalf("withdrawn fine %+v", c)
	}
	if c := fee(); c == nil || c.Status != "cancelled" {
		t.Fatalf("the withdrawn fine's late fee %+v", c)
	}
}

func TestViolationBadInputChangesNothing(t *testing.T) {
	f := start(t)
	other := accountstest.NewUser(t, f.app)
	otherProp := id(t, f.app.Post("/api/v1/properties", other.Token, map[string]any{"name": "O", "country_code": "NL"}).Expect(http.StatusCreated))
	otherTenant := id(t, f.app.Post("/api/v1/contragents", other.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "O"}).Expect(http.StatusCreated))
	otherContract := id(t, f.app.Post("/api/v1/contracts", other.Token, map[string]any{"property_id": otherProp, "tenant_id": otherTenant, "number": "O-1",
		"terms": []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 1}, {"code": "CONTRACT_START_DATE", "value": "2026-09-01"}}}).Expect(http.StatusCreated))
	before := len(f.charges(t, ""))
	for _, body := range []map[string]any{
		{"contract_id": f.contract, "occurred_on": "2026-11-01", "description": "x", "fine": -5},
		{"contract_id": f.contract, "occurred_on": "2026-11-01", "description": "x", "fine": 0},
		{"contract_id": f.contract, "occurred_on": "2026-11-01", "description": ""},
		{"contract_id": f.contract, "occurred_on": "soon", "description": "x"},
		{"contract_id": f.contract, "occurred_on": "2026-11-01", "description": "x", "code": "NOT_A_TERM", "fine": 5},
		{"contract_id": otherContract, "occurred_on": "2026-11-01", "description": "x", "fine": 5},
		{"contract_id": f.contract, "occurred_on": "2026-11-01", "description": "x", "evidence": []string{otherContract}, "fine": 5},
	} {
		f.app.Post(f.path("/violations"), f.token, body).Expect(http.StatusBadRequest)
	}
	f.app.Post("/api/v1/properties/"+otherProp+"/violations", f.token, map[string]any{"contract_id": otherContract, "occurred_on": "2026-11-01", "description": "x"}).
		Expect(http.StatusForbidden)
	var l struct {
		Total int `json:"total"`
	}
	f.app.Get(f.path("/violations"), f.token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 0 || len(f.charges(t, "")) != before {
		t.Fatalf("bad input stored something: %d violations", l.Total)
	}
}

// Many concurrent fines on one property with a pool smaller than the
// clients: every write goes through its transaction (no deadlock).
func TestConcurrentFines(t *testing.T) {
	f := start(t, testkit.WithConfig("database.maxopen", 4))
	var wg sync.WaitGroup
	codes := make([]int, 20)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := f.app.Do(testkit.Request{Method: http.MethodPost, Path: f.path("/violations"), Token: f.token,
				Body: map[string]any{"contract_id": f.contract, "occurred_on": "2026-11-01", "description": "x", "fine": 10.01}})
			codes[i] = res.Status
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusCreated {
			t.Fatalf("request %d: %d", i, c)
		}
	}
	if n := len(f.charges(t, "kind=fine")); n != 20 {
		t.Fatalf("%d fines", n)
	}
}

// A fine goes through the law table (platform/law): void on a residential
// lease in Germany, France and the United Kingdom, so refused with 422
// penalty_not_allowed naming the provision, nothing stored; the breach is
// recorded without it. Spain and Ukraine keep agreed penalties.
func TestFineFollowsTheLaw(t *testing.T) {
	app := testkit.Start(t)
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	u := accountstest.NewUser(t, app)
	lease := func(country string) fixture {
		f := fixture{app: app, token: u.Token}
		f.property = id(t, app.Post("/api/v1/properties", u.Token, map[string]any{"name": "Flat " + country, "country_code": country}).Expect(http.StatusCreated))
		tenant := id(t, app.Post("/api/v1/contragents", u.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Tom"}).Expect(http.StatusCreated))
		f.contract = id(t, app.Post("/api/v1/contracts", u.Token, map[string]any{"property_id": f.property, "tenant_id": tenant, "number": "L-" + country,
			"terms": []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 700}, {"code": "CONTRACT_START_DATE", "value": "2026-09-01"}}}).Expect(http.StatusCreated))
		app.Post("/api/v1/contracts/"+f.contract+"/activate", u.Token, nil).Expect(http.StatusOK)
		return f
	}
	for country, source := range map[string]string{"DE": "§ 555 BGB", "FR": "89-462", "GB": "Tenant Fees Act 2019"} {
		f := lease(country)
		before := len(f.charges(t, ""))
		res := app.Post(f.path("/violations"), f.token, map[string]any{"contract_id": f.contract, "occurred_on": "2026-11-01",
			"description": "Smoking in the flat", "fine": 150})
		if res.Status != http.StatusUnprocessableEntity || !strings.Contains(res.String(), `"error":"penalty_not_allowed"`) || !strings.Contains(res.String(), source) {
			t.Errorf("%s: a fine gave %d %s, want 422 penalty_not_allowed citing %s", country, res.Status, res.Body, source)
		}
		var l struct {
			Total int `json:"total"`
		}
		app.Get(f.path("/violations"), f.token).Expect(http.StatusOK).JSON(&l)
		if l.Total != 0 || len(f.charges(t, "")) != before {
			t.Errorf("%s: the refused fine stored %d violations, %d charges (before %d)", country, l.Total, len(f.charges(t, "")), before)
		}
		var v violation
		app.Post(f.path("/violations"), f.token, map[string]any{"contract_id": f.contract, "occurred_on": "2026-11-01",
			"description": "Smoking in the flat"}).Expect(http.StatusCreated).JSON(&v)
		if v.Fine != nil || v.FineChargeID != nil {
			t.Errorf("%s: the violation without a fine has one: %+v", country, v)
		}
	}
	for _, country := range []string{"ES", "UA"} {
		f := lease(country)
		var v violation
		app.Post(f.path("/violations"), f.token, map[string]any{"contract_id": f.contract, "occurred_on": "2026-11-01",
			"description": "Smoking in the flat", "fine": 150}).Expect(http.StatusCreated).JSON(&v)
		if v.Fine == nil || *v.Fine != 150 || len(f.charges(t, "kind=fine")) != 1 {
			t.Errorf("%s: the agreed fine was not charged: %+v", country, v)
		}
	}
}
