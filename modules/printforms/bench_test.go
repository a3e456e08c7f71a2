package printforms

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/modules/agreements/catalog"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// benchForm is a contract with 30 terms of the real catalogue (names and
// descriptions in locale), values of every data type.
func benchForm(b *testing.B, locale string) ContractForm {
	b.Helper()
	blocks, err := catalog.Load()
	if err != nil {
		b.Fatal(err)
	}
	rent, deposit := money.Amount(123450), money.Amount(370350)
	f := ContractForm{
		Number: "2026/001", Currency: "EUR",
		Landlord: Party{Name: "Lena Vermieterin", Email: "lena@example.com"},
		Tenant: Party{Name: "Олена Коваленко", Address: "Lindenweg 7, 10117 Berlin", Email: "olena@example.com",
			Phone: "+4915112345678", TaxID: "DE123456789"},
		PropertyName: "Flat 3B", PropertyAddress: "Hauptstraße 5, 10115 Berlin, Deutschland",
		Start: period.NewDate(2026, 12, 1), End: period.NewDate(2027, 11, 30), StartRent: &rent, Deposit: &deposit, DueDay: 3,
		Updated: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC),
	}
	for _, bl := range blocks[:30] {
		var v string
		switch bl.DataType {
		case "int":
			v = "12"
		case "float":
			v = "180.50"
		case "bool":
			v = "true"
		case "date":
			v = `"2026-12-01"`
		default:
			v = `"Keys, meters and the kitchen inventory are handed over on the first day; both parties sign the list."`
		}
		f.Terms = append(f.Terms, FormTerm{Code: bl.Code, Name: bl.Name[locale],
			DataType: bl.DataType, Value: json.RawMessage(v)})
	}
	if len(f.Terms) != 30 {
		b.Fatalf("%d terms", len(f.Terms))
	}
	return f
}

// BenchmarkContract30Terms: one contract of 30 terms drawn in German and in
// Ukrainian (Cyrillic glyphs too), with the PDF's size.
func BenchmarkContract30Terms(b *testing.B) {
	r := NewRenderer(testLabels(b))
	for _, locale := range []string{"de", "uk"} {
		b.Run(locale, func(b *testing.B) {
			f := benchForm(b, locale)
			b.ReportAllocs()
			size := 0
			for b.Loop() {
				out, err := r.Contract(locale, f)
				if err != nil {
					b.Fatal(err)
				}
				size = len(out)
			}
			b.ReportMetric(float64(size), "pdf-bytes")
		})
	}
}

// BenchmarkContract30TermsParallel20: 20 renders of that contract at once
// (one op), as 20 clients asking for 20 different contracts at the same
// moment would cause; allocations are per op (20 PDFs).
func BenchmarkContract30TermsParallel20(b *testing.B) {
	r := NewRenderer(testLabels(b))
	f := benchForm(b, "de")
	const n = 20
	b.ReportAllocs()
	heap := func() float64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapInuse) / (1 << 20)
	}
	before := heap()
	for b.Loop() {
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := r.Contract("de", f); err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			b.Fatal(fmt.Errorf("render: %w", err))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/render")
	// Memory held flat: what stays in use after the renders, once garbage
	// is collected, is no more than before them.
	b.ReportMetric(heap()-before, "MB-heap-growth")
}
