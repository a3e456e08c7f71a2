package banking_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/propman/propman/modules/banking"
)

// The readers stream: reading a statement of 20,000 entries keeps no more
// of it alive than reading one of 2,000 does (the file's own bytes
// aside). The live heap is sampled after a collection every 500 lines.
func TestParsingKeepsNoLines(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 20,000-line files")
	}
	gen := func(n int) []entry {
		es := make([]entry, n)
		for i := range es {
			es[i] = entry{Ref: fmt.Sprintf("M%07d", i), Date: "2026-11-02", Cents: int64(10000 + i), Name: "Anna Schmidt",
				IBAN: "DE02120300000000202051", Text: fmt.Sprintf("Miete November MV-2026-%04d", i%1000)}
		}
		return es
	}
	// growth is the largest live heap above the one before reading.
	growth := func(format string, data []byte) (int64, int) {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base, peak, n := int64(ms.HeapAlloc), int64(0), 0
		err := banking.ParseEach(format, data, nil, func(*banking.Line) error {
			n++
			if n%500 == 0 {
				runtime.GC()
				runtime.ReadMemStats(&ms)
				peak = max(peak, int64(ms.HeapAlloc)-base)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return peak, n
	}
	for _, format := range []string{banking.FormatCAMT, banking.FormatMT940} {
		write := func(es []entry) []byte {
			if format == banking.FormatMT940 {
				return mt940(es, 0)
			}
			return camt(8, "DE89370400440532013000", es)
		}
		small, large := write(gen(2000)), write(gen(20000))
		gs, ns := growth(format, small)
		gl, nl := growth(format, large)
		t.Logf("%s: %d lines (%d bytes) %d bytes live at most, %d lines (%d bytes) %d", format, ns, len(small), gs, nl, len(large), gl)
		if ns != 2000 || nl != 20000 {
			t.Fatalf("%s: read %d and %d lines", format, ns, nl)
		}
		// Keeping the lines would be megabytes (20,000 of them); one entry
		// and the reader's buffers are a few kilobytes.
		if gl > 256<<10 || gl > gs+128<<10 {
			t.Errorf("%s: reading 20,000 lines kept %d bytes alive, 2,000 lines %d", format, gl, gs)
		}
	}
}
