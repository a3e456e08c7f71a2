package export

import (
	"io"
	"testing"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// BenchmarkCSVRow is the cost of one row of the charges export.
func BenchmarkCSVRow(b *testing.B) {
	cols := make([]Column, 13)
	w, err := New(io.Discard, CSV, "x", cols)
	if err != nil {
		b.Fatal(err)
	}
	d := period.NewDate(2026, 1, 1)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = w.Row("01a21040-a7ca-77bd-b25c-71378f4cff2d", "01a21040-a7ca-77bd-b25c-71378f4cff2d", "Unit 1", "01a21040-a7ca-77bd-b25c-71378f4cff2d",
			"Rent", "regular", "2026-01", d, "EUR", Amount{Value: money.Amount(95000), Currency: "EUR"}, Amount{Value: 0, Currency: "EUR"},
			Amount{Value: money.Amount(95000), Currency: "EUR"}, "unpaid")
	}
}
