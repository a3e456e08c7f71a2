package counters_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestCounterCreateGetUpdateDelete(t *testing.T) {
	f := start(t)
	contract := newContract(t, f.app, f.user.Token, f.property, "C-1")
	var c counter
	res := f.app.Post(f.counters(), f.user.Token, map[string]any{
		"kind": "heating", "name": " Radiators ", "serial": "H-7", "tariff": 95.5,
		"contract_id": contract,
		// Not settable: ignored.
		"id": "01900000-0000-7000-8000-000000000000", "property_id": "x", "created_at": "2000-01-01T00:00:00Z",
	}).Expect(http.StatusCreated)
	if !strings.Contains(res.String(), `"tariff":95.500000`) {
		t.Fatalf("tariff not written with 6 decimals: %s", res.String())
	}
	res.JSON(&c)
	want := counter{ID: c.ID, PropertyID: f.property, ContractID: &contract, Kind: "heating", Unit: "Gcal", Serial: "H-7",
		Name: "Radiators", Tariff: 95.5, IsActive: true, CreatedAt: "2026-11-22T10:00:00Z", UpdatedAt: "2026-11-22T10:00:00Z"}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("created %+v\nwant    %+v", c, want)
	}
	var got counter
	f.app.Get(f.counters()+"/"+c.ID, f.user.Token).Expect(http.StatusOK).JSON(&got)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("get %+v", got)
	}
	f.app.Clock.Advance(time.Minute)
	f.app.Put(f.counters()+"/"+c.ID, f.user.Token, map[string]any{"unit": "kWh", "tariff": nil, "contract_id": nil}).Expect(http.StatusOK).JSON(&got)
	want.Unit, want.Tariff, want.ContractID, want.UpdatedAt = "kWh", nil, nil, "2026-11-22T10:01:00Z"
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("updated %+v\nwant    %+v", got, want)
	}
	// An update that changes nothing keeps updated_at.
	f.app.Clock.Advance(time.Minute)
	f.app.Put(f.counters()+"/"+c.ID, f.user.Token, map[string]any{"unit": "kWh"}).Expect(http.StatusOK).JSON(&got)
	if got.UpdatedAt != want.UpdatedAt {
		t.Fatalf("empty update moved updated_at: %+v", got)
	}
	// Defaults by kind, list with ?kind=.
	w := f.newCounter(t, map[string]any{"kind": "water_hot"})
	if w.Unit != "m3" || w.Name != "Hot water" || w.Tariff != nil || w.Serial != "" {
		t.Fatalf("defaults %+v", w)
	}
	var l struct {
		Counters []counter `json:"counters"`
		Total    int       `json:"total"`
	}
	f.app.Get(f.counters(), f.user.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 2 || l.Counters[0].ID != c.ID || l.Counters[1].ID != w.ID {
		t.Fatalf("list %+v", l)
	}
	f.app.Get(f.counters()+"?kind=water_hot", f.user.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 1 || l.Counters[0].ID != w.ID {
		t.Fatalf("?kind=water_hot %+v", l)
	}
	f.app.Get(f.counters()+"?kind=steam", f.user.Token).Expect(http.StatusBadRequest)

	// A counter without charges goes with its readings.
	f.addReading(t, w.ID, "2026-11-01", 5)
	f.app.Delete(f.counters()+"/"+w.ID, f.user.Token).Expect(http.StatusNoContent)
	f.app.Get(f.counters()+"/"+w.ID, f.user.Token).Expect(http.StatusNotFound)
	if n := rows(t, f.app, "counter_readings"); n != 0 {
		t.Fatalf("%d readings left", n)
	}
	// One with a charge (even cancelled) stays: 409 has_charges.
	f.app.Put(f.counters()+"/"+c.ID, f.user.Token, map[string]any{"tariff": 1}).Expect(http.StatusOK)
	f.addReading(t, c.ID, "2026-10-01", 1)
	r := f.addReading(t, c.ID, "2026-11-01", 2)
	f.app.Delete(f.readings(c.ID)+"/"+r.ID, f.user.Token).Expect(http.StatusNoContent)
	res = f.app.Delete(f.counters()+"/"+c.ID, f.user.Token).Expect(http.StatusConflict)
	if res.Map()["error"] != "has_charges" {
		t.Fatalf("delete with charges: %s", res.String())
	}
}

func TestCounterRejectsBadInput(t *testing.T) {
	f := start(t)
	// A contract of the same owner's other property is not this one's payer.
	otherContract := newContract(t, f.app, f.user.Token, newProperty(t, f.app, f.user.Token), "O-1")
	cases := []struct {
		name string
		body any
		want []string
	}{
		{"kind missing", map[string]any{}, []string{"kind: is required"}},
		{"kind unknown", map[string]any{"kind": "steam"}, []string{"kind: must be one of electricity, gas, water_cold, water_hot, heating, other"}},
		{"unit unknown", map[string]any{"kind": "gas", "unit": "l"}, []string{"unit: must be one of kWh, m3, Gcal, unit"}},
		{"unit of another kind", map[string]any{"kind": "electricity", "unit": "m3"}, []string{"unit: a electricity counter is measured in kWh"}},
		{"unit of heating", map[string]any{"kind": "heating", "unit": "m3"}, []string{"unit: a heating counter is measured in Gcal or kWh"}},
		{"tariff decimals", map[string]any{"kind": "gas", "tariff": json.Number("0.0000001")}, []string{"tariff: must have at most 6 decimals, or null"}},
		{"tariff zero", map[string]any{"kind": "gas", "tariff": 0}, []string{"tariff: must be more than 0, or null for a counter that bills nothing"}},
		{"tariff negative", map[string]any{"kind": "gas", "tariff": -1}, []string{"tariff: must not be negative, or null"}},
		{"tariff too large", map[string]any{"kind": "gas", "tariff": 1000000}, []string{"tariff: must be at most 999999.999999, or null"}},
		{"tariff string", map[string]any{"kind": "gas", "tariff": "0.3"}, []string{"tariff: must be a JSON number such as 12.345, or null"}},
		{"contract", map[string]any{"kind": "gas", "contract_id": "x"}, []string{"contract_id: must be the UUID of a contract of the property, or null"}},
		{"contract unknown", map[string]any{"kind": "gas", "contract_id": "019a0000-0000-7000-8000-0000000000aa"},
			[]string{"contract_id: must be the UUID of a contract of the property, or null"}},
		{"contract of another property", map[string]any{"kind": "gas", "contract_id": otherContract},
			[]string{"contract_id: must be the UUID of a contract of the property, or null"}},
		{"name and serial", map[string]any{"kind": "gas", "name": " ", "serial": strings.Repeat("s", 101)},
			[]string{"name: must not be empty", "serial: must be at most 100 characters"}},
		{"malformed", `{"kind":`, []string{"body: the JSON ends too early"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := details(t, f.app.Post(f.counters(), f.user.Token, tc.body)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("details %q\nwant    %q", got, tc.want)
			}
		})
	}
	if n := rows(t, f.app, "counters"); n != 0 {
		t.Fatalf("%d counters stored", n)
	}
}

// Deleting a property deletes its counters and readings; with a metered
// charge the expenses module refuses (409 has_charges) and nothing goes.
func TestPropertyDeletion(t *testing.T) {
	f := start(t)
	c := f.newCounter(t, map[string]any{"kind": "electricity"})
	f.addReading(t, c.ID, "2026-10-01", 1)
	f.addReading(t, c.ID, "2026-11-01", 2)
	f.app.Delete("/api/v1/properties/"+f.property, f.user.Token).Expect(http.StatusNoContent)
	if rows(t, f.app, "counters") != 0 || rows(t, f.app, "counter_readings") != 0 {
		t.Fatal("counters or readings left")
	}
	g := start(t)
	c = g.newCounter(t, map[string]any{"kind": "electricity", "tariff": 0.3})
	g.addReading(t, c.ID, "2026-10-01", 1)
	g.addReading(t, c.ID, "2026-11-01", 20)
	res := g.app.Delete("/api/v1/properties/"+g.property, g.user.Token).Expect(http.StatusConflict)
	if res.Map()["error"] != "has_charges" || rows(t, g.app, "counter_readings") != 2 {
		t.Fatalf("%s, %d readings", res.String(), rows(t, g.app, "counter_readings"))
	}
	var n int
	if err := g.app.DB.NewRaw("SELECT COUNT(*) FROM counters").Scan(context.Background(), &n); err != nil || n != 1 {
		t.Fatalf("%d counters (%v)", n, err)
	}
}
