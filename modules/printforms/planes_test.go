package printforms

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// planes are texts that have crashed or garbled PDFs elsewhere: characters
// above U+FFFF (fpdf's UTF-8 font indexes a table of the Basic
// Multilingual Plane by rune and panicked on them), combining marks,
// right-to-left scripts, bidirectional overrides, joiners, line breaks
// and control characters of rows older than the text rule.
var planes = []string{
	"Flat 😀🔧 𝔘𝔫𝔦",
	"Cafe\u0301 n\u0303 a\u0308\u0301\u0302\u0303",
	"שלום עולם مرحبا بالعالم",
	"\u202eevil\u202c \u2066iso\u2069 a\u200db \ufeff",
	"one\ntwo\r\nthree\rfour\tfive",
	"\x00\x01\x07\x1b[31m\x7f\u0085\u009b",
	"\xff\xfe broken UTF-8 \xc3",
	strings.Repeat("😀", 600),
}

// Every renderer that other modules hand text to (the receipt, the
// invoice, the plain sheet of inspections and deposit statements) takes
// each of those texts in every text field and gives a whole PDF; the
// readable part is there and nothing invisible or undrawable is drawn.
func TestEveryRendererTakesAnyText(t *testing.T) {
	r := NewRenderer(testLabels(t))
	created := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for i, s := range planes {
		rc := sampleReceipt(ReceiptIssued)
		rc.Number, rc.PayerName, rc.PropertyName, rc.PropertyAddress, rc.Reference, rc.ContractNumber = s, s, s, s, s, s
		rc.Landlord.Name = s
		rc.Lines[0].Charge, rc.Lines[1].Period = s, s
		inv := Invoice{Locale: "de", Title: s, Number: s, IssuedAt: created, Rows: [][2]string{{s, s}}, Currency: "EUR",
			Lines: []InvoiceLine{{Description: s, Amount: 100}}, Sums: []InvoiceSum{{Label: s, Amount: 100}}, Notes: []string{s}, Watermark: s}
		docs := map[string]func() ([]byte, error){
			"receipt": func() ([]byte, error) { return r.Receipt("fr", rc) },
			"invoice": func() ([]byte, error) { return r.Invoice(inv) },
			"sheet": func() ([]byte, error) {
				sh := r.Sheet("de", s, s, created)
				sh.Section(s)
				sh.Row(s, s)
				sh.Para(s)
				sh.Signatures(s, [2]string{s, s}, [2]string{s, s})
				return sh.Finish(s)
			},
		}
		for name, render := range docs {
			pdf, err := render()
			if err != nil {
				t.Errorf("text %d, %s: %v", i, name, err)
				continue
			}
			if !bytes.HasPrefix(pdf, []byte("%PDF-")) || !bytes.Contains(pdf[len(pdf)-32:], []byte("%%EOF")) {
				t.Errorf("text %d, %s: not a whole PDF", i, name)
			}
		}
	}
}

// What pdftotext reads of the texts: the Latin part with its marks, one
// U+FFFD per character the fonts lack, nothing invisible.
func TestAnyTextReadsBack(t *testing.T) {
	requirePoppler(t)
	r := NewRenderer(testLabels(t))
	sh := r.Sheet("en", "Planes", "", time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	for _, s := range planes[:5] {
		sh.Para(s)
	}
	pdf, err := sh.Finish("")
	if err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, pdf)
	for _, want := range []string{"Flat", "evil", "iso", "ab", "one two three four five"} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q: %s", want, text)
		}
	}
	if strings.ContainsAny(text, "\u202e\u202c\u2066\u2069\u200d\ufeff😀שم") {
		t.Errorf("drew what it must not: %q", text)
	}
	// Composed, the accents are drawn on their letters; the ones that
	// compose with nothing are left out.
	if !strings.Contains(text, "Café ñ ä ") {
		t.Errorf("the combining marks are not drawn composed: %q", text)
	}
	if n := strings.Count(text, "\ufffd"); n != 5+8+12 {
		t.Errorf("%d U+FFFD, want 25 (5 outside the BMP, 8 Hebrew, 12 Arabic letters): %q", n, text)
	}
}
