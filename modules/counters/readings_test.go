package counters_test

import (
	"net/http"
	"strings"
	"testing"
)

// A counter with a tariff: the first reading bills nothing, each later one
// bills its consumption; the charge is named, dated and linked.
func TestReadingsBillTheirConsumption(t *testing.T) {
	f := start(t)
	c := f.newCounter(t, map[string]any{"kind": "electricity", "serial": " EM-1 ", "tariff": 0.301234})
	if c.Unit != "kWh" || c.Name != "Electricity" || c.Serial != "EM-1" || c.Tariff != 0.301234 || !c.IsActive || c.ContractID != nil {
		t.Fatalf("counter %+v", c)
	}
	first := f.addReading(t, c.ID, "2026-10-31", 1000)
	if first.Consumption != nil || first.ChargeID != nil {
		t.Fatalf("first reading %+v", first)
	}
	res := f.app.Post(f.readings(c.ID), f.user.Token, map[string]any{"read_on": "2026-11-20", "value": 1012.345}).Expect(http.StatusCreated)
	if !strings.Contains(res.String(), `"value":1012.345`) || !strings.Contains(res.String(), `"consumption":12.345`) {
		t.Fatalf("body %s", res.String())
	}
	var second reading
	res.JSON(&second)
	if second.ChargeID == nil {
		t.Fatalf("no charge: %+v", second)
	}
	l := f.allCharges(t)
	if l.Total != 1 {
		t.Fatalf("charges %+v", l)
	}
	ch := l.Charges[0]
	// 12.345 x 0.301234 = 3.718733... -> 3.72
	if ch.ID != *second.ChargeID || ch.Name != "Electricity 2026-11 (12.345 kWh x 0.301234)" || ch.Amount != 3.72 ||
		ch.Currency != "EUR" || ch.Period != "2026-11" || ch.DueDate != "2026-12-04" || ch.Status != "unpaid" {
		t.Fatalf("charge %+v", ch)
	}
}
