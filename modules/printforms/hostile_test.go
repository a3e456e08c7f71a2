package printforms_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// footer is a page's footer of the hostile contract as pdftotext -raw
// reads it.
var footer = regexp.MustCompile(`(Rental contract|Договір найму житла) \S+ (Page|Сторінка) \d+ (of|з) \d+ ?`)

// Text the landlord typed may be anything the contracts module accepts:
// words longer than a line, bidirectional overrides, control characters,
// characters the Go fonts lack, 4,000 characters of it, thousands of line
// breaks. The form is still a valid PDF of a sane length with the text in
// it, drawn left to right, without the invisible characters.
func TestHostileTextStillGivesAValidPDF(t *testing.T) {
	requirePoppler(t)
	f := start(t)
	longWord := strings.Repeat("W", 1500)
	mixed := longWord + " \u202eevil override\u202c \u0001\u0007\u001b\u0085 tab\there 😀 漢字 مرحبا \u200f\u2066isolate\u2069 ENDMARK"
	mixed += " " + strings.Repeat("x", 4000-len([]rune(mixed))-1)
	prose := strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing. ", 80)[:3999] + "Z"
	breaks := "first" + strings.Repeat("\n", 3980) + "last\r\n\r\nline"
	terms := append(append([]term(nil), fullTerms[:4]...),
		term{"INVENTORY_LIST", mixed},
		term{"SPECIAL_CONDITIONS", prose},
		term{"DE_ENERGIEAUSWEIS_CLASS", breaks},
	)
	for _, s := range []string{mixed, prose} {
		if n := len([]rune(s)); n != 4000 {
			t.Fatalf("a test text has %d characters, want 4000", n)
		}
	}
	f.app.Put("/api/v1/contragents/"+f.tenant, f.user.Token, map[string]any{"name": "\u202eEvil Tenant\u202c " + strings.Repeat("N", 150)}).
		Expect(http.StatusOK)
	// The API refuses control characters now (the text rule of issue 25),
	// but rows written before it may hold them: they go in through the
	// database, as JSON escapes in the stored terms.
	const controls, stand = "\u0001\u0007\u001b\u0085", "\ue000\ue001\ue002\ue003"
	terms[4].Value = strings.Replace(mixed, controls, stand, 1)
	id := f.newContract(t, f.user.Token, "\u202e2026/"+strings.Repeat("9", 40), "uk", terms)
	if _, err := f.app.DB.NewUpdate().Table("contracts").Set("terms = REPLACE(terms, ?, ?)", stand, `\u0001\u0007\u001b\u0085`).
		Where("id = ?", id).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}

	for _, locale := range []string{"uk", "en"} {
		res := f.print(id, "locale="+locale, f.user.Token, nil).Expect(http.StatusOK)
		text := pdfText(t, res.Body)
		raw := pdfText(t, res.Body, "-raw")
		// A page may end inside the long word: its footer goes.
		joined := strings.ReplaceAll(footer.ReplaceAllString(raw, ""), " ", "")
		for _, want := range []string{"evil override", "ENDMARK", "Evil Tenant", "first", "last", "Z", "tab here"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the text lacks %q", locale, want)
			}
		}
		if !strings.Contains(joined, longWord) {
			t.Errorf("%s: the long word is not there whole (wrapped lines joined)", locale)
		}
		if !strings.Contains(joined, strings.Repeat("9", 40)) {
			t.Errorf("%s: the number is not there", locale)
		}
		if strings.ContainsAny(text, "\u202e\u202c\u200f\u2066\u2069\u0001\u0007\u001b") {
			t.Errorf("%s: invisible or control characters were drawn", locale)
		}
		if strings.ContainsFunc(text, func(r rune) bool { return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Arabic, r) }) {
			t.Errorf("%s: characters the fonts lack were drawn as themselves", locale)
		}
		// 😀 漢字 مرحبا: eight characters the fonts lack, each one U+FFFD;
		// the invisible ones are not replaced but left out.
		if n := strings.Count(text, "\ufffd"); n != 8 {
			t.Errorf("%s: %d U+FFFD drawn, want 8 (one per character the fonts lack)", locale, n)
		}
		if !strings.Contains(text, " evil override ") || !strings.Contains(text, " Evil Tenant ") {
			t.Errorf("%s: the text around the invisible characters is not as typed", locale)
		}
		if pages := pdfPages(t, res.Body); pages < 3 || pages > 8 {
			t.Errorf("%s: %d pages for three 4,000-character texts", locale, pages)
		}
	}
}
