package counters_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// 20 readings of one counter sent at once, in shuffled date order: those
// accepted are strictly increasing in date and value, the others are 409
// out_of_order, and every consumption is billed exactly once (the charges
// add up to the last value minus the first at the tariff).
func TestConcurrentReadingsOfOneCounter(t *testing.T) {
	f := start(t)
	c := f.newCounter(t, map[string]any{"kind": "electricity", "tariff": 1})
	f.addReading(t, c.ID, "2026-01-01", 0)
	for round := range 3 {
		order := rand.Perm(20)
		statuses := make([]int, 20)
		var wg sync.WaitGroup
		for i, day := range order {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res := f.app.Do(testkit.Request{Method: http.MethodPost, Path: f.readings(c.ID), Token: f.user.Token,
					Body: map[string]any{"read_on": fmt.Sprintf("2026-%02d-%02d", 2+round, 1+day), "value": 100*round*20 + 100*(day+1)}})
				statuses[i] = res.Status
			}()
		}
		wg.Wait()
		for _, s := range statuses {
			if s != http.StatusCreated && s != http.StatusConflict {
				t.Fatalf("round %d: statuses %v", round, statuses)
			}
		}
	}
	var list []struct {
		ID          string  `bun:"id"`
		ReadOn      string  `bun:"read_on"`
		Value       int64   `bun:"value_milli"`
		Consumption *int64  `bun:"consumption_milli"`
		ChargeID    *string `bun:"charge_id"`
	}
	if err := f.app.DB.NewRaw("SELECT id, CAST(read_on AS TEXT) AS read_on, value_milli, consumption_milli, charge_id FROM counter_readings WHERE counter_id = ? ORDER BY read_on", c.ID).
		Scan(context.Background(), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) < 4 {
		t.Fatalf("only %d readings accepted", len(list))
	}
	var charged int64
	for i := 1; i < len(list); i++ {
		prev, r := list[i-1], list[i]
		if r.ReadOn <= prev.ReadOn || r.Value <= prev.Value || r.Consumption == nil || *r.Consumption != r.Value-prev.Value || r.ChargeID == nil {
			t.Fatalf("reading %d %+v after %+v", i, r, prev)
		}
		var n int
		var amount int64
		if err := f.app.DB.NewRaw("SELECT COUNT(*), COALESCE(SUM(amount_minor), 0) FROM charges WHERE reading_id = ?", r.ID).Scan(context.Background(), &n, &amount); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("reading %s billed %d times", r.ID, n)
		}
		charged += amount
	}
	total := rows(t, f.app, "charges")
	if total != len(list)-1 {
		t.Fatalf("%d charges for %d readings", total, len(list))
	}
	// Tariff 1 per unit: cents = consumption (thousandths) / 10.
	if want := (list[len(list)-1].Value - list[0].Value) / 10; charged != want {
		t.Fatalf("charged %d cents, want %d", charged, want)
	}
}

// 20 readings of one date at once: one is accepted, 19 are out_of_order.
func TestConcurrentReadingsOfOneDate(t *testing.T) {
	f := start(t)
	c := f.newCounter(t, map[string]any{"kind": "heating", "tariff": 80})
	f.addReading(t, c.ID, "2026-10-01", 10)
	statuses := make(chan int, 20)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := f.app.Do(testkit.Request{Method: http.MethodPost, Path: f.readings(c.ID), Token: f.user.Token,
				Body: map[string]any{"read_on": "2026-11-01", "value": 11 + i}})
			statuses <- res.Status
		}()
	}
	wg.Wait()
	close(statuses)
	created := 0
	for s := range statuses {
		switch s {
		case http.StatusCreated:
			created++
		case http.StatusConflict:
		default:
			t.Fatalf("status %d", s)
		}
	}
	if created != 1 || rows(t, f.app, "counter_readings") != 2 || rows(t, f.app, "charges") != 1 {
		t.Fatalf("%d created, %d readings, %d charges", created, rows(t, f.app, "counter_readings"), rows(t, f.app, "charges"))
	}
}
