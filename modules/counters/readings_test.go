package counters_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
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

// The consumption and rounding table through HTTP: tiny and huge values,
// tariff 0.000001 and 6-decimal tariffs; amounts are written with 2
// decimals and match the exact product rounded half away from zero.
func TestConsumptionAndRoundingTable(t *testing.T) {
	f := start(t)
	cases := []struct {
		tariff      string
		first, next string
		consumption string
		amount      string // "" for no charge
	}{
		{"0.000001", "0", "5", "5.000", ""}, // 0.000005 -> 0.00: no charge
		{"0.000001", "0", "5000", "5000.000", "0.01"},
		{"0.000001", "0", "4999.999", "4999.999", ""},
		{"0.000001", "0", "999999999.999", "999999999.999", "1000.00"},
		{"0.301234", "1000", "1012.345", "12.345", "3.72"},
		{"0.123456", "0.001", "100.001", "100.000", "12.35"},
		{"5.005", "0", "1", "1.000", "5.01"},
		{"1", "0", "0.015", "0.015", "0.02"},
		{"1", "0", "0.025", "0.025", "0.03"},
		{"1", "7", "7", "0.000", ""},
		{"0.999999", "0", "999999999.999", "999999999.999", "999999000.00"},
		{"999999.999999", "0", "0.001", "0.001", "1000.00"},
	}
	for _, tc := range cases {
		t.Run(tc.tariff+" "+tc.first+".."+tc.next, func(t *testing.T) {
			c := f.newCounter(t, map[string]any{"kind": "other", "tariff": json.Number(tc.tariff)})
			f.addReading(t, c.ID, "2026-10-01", json.Number(tc.first))
			res := f.app.Post(f.readings(c.ID), f.user.Token, map[string]any{"read_on": "2026-11-01", "value": json.Number(tc.next)}).Expect(http.StatusCreated)
			if !strings.Contains(res.String(), `"consumption":`+tc.consumption+`,`) {
				t.Fatalf("consumption: %s, want %s", res.String(), tc.consumption)
			}
			var r reading
			res.JSON(&r)
			if tc.amount == "" {
				if r.ChargeID != nil {
					t.Fatalf("a charge for an amount of 0.00: %s", res.String())
				}
				return
			}
			if r.ChargeID == nil {
				t.Fatalf("no charge: %s", res.String())
			}
			var amount string
			if err := f.app.DB.NewRaw("SELECT CAST(amount_minor AS TEXT) FROM charges WHERE id = ?", *r.ChargeID).Scan(context.Background(), &amount); err != nil {
				t.Fatal(err)
			}
			want := strings.Replace(tc.amount, ".", "", 1)
			want = strings.TrimLeft(want, "0")
			if amount != want {
				t.Fatalf("amount_minor %s, want %s (%s)", amount, want, tc.amount)
			}
			lst := f.app.Get(f.charges()+"?per_page=200", f.user.Token).Expect(http.StatusOK).String()
			if !strings.Contains(lst, `"amount":`+tc.amount+`,`) {
				t.Fatalf("charge list does not show %s: %s", tc.amount, lst)
			}
		})
	}
	// A charge above the largest amount is refused and nothing is stored.
	c := f.newCounter(t, map[string]any{"kind": "other", "tariff": 999999.999999})
	f.addReading(t, c.ID, "2026-10-01", 0)
	before := rows(t, f.app, "counter_readings")
	got := details(t, f.app.Post(f.readings(c.ID), f.user.Token, map[string]any{"read_on": "2026-11-01", "value": 1000}))
	if len(got) != 1 || !strings.Contains(got[0], "would exceed 999999999.99") {
		t.Fatalf("details %q", got)
	}
	if rows(t, f.app, "counter_readings") != before {
		t.Fatal("a refused reading was stored")
	}
}

// Dates: a date not after the latest reading (equal included) is 409
// out_of_order; a value below the previous one 400; a future date 400.
func TestReadingsAreAppendOnlyInDateOrder(t *testing.T) {
	f := start(t)
	c := f.newCounter(t, map[string]any{"kind": "water_cold", "tariff": 2.5})
	if c.Unit != "m3" || c.Name != "Cold water" {
		t.Fatalf("counter %+v", c)
	}
	f.addReading(t, c.ID, "2026-10-01", 10)
	f.addReading(t, c.ID, "2026-11-01", 12)
	for _, d := range []string{"2026-11-01", "2026-10-15", "2026-10-01", "2025-01-01"} {
		res := f.app.Post(f.readings(c.ID), f.user.Token, map[string]any{"read_on": d, "value": 20}).Expect(http.StatusConflict)
		if m := res.Map(); m["error"] != "out_of_order" || !strings.Contains(m["message"].(string), "2026-11-01") {
			t.Fatalf("%s: %s", d, res.String())
		}
	}
	got := details(t, f.app.Post(f.readings(c.ID), f.user.Token, map[string]any{"read_on": "2026-11-10", "value": 11.999}))
	if len(got) != 1 || got[0] != "value: must not be below the previous reading, 12.000 on 2026-11-01" {
		t.Fatalf("decreasing value: %q", got)
	}
	got = details(t, f.app.Post(f.readings(c.ID), f.user.Token, map[string]any{"read_on": "2026-11-23", "value": 13}))
	if len(got) != 1 || got[0] != "read_on: must not be in the future (today is 2026-11-22)" {
		t.Fatalf("future date: %q", got)
	}
	// Bad bodies.
	for _, tc := range []struct {
		body any
		want string
	}{
		{map[string]any{}, "read_on: is required"},
		{map[string]any{"read_on": "2026-11-10"}, "value: is required"},
		{map[string]any{"read_on": "2026-11-10", "value": 1.2345}, "value: must have at most 3 decimals"},
		{map[string]any{"read_on": "2026-11-10", "value": -1}, "value: must not be negative"},
		{map[string]any{"read_on": "2026-11-10", "value": "12"}, "value: must be a JSON number such as 12.345"},
		{`{"read_on": "2026-11-10", "value": 1e3}`, "value: must be written without an exponent"},
		{map[string]any{"read_on": "2026-11-10", "value": 1000000000}, "value: must be at most 999999999.999"},
		{map[string]any{"read_on": "2026-02-30", "value": 13}, "read_on: must be a date in the form YYYY-MM-DD"},
	} {
		got := details(t, f.app.Post(f.readings(c.ID), f.user.Token, tc.body))
		if len(got) == 0 || !strings.HasPrefix(got[0], tc.want) {
			t.Errorf("%v: %q, want %q", tc.body, got, tc.want)
		}
	}
	// Equal values are a consumption of 0: no charge.
	r := f.addReading(t, c.ID, "2026-11-02", 12)
	if r.Consumption != 0.0 || r.ChargeID != nil {
		t.Fatalf("equal value: %+v", r)
	}
	if l := f.allCharges(t); l.Total != 1 || l.Charges[0].Amount != 5.0 {
		t.Fatalf("charges %+v", l)
	}
	// List with from/to, newest first.
	var l readingList
	f.app.Get(f.readings(c.ID)+"?from=2026-10-02&to=2026-11-01", f.user.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 1 || l.Readings[0].ReadOn != "2026-11-01" {
		t.Fatalf("from/to: %+v", l)
	}
	f.app.Get(f.readings(c.ID), f.user.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 3 || l.Readings[0].ReadOn != "2026-11-02" || l.Readings[2].ReadOn != "2026-10-01" {
		t.Fatalf("all: %+v", l)
	}
	for _, q := range []string{"from=2026-13-01", "to=x", "page=0"} {
		f.app.Get(f.readings(c.ID)+"?"+q, f.user.Token).Expect(http.StatusBadRequest)
	}
	// An inactive counter takes no reading.
	f.app.Put(f.counters()+"/"+c.ID, f.user.Token, map[string]any{"is_active": false}).Expect(http.StatusOK)
	res := f.app.Post(f.readings(c.ID), f.user.Token, map[string]any{"read_on": "2026-11-20", "value": 13}).Expect(http.StatusConflict)
	if res.Map()["error"] != "inactive" {
		t.Fatalf("inactive: %s", res.String())
	}
}

// Only the latest reading goes; its charge is cancelled (who and when
// kept), or the deletion is refused when the charge has payments.
func TestDeleteTheLatestReading(t *testing.T) {
	f := start(t)
	c := f.newCounter(t, map[string]any{"kind": "gas", "unit": "kWh", "tariff": 0.1})
	r1 := f.addReading(t, c.ID, "2026-09-30", 100)
	r2 := f.addReading(t, c.ID, "2026-10-31", 200)
	r3 := f.addReading(t, c.ID, "2026-11-20", 300)
	res := f.app.Delete(f.readings(c.ID)+"/"+r2.ID, f.user.Token).Expect(http.StatusConflict)
	if res.Map()["error"] != "not_latest" {
		t.Fatalf("earlier reading: %s", res.String())
	}
	f.app.Delete(f.readings(c.ID)+"/019a0000-0000-7000-8000-000000000000", f.user.Token).Expect(http.StatusNotFound)
	f.app.Delete(f.readings(c.ID)+"/nope", f.user.Token).Expect(http.StatusNotFound)

	// Money allocated to the charge blocks the deletion: a payment of one
	// cent of its 10.00, then (the payment reversed) nothing.
	payments := "/api/v1/properties/" + f.property + "/payments"
	var pay struct {
		ID string `json:"id"`
	}
	f.app.Post(payments, f.user.Token, map[string]any{"amount": 0.01, "method": "cash",
		"allocations": []map[string]any{{"charge_id": *r3.ChargeID, "amount": 0.01}}}).Expect(http.StatusCreated).JSON(&pay)
	res = f.app.Delete(f.readings(c.ID)+"/"+r3.ID, f.user.Token).Expect(http.StatusConflict)
	if res.Map()["error"] != "has_payments" {
		t.Fatalf("paid charge: %s", res.String())
	}
	f.app.Post(payments+"/"+pay.ID+"/reverse", f.user.Token, map[string]any{"reason": "typo"}).Expect(http.StatusOK)

	f.app.Clock.Advance(time.Hour)
	f.app.Delete(f.readings(c.ID)+"/"+r3.ID, f.user.Token).Expect(http.StatusNoContent)
	var st struct {
		Status      string    `bun:"status"`
		CancelledBy int64     `bun:"cancelled_by"`
		CancelledAt time.Time `bun:"cancelled_at"`
		ReadingID   string    `bun:"reading_id"`
		PreviousID  string    `bun:"previous_reading_id"`
		CounterID   string    `bun:"counter_id"`
	}
	if err := f.app.DB.NewRaw("SELECT status, cancelled_by, cancelled_at, reading_id, previous_reading_id, counter_id FROM charges WHERE id = ?", *r3.ChargeID).
		Scan(context.Background(), &st); err != nil {
		t.Fatal(err)
	}
	if st.Status != "cancelled" || st.CancelledBy != f.user.ID || !st.CancelledAt.Equal(f.app.Clock.Now().Truncate(time.Microsecond)) ||
		st.ReadingID != r3.ID || st.PreviousID != r2.ID || st.CounterID != c.ID {
		t.Fatalf("cancelled charge %+v", st)
	}
	// The same date can be read again, and bills again (a new charge).
	r3b := f.addReading(t, c.ID, "2026-11-20", 310)
	if r3b.ChargeID == nil || *r3b.ChargeID == *r3.ChargeID {
		t.Fatalf("re-added reading %+v", r3b)
	}
	l := f.allCharges(t)
	if l.Total != 3 {
		t.Fatalf("charges %+v", l)
	}
	// Back to the first reading; a first reading has no charge to cancel.
	f.app.Delete(f.readings(c.ID)+"/"+r3b.ID, f.user.Token).Expect(http.StatusNoContent)
	f.app.Delete(f.readings(c.ID)+"/"+r2.ID, f.user.Token).Expect(http.StatusNoContent)
	f.app.Delete(f.readings(c.ID)+"/"+r1.ID, f.user.Token).Expect(http.StatusNoContent)
	if n := rows(t, f.app, "counter_readings"); n != 0 {
		t.Fatalf("%d readings left", n)
	}
	var cancelled int
	if err := f.app.DB.NewRaw("SELECT COUNT(*) FROM charges WHERE status = 'cancelled'").Scan(context.Background(), &cancelled); err != nil || cancelled != 3 {
		t.Fatalf("%d cancelled charges (%v), want 3", cancelled, err)
	}
}
