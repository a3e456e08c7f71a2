package repairs_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/propman/propman/platform/testkit"
)

type recharged struct {
	Invoice  json.Number `json:"invoice_amount"`
	Capped   bool        `json:"capped"`
	Recharge *struct {
		ChargeID string      `json:"charge_id"`
		Amount   json.Number `json:"amount"`
		RepairOn string      `json:"repair_on"`
	} `json:"recharge"`
}

// done walks a repair of category to done with the invoice amount and
// returns the member's path of the request.
func (l lease) done(t *testing.T, app *testkit.App, title, category string, invoice float64) string {
	t.Helper()
	id, token := l.scheduled(t, app, title, category)
	app.Post("/api/v1/work-orders/"+token+"/done", "", map[string]any{"note": "Erledigt.", "invoice_amount": invoice}).Expect(http.StatusOK)
	return l.memberPath() + "/" + id
}

// recharge charges the tenant for the request at path and checks the
// amount charged and whether the yearly limit cut it.
func (l lease) recharge(t *testing.T, app *testkit.App, path, amount string, capped bool) recharged {
	t.Helper()
	var out recharged
	app.Post(path+"/recharge", l.landlord.Token, map[string]any{"due_date": "2027-03-31"}).Expect(http.StatusCreated).JSON(&out)
	if out.Recharge == nil || out.Recharge.Amount.String() != amount || out.Capped != capped {
		t.Fatalf("recharged %+v %+v, want %s (capped %v)", out, out.Recharge, amount, capped)
	}
	return out
}

// refused expects the recharge of path to be a 409 with code, and nothing
// charged.
func (l lease) refused(t *testing.T, app *testkit.App, path, code string) {
	t.Helper()
	before := l.charges(t, app)
	res := app.Post(path+"/recharge", l.landlord.Token, map[string]any{"due_date": "2027-03-31"}).Expect(http.StatusConflict)
	if got := res.Map()["error"]; got != code {
		t.Errorf("recharge of %s: %v, want %s: %s", path, got, code, res.Body)
	}
	if after := l.charges(t, app); len(after) != len(before) {
		t.Errorf("a refused recharge made a charge: %d -> %d", len(before), len(after))
	}
}

type charge struct {
	ID         string      `json:"id"`
	Name       string      `json:"name"`
	NameKind   string      `json:"name_kind"`
	Amount     json.Number `json:"amount"`
	DueDate    string      `json:"due_date"`
	ContractID *string     `json:"contract_id"`
}

// charges are the property's repair charges.
func (l lease) charges(t *testing.T, app *testkit.App) []charge {
	t.Helper()
	var page struct {
		Charges []charge `json:"charges"`
	}
	app.Get("/api/v1/properties/"+l.property+"/charges?per_page=100", l.landlord.Token).Expect(http.StatusOK).JSON(&page)
	var out []charge
	for _, c := range page.Charges {
		if c.NameKind == "repair" {
			out = append(out, c)
		}
	}
	return out
}

// Germany, a fixed yearly cap below 8 % of the rent: the limit per repair
// to the cent (100.01 refused as a whole, 100.00 charged), the yearly cap
// to the cent (a repair above what is left is charged only that, then
// nothing more), and a new calendar year starts afresh.
func TestRechargeGermanLimitsToTheCent(t *testing.T) {
	t.Parallel()
	app := start(t)
	l := newLeaseIn(t, app, "DE", "de", "auftrag@klempner.example",
		"DE_KLEINREPARATUREN_LIMIT", 100, "DE_KLEINREPARATUREN_YEARLY_CAP", 150)

	over := l.done(t, app, "Wasserhahn", "plumbing", 100.01)
	l.refused(t, app, over, "recharge_above_repair_limit")

	first := l.done(t, app, "Lichtschalter", "electrical", 100.00)
	got := l.recharge(t, app, first, "100.00", false)
	if got.Recharge.RepairOn != "2026-11-22" || got.Invoice.String() != "100.00" {
		t.Errorf("the recharge: %+v", got.Recharge)
	}
	l.refused(t, app, first, "recharge_exists")
	ch := l.charges(t, app)
	if len(ch) != 1 || ch[0].ID != got.Recharge.ChargeID || ch[0].Amount.String() != "100.00" || ch[0].DueDate != "2027-03-31" ||
		ch[0].ContractID == nil || *ch[0].ContractID != l.contract || ch[0].Name != "Repair costs, contract L-1" {
		t.Fatalf("the charge: %+v", ch)
	}

	second := l.done(t, app, "Fenstergriff", "windows_doors", 49.99)
	l.recharge(t, app, second, "49.99", false)
	third := l.done(t, app, "Thermostatventil", "heating", 80)
	l.recharge(t, app, third, "0.01", true)
	fourth := l.done(t, app, "Spülkasten", "plumbing", 10)
	l.refused(t, app, fourth, "recharge_yearly_limit_reached")

	// Not a small repair whatever the amount.
	l.refused(t, app, l.done(t, app, "Schimmel im Bad", "damp_mould", 20), "recharge_not_tenant_repair")

	// A request not done yet, and one without an invoice.
	var r request
	app.Post(l.tenantPath(), l.tenant.Token, map[string]any{"title": "Tür klemmt", "description": "x", "category": "windows_doors",
		"urgency": "normal"}).Expect(http.StatusCreated).JSON(&r)
	l.refused(t, app, l.memberPath()+"/"+r.ID, "invalid_transition")
	id, token := l.scheduled(t, app, "Klingel", "electrical")
	app.Post("/api/v1/work-orders/"+token+"/done", "", map[string]any{"note": "Kulanz."}).Expect(http.StatusOK)
	l.refused(t, app, l.memberPath()+"/"+id, "recharge_no_invoice")
	app.Post(l.memberPath()+"/"+id+"/recharge", l.landlord.Token, map[string]any{"due_date": "2026-11-21"}).Expect(http.StatusBadRequest)
	app.Post(l.memberPath()+"/"+id+"/recharge", l.landlord.Token, map[string]any{}).Expect(http.StatusBadRequest)
	app.Post(l.memberPath()+"/"+id+"/recharge", l.landlord.Token, map[string]any{"due_date": "2026-02-30"}).Expect(http.StatusBadRequest)

	// The next calendar year has its own limit: the fourth repair, done in
	// 2026, stays refused; one done in 2027 is charged.
	app.Clock.Advance(41 * 24 * time.Hour)
	l.refused(t, app, fourth, "recharge_yearly_limit_reached")
	next := l.done(t, app, "Duschkopf", "plumbing", 35.5)
	got = l.recharge(t, app, next, "35.50", false)
	if got.Recharge.RepairOn != "2027-01-02" {
		t.Errorf("repair day %s", got.Recharge.RepairOn)
	}
	var sum int64
	if err := app.DB.NewRaw("SELECT COALESCE(SUM(recharge_minor), 0) FROM repair_requests WHERE contract_id = ?", l.contract).
		Scan(context.Background(), &sum); err != nil || sum != 10000+4999+1+3550 {
		t.Errorf("recharged in all: %d %v", sum, err)
	}
}

// Germany without a fixed cap: 8 % of twelve monthly rents of 104.17 is
// 100.0032, so the yearly limit is 100.00 (down to the cent); a contract
// without the clause recharges nothing.
func TestRechargeGermanYearlyShareOfRent(t *testing.T) {
	t.Parallel()
	app := start(t)
	l := newLeaseIn(t, app, "DE", "de", "auftrag@klempner.example",
		"MONTHLY_RENT_AMOUNT", 104.17, "DE_KLEINREPARATUREN_LIMIT", 100)
	l.recharge(t, app, l.done(t, app, "Wasserhahn", "plumbing", 60), "60.00", false)
	l.recharge(t, app, l.done(t, app, "Steckdose", "electrical", 40.01), "40.00", true)
	l.refused(t, app, l.done(t, app, "Griff", "windows_doors", 0.01), "recharge_yearly_limit_reached")

	none := newLeaseIn(t, app, "DE", "de", "auftrag@klempner.example")
	none.refused(t, app, none.done(t, app, "Wasserhahn", "plumbing", 20), "recharge_no_clause")
}

// France: a réparation locative is charged in full, whatever its amount;
// damp is the landlord's; a country without a rule refuses.
func TestRechargeFranceAndElsewhere(t *testing.T) {
	t.Parallel()
	app := start(t)
	l := newLeaseIn(t, app, "FR", "fr", "contact@plombier.example")
	l.recharge(t, app, l.done(t, app, "Joint du robinet", "plumbing", 412.35), "412.35", false)
	l.refused(t, app, l.done(t, app, "Moisissures", "damp_mould", 80), "recharge_not_tenant_repair")
	l.refused(t, app, l.done(t, app, "Cafards", "pests", 80), "recharge_not_tenant_repair")
	if ch := l.charges(t, app); len(ch) != 1 || ch[0].Amount.String() != "412.35" {
		t.Errorf("the charges: %+v", ch)
	}

	es := newLeaseIn(t, app, "ES", "es", "fontanero@example.es")
	es.refused(t, app, es.done(t, app, "Grifo", "plumbing", 30), "recharge_not_allowed")
	// A tenant may not recharge, nor reach the route.
	app.Post(es.memberPath()+"/"+"00000000-0000-0000-0000-000000000000"+"/recharge", es.tenant.Token, map[string]any{"due_date": "2027-03-31"}).Expect(http.StatusNotFound)
}
