package counters_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/propman/propman/platform/period"
	"github.com/propman/propman/platform/testkit"
)

// BenchmarkAddReading measures POST .../readings through the whole HTTP
// stack on a counter with a tariff: each reading is one transaction that
// locks the counter, reads the latest reading, inserts the charge and the
// reading. Dates go forward one day per iteration from 1900.
func BenchmarkAddReading(b *testing.B) {
	f := start(b)
	c := f.newCounter(b, map[string]any{"kind": "electricity", "tariff": 0.301234})
	day := period.NewDate(1900, 1, 1)
	f.addReading(b, c.ID, day.String(), 0)
	value := 0
	b.Run(testkit.Engine(), func(b *testing.B) {
		for range b.N {
			day, value = day.AddDays(1), value+1
			body := fmt.Sprintf(`{"read_on":"%s","value":%d.5}`, day, value)
			if status, out := raw(b, f, http.MethodPost, f.readings(c.ID), body); status != http.StatusCreated {
				b.Fatalf("reading: %d %s", status, out)
			}
		}
	})
}

// BenchmarkConsumption10Years measures GET .../consumption over a counter
// with 120 monthly readings (10 years).
func BenchmarkConsumption10Years(b *testing.B) {
	f := start(b)
	c := f.newCounter(b, map[string]any{"kind": "electricity", "tariff": 0.3})
	var sb strings.Builder
	for m := range 120 {
		fmt.Fprintf(&sb, "%04d-%02d-28,%d\n", 2016+m/12, m%12+1, 1000+m*250)
	}
	importCSV(f, c.ID, f.user.Token, sb.String()).Expect(http.StatusCreated)
	path := f.counters() + "/" + c.ID + "/consumption?by=month"
	var r report
	f.app.Get(path, f.user.Token).Expect(http.StatusOK).JSON(&r)
	if len(r.Months) != 120 {
		b.Fatalf("%d months", len(r.Months))
	}
	b.Run(testkit.Engine(), func(b *testing.B) {
		for range b.N {
			if status, out := raw(b, f, http.MethodGet, path, ""); status != http.StatusOK {
				b.Fatalf("consumption: %d %s", status, out)
			}
		}
	})
}

// raw sends a request through Fiber without the test kit's check against
// doc.json (which would dominate the figures).
func raw(b *testing.B, f fixture, method, path, body string) (int, []byte) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, rd)
	req.Header.Set("Authorization", "Bearer "+f.user.Token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := f.app.Fiber.Test(req, -1)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res.StatusCode, out
}
