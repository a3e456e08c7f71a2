package printforms

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

func TestLocaleFormats(t *testing.T) {
	day := period.NewDate(2026, 11, 23)
	tests := []struct {
		locale                                       string
		money, small, negative, integer, dec, pct    string
		date, month, quarter, year, notAPeriod, zero string
	}{
		{"en", "€1,234,567.50", "€0.05", "-€1,234.00", "1,234,567", "1,234.125", "5.5%", "2026-11-23", "2026-11", "Q4 2026", "2026", "soon", "€0.00"},
		{"de", "1.234.567,50 €", "0,05 €", "-1.234,00 €", "1.234.567", "1.234,125", "5,5 %", "23.11.2026", "11.2026", "Q4 2026", "2026", "soon", "0,00 €"},
		{"fr", "1 234 567,50 €", "0,05 €", "-1 234,00 €", "1 234 567", "1 234,125", "5,5 %", "23/11/2026", "11/2026", "Q4 2026", "2026", "soon", "0,00 €"},
		{"es", "1.234.567,50 €", "0,05 €", "-1.234,00 €", "1.234.567", "1.234,125", "5,5 %", "23/11/2026", "11/2026", "Q4 2026", "2026", "soon", "0,00 €"},
		{"uk", "1 234 567,50 грн", "0,05 грн", "-1 234,00 грн", "1 234 567", "1 234,125", "5,5 %", "23.11.2026", "11.2026", "Q4 2026", "2026", "soon", "0,00 грн"},
		// A language activated without formats of its own is written the
		// English way.
		{"it", "€1,234,567.50", "€0.05", "-€1,234.00", "1,234,567", "1,234.125", "5.5%", "2026-11-23", "2026-11", "Q4 2026", "2026", "soon", "€0.00"},
	}
	for _, tt := range tests {
		s := styleOf(tt.locale)
		cur := "EUR"
		if tt.locale == "uk" {
			cur = "UAH"
		}
		sp := func(v string) string { return strings.ReplaceAll(v, "\u00a0", " ") }
		for _, c := range []struct{ name, got, want string }{
			{"Money", s.Money(money.Amount(123456750), cur), tt.money},
			{"Money small", s.Money(5, cur), tt.small},
			{"Money negative", s.Money(-123400, cur), tt.negative},
			{"Money zero", s.Money(0, cur), tt.zero},
			{"Int", s.Int(1234567), tt.integer},
			{"Decimal", s.Decimal("1234.125"), tt.dec},
			{"Percent", s.Percent("5.5"), tt.pct},
			{"Date", s.Date(day), tt.date},
			{"Period month", s.Period("2026-11"), tt.month},
			{"Period quarter", s.Period("2026-Q4"), tt.quarter},
			{"Period year", s.Period("2026"), tt.year},
			{"Period other", s.Period("soon"), tt.notAPeriod},
		} {
			if sp(c.got) != c.want {
				t.Errorf("%s %s = %q, want %q", tt.locale, c.name, c.got, c.want)
			}
		}
	}
	// The amount never breaks from its currency, nor inside its groups.
	if got := styleOf("fr").Money(123456, "EUR"); strings.Contains(got, " ") {
		t.Errorf("fr amount %q has a breaking space", got)
	}
	// Currencies: the sign where there is a well-known one, else the code
	// after the number; the hryvnia as "грн" only in Ukrainian.
	for _, c := range []struct{ locale, currency, want string }{
		{"en", "GBP", "£12.50"}, {"de", "GBP", "12,50 £"}, {"en", "USD", "$12.50"}, {"es", "USD", "12,50 $"},
		{"en", "CHF", "12.50 CHF"}, {"de", "CHF", "12,50 CHF"}, {"en", "UAH", "12.50 UAH"}, {"de", "UAH", "12,50 UAH"},
		{"uk", "EUR", "12,50 €"}, {"fr", "", "12,50"},
	} {
		if got := strings.ReplaceAll(styleOf(c.locale).Money(1250, c.currency), "\u00a0", " "); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.locale, c.currency, got, c.want)
		}
	}
	if got := styleOf("en").Int(-1234); got != "-1,234" {
		t.Errorf("Int(-1234) = %q", got)
	}
	if got := styleOf("de").Decimal("1e5"); got != "1e5" {
		t.Errorf("Decimal(1e5) = %q, want it as stored", got)
	}
}

func TestClean(t *testing.T) {
	for _, tc := range []struct {
		in        string
		multiline bool
		want      string
	}{
		{"plain Текст Ελληνικά €", false, "plain Текст Ελληνικά €"},
		{"a\u202eb\u202cc\u200fd\u2066e\u2069\ufeff\u00adf", false, "abcdef"},
		{"a\x00b\x07c\x1bd\u0085e\tf", false, "a b c d e f"},
		{"line\r\nnext\rthird\u2028fourth", true, "line\nnext\nthird\nfourth"},
		{"line\r\nnext", false, "line next"},
		{"😀 漢 م", false, "\ufffd \ufffd \ufffd"},
		{"bad \xff\xfe utf8", false, "bad \ufffd\ufffd utf8"},
		{"no\u00a0break\u2003em", false, "no\u00a0break em"},
		{"…", false, "…"},
	} {
		if got := clean(tc.in, tc.multiline); got != tc.want {
			t.Errorf("clean(%q, %v) = %q, want %q", tc.in, tc.multiline, got, tc.want)
		}
	}
}

func TestContentDisposition(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"contract-2026/001.pdf", `attachment; filename="contract-2026-001.pdf"`},
		{`contract-a"b\c.pdf`, `attachment; filename="contract-ab-c.pdf"`},
		{"contract-a\r\nb.pdf", `attachment; filename="contract-ab.pdf"`},
		{"contract-\u202eevil.pdf", `attachment; filename="contract-evil.pdf"`},
		{"contract-Київ 1.pdf", `attachment; filename="contract-_____1.pdf"; filename*=UTF-8''contract-%D0%9A%D0%B8%D1%97%D0%B2%201.pdf`},
		{"contract-50%;x.pdf", `attachment; filename="contract-50__x.pdf"; filename*=UTF-8''contract-50%25%3Bx.pdf`},
		{"contract-\xff.pdf", `attachment; filename="contract-.pdf"`},
	} {
		if got := contentDisposition(tc.name); got != tc.want {
			t.Errorf("contentDisposition(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestCacheBounds(t *testing.T) {
	c := NewCache(2, 100)
	c.Put("a", make([]byte, 40))
	c.Put("b", make([]byte, 40))
	if _, ok := c.Get("a"); !ok {
		t.Fatal("a is not kept")
	}
	c.Put("c", make([]byte, 40)) // b is the least recently used
	if _, ok := c.Get("b"); ok {
		t.Error("b was kept beyond 2 entries")
	}
	c.Put("d", make([]byte, 90)) // 40 + 40 + 90 > 100: a and c go
	if n, size := c.Len(); n != 1 || size != 90 {
		t.Errorf("%d entries, %d bytes; want d alone", n, size)
	}
	c.Put("e", make([]byte, 101))
	if _, ok := c.Get("e"); ok {
		t.Error("a PDF over the byte bound was kept")
	}
	// A key pointing into a buffer reused afterwards, as Fiber's strings do.
	buf := []byte("fff")
	c.Put(unsafe.String(&buf[0], 2), []byte{1})
	buf[0] = 'x'
	if _, ok := c.Get("ff"); !ok {
		t.Error("the cache kept the caller's key bytes, not a copy")
	}
	off := NewCache(0, 100)
	off.Put("a", []byte{1})
	if n, _ := off.Len(); n != 0 {
		t.Error("a cache of 0 entries kept one")
	}
}
