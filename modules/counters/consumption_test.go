package counters_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
)

type monthUse struct {
	Month       string  `json:"month"`
	Consumption float64 `json:"consumption"`
	Readings    int     `json:"readings"`
}

type report struct {
	CounterID string     `json:"counter_id"`
	Unit      string     `json:"unit"`
	By        string     `json:"by"`
	From      *string    `json:"from"`
	To        *string    `json:"to"`
	Total     float64    `json:"total"`
	Months    []monthUse `json:"months"`
}

// The consumption between two readings counts in the month of the later
// one; months without readings show 0; from/to default to the readings'.
func TestConsumptionPerMonth(t *testing.T) {
	f := start(t)
	c := f.newCounter(t, map[string]any{"kind": "water_cold"})
	path := f.counters() + "/" + c.ID + "/consumption"
	var r report
	f.app.Get(path, f.user.Token).Expect(http.StatusOK).JSON(&r)
	if r.From != nil || r.To != nil || len(r.Months) != 0 || r.Total != 0 || r.By != "month" || r.Unit != "m3" {
		t.Fatalf("no readings: %+v", r)
	}
	importCSV(f, c.ID, f.user.Token, "2026-01-15,100\n2026-02-10,104.5\n2026-02-28,106\n2026-05-02,120.25\n2026-06-01,121\n").
		Expect(http.StatusCreated)
	res := f.app.Get(path+"?by=month", f.user.Token).Expect(http.StatusOK)
	if !strings.Contains(res.String(), `"consumption":6.000`) {
		t.Fatalf("not written with 3 decimals: %s", res.String())
	}
	res.JSON(&r)
	want := []monthUse{{"2026-01", 0, 1}, {"2026-02", 6, 2}, {"2026-03", 0, 0}, {"2026-04", 0, 0}, {"2026-05", 14.25, 1}, {"2026-06", 0.75, 1}}
	if *r.From != "2026-01" || *r.To != "2026-06" || r.Total != 21 || !reflect.DeepEqual(r.Months, want) {
		t.Fatalf("report %+v", r)
	}
	f.app.Get(path+"?from=2026-05&to=2026-08", f.user.Token).Expect(http.StatusOK).JSON(&r)
	want = []monthUse{{"2026-05", 14.25, 1}, {"2026-06", 0.75, 1}, {"2026-07", 0, 0}, {"2026-08", 0, 0}}
	if *r.From != "2026-05" || *r.To != "2026-08" || r.Total != 15 || !reflect.DeepEqual(r.Months, want) {
		t.Fatalf("from/to report %+v", r)
	}
	f.app.Get(path+"?from=2026-06", f.user.Token).Expect(http.StatusOK).JSON(&r)
	if *r.From != "2026-06" || *r.To != "2026-06" || len(r.Months) != 1 {
		t.Fatalf("from only %+v", r)
	}
	f.app.Get(path+"?to=2026-01", f.user.Token).Expect(http.StatusOK).JSON(&r)
	if *r.From != "2026-01" || *r.To != "2026-01" || len(r.Months) != 1 || r.Total != 0 {
		t.Fatalf("to only %+v", r)
	}
	for q, detail := range map[string]string{
		"from=2026-13":            "from: must be a month (YYYY-MM)",
		"to=2026-1":               "to: must be a month (YYYY-MM)",
		"from=2026-05&to=2026-04": "to: must not be before from",
		"from=1950-01&to=2026-01": "to: a report covers at most 600 months",
		"by=week":                 "by: must be month",
	} {
		if got := details(t, f.app.Get(path+"?"+q, f.user.Token)); len(got) != 1 || !strings.HasPrefix(got[0], detail) {
			t.Errorf("%s: %q", q, got)
		}
	}
}
