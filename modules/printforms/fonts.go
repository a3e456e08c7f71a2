package printforms

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/text/unicode/norm"
)

// The fonts are the Go fonts (Latin, Greek, Cyrillic), compiled into the
// binary; a document embeds only the glyphs it uses (fpdf subsets UTF-8
// fonts).
var (
	fontRegular = goregular.TTF
	fontBold    = gobold.TTF
)

// replacement is drawn for a character the fonts have no glyph for.
const replacement = '\uFFFD'

// covered is the set of characters both fonts draw, read from the fonts
// once.
var covered = sync.OnceValue(func() map[rune]bool {
	set := map[rune]bool{}
	fonts := make([]*sfnt.Font, 0, 2)
	for _, b := range [][]byte{fontRegular, fontBold} {
		f, err := sfnt.Parse(b)
		if err != nil {
			panic("printforms: the embedded Go font does not parse: " + err.Error())
		}
		fonts = append(fonts, f)
	}
	var buf sfnt.Buffer
	for r := rune(0x20); r <= 0xFFFD; r++ {
		all := true
		for _, f := range fonts {
			if g, err := f.GlyphIndex(&buf, r); err != nil || g == 0 {
				all = false
				break
			}
		}
		if all {
			set[r] = true
		}
	}
	return set
})

// Printable is clean for modules that draw PDFs of their own with fpdf
// (the owner statement): fpdf's UTF-8 fonts index a table of the Basic
// Multilingual Plane by rune and panic on a character above U+FFFF, so
// no text from the database may reach it uncleaned.
func Printable(s string, multiline bool) string { return clean(s, multiline) }

// clean makes text from the database safe to draw: invalid UTF-8, control
// characters and tabs become spaces (line breaks too unless multiline),
// invisible formatting characters (bidirectional overrides such as
// U+202E, zero-width joiners, soft hyphens) are dropped, so text is always
// drawn left to right as stored, and a character the fonts cannot draw
// becomes U+FFFD. Text is composed first (NFC), so a letter typed with a
// combining accent ("e" + U+0301) is drawn as the accented letter the
// fonts have; an accent that composes with nothing and that the fonts
// lack is left out, which keeps the letter readable. Runs of spaces stay:
// the text is the landlord's.
func clean(s string, multiline bool) string {
	set := covered()
	var b strings.Builder
	b.Grow(len(s))
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if utf8.ValidString(s) && !norm.NFC.IsNormalString(s) {
		s = norm.NFC.String(s)
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(replacement)
		case r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
			if multiline {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		case unicode.IsControl(r) || r == '\t':
			b.WriteByte(' ')
		case unicode.Is(unicode.Cf, r):
			// Formatting characters draw nothing.
		case unicode.IsSpace(r) && r != ' ' && r != '\u00a0':
			b.WriteByte(' ')
		case set[r]:
			b.WriteRune(r)
		case unicode.Is(unicode.Mn, r):
			// An accent the fonts lack, on the letter before it.
		default:
			b.WriteRune(replacement)
		}
	}
	return b.String()
}
