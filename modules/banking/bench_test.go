package banking_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/propman/propman/platform/testkit"
)

// BenchmarkImport10000 imports, through HTTP, one camt.053.001.08 file of
// 10,000 credit lines (PROPMAN_BANKING_BENCH_LINES) paying the rent of
// 1,000 contracts (PROPMAN_BANKING_BENCH_UNITS), ten months each, every
// line a sure match posted as a payment. The portfolio is set up before
// the timer; each iteration is a fresh database. The file is sent over
// the app's socket by a client that streams it from the bytes made
// before the measurement, so that the heap measured is the server's, not
// a copy of the file the test's client makes. It reports the lines a
// second and the peak of the Go heap during the import above the heap
// before it (peak-heap-MB), the number that has to stay flat as the file
// grows. Run with -benchtime=1x -count=3.
func BenchmarkImport10000(b *testing.B) {
	units, lines := envInt("PROPMAN_BANKING_BENCH_UNITS", 1000), envInt("PROPMAN_BANKING_BENCH_LINES", 10000)
	for range b.N {
		b.StopTimer()
		f := start(b, testkit.WithListener(), testkit.WithConfig("database.timeout", "10m"), testkit.WithConfig("modules.banking.maxbytes", "67108864"),
			testkit.WithConfig("http.bodylimit", "67108864"), testkit.WithConfig("jobs.work", os.Getenv("PROPMAN_BANKING_BENCH_WORK") == "1"))
		var entries []entry
		numbers := make([]string, units)
		for i := range units {
			numbers[i] = fmt.Sprintf("MV-2026-%04d", i+1)
			f.contract(b, numbers[i], fmt.Sprintf("Mieter%d Nachname%d", i, i), 500, "2026-01-01")
		}
		for n := range lines {
			u := n % units
			entries = append(entries, entry{Ref: fmt.Sprintf("B%07d", n), Date: fmt.Sprintf("2026-11-%02d", 1+n/units%20), Cents: 50000,
				Name: fmt.Sprintf("Mieter%d Nachname%d", u, u), IBAN: fmt.Sprintf("DE%02d%018d", 10+u%89, 700000+u),
				Text: "Miete " + numbers[u]})
		}
		data := camt(8, "DE89370400440532013000", entries)
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		var peak atomic.Uint64
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
			for {
				metrics.Read(s)
				if v := s[0].Value.Uint64(); v > peak.Load() {
					peak.Store(v)
				}
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
		}()
		b.StartTimer()
		began := time.Now()
		status, out := f.streamImport(b, data)
		took := time.Since(began)
		b.StopTimer()
		close(stop)
		<-done
		var r result
		if err := json.Unmarshal(out, &r); err != nil || status != http.StatusCreated {
			b.Fatalf("import: %d %.300s", status, out)
		}
		if r.Lines != lines || r.Posted != lines {
			b.Fatalf("imported %+v, want %d lines posted", r, lines)
		}
		b.ReportMetric(float64(lines)/took.Seconds(), "lines/s")
		b.ReportMetric(float64(len(data))/1e6, "file-MB")
		b.ReportMetric(float64(int64(peak.Load())-int64(before.HeapAlloc))/1e6, "peak-heap-MB")
	}
}

func envInt(key string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(key)); err == nil && v > 0 {
		return v
	}
	return def
}
