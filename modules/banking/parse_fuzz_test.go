package banking_test

import (
	"testing"

	"github.com/propman/propman/modules/banking"
)

// Any bytes in any format: an error or lines, never a panic, and every
// line with a date and a non-zero amount.
func FuzzParse(f *testing.F) {
	e := []entry{{Ref: "R1", Date: "2026-11-03", Cents: 80000, Name: "Anna Schmidt", IBAN: annaIBAN, Text: "Miete MV-1001"},
		{Date: "2026-11-04", Cents: -4550, Name: "Stadtwerke", Text: "Strom", Return: "AM04"}}
	f.Add(camt(2, "", e))
	f.Add(camt(8, "", e))
	f.Add(mt940(e, 0))
	f.Add(ofx(false, e))
	f.Add(ofx(true, e))
	f.Add(sparkasseCSV(e))
	mapping := &banking.CSVMapping{Delimiter: ";", DateFormat: "DD.MM.YYYY", DecimalComma: true, Date: "Buchungstag", Amount: "Betrag", Text: "Verwendungszweck"}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range []string{banking.Sniff(data), banking.FormatCAMT, banking.FormatMT940, banking.FormatOFX, banking.FormatCSV} {
			lines, err := banking.Parse(format, data, mapping)
			if err != nil {
				continue
			}
			for _, l := range lines {
				if l.BookingDate.IsZero() || l.Amount == 0 {
					t.Fatalf("%s: line %+v", format, l)
				}
			}
		}
	})
}
