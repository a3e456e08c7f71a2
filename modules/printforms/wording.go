package printforms

import (
	"strconv"
	"strings"

	"github.com/propman/propman/modules/translations"
)

// clause is the lease wording of one agreement block in one language:
// Value for an int, float, date or text block, Yes and No for a bool
// block. The wording is what the parties sign; the block's description in
// the catalogue is our guidance to the landlord and never goes into the
// document.
//
// Placeholders: {value} is the term's value formatted for the locale (an
// amount with its currency, a date, a number, the text as typed),
// {deposit} the contract's deposit as an amount (the parenthesis around it
// is left out when the contract has none), and {n:one|other} (uk:
// {n:one|few|many}) the form of a noun that agrees with the term's
// integer value.
type clause struct{ Value, Yes, No string }

// wordingOf is the block's lease wording in locale: the catalogue's
// printforms.clause.<CODE>.value, .yes and .no (modules/translations/locales;
// every block of modules/agreements/catalog/blocks.json has them in every
// supported locale, English where a locale lacks one). ok is false for a
// block without wording (one an administrator imported), which is printed
// as "<name>: <value>.".
func wordingOf(code, locale string) (clause, bool) {
	key := "printforms.clause." + code + "."
	value, v := translations.Text(locale, key+"value")
	yes, y := translations.Text(locale, key+"yes")
	no, n := translations.Text(locale, key+"no")
	return clause{Value: value, Yes: yes, No: no}, v || y || n
}

// pluralIndex is the CLDR plural category of n in locale as an index into
// a {n:...} choice: English, German and Spanish one|other (1 is one),
// French one|other (0 and 1 are one), Ukrainian one|few|many.
func pluralIndex(locale string, n int64) int {
	if n < 0 {
		n = -n
	}
	switch locale {
	case "fr":
		if n <= 1 {
			return 0
		}
		return 1
	case "uk":
		switch m10, m100 := n%10, n%100; {
		case m10 == 1 && m100 != 11:
			return 0
		case m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14):
			return 1
		default:
			return 2
		}
	}
	if n == 1 {
		return 0
	}
	return 1
}

// fill replaces the placeholders of text: vars by name ({value},
// {deposit}, ...), and each {n:a|b|c} by the form pluralIndex picks for
// n (the last form when the choice has fewer).
func fill(text, locale string, n int64, vars map[string]string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '{')
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		j := strings.IndexByte(text[i:], '}')
		if j < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		name := text[i+1 : i+j]
		switch {
		case strings.HasPrefix(name, "n:"):
			forms := strings.Split(name[2:], "|")
			k := min(pluralIndex(locale, n), len(forms)-1)
			b.WriteString(forms[k])
		default:
			if v, ok := vars[name]; ok {
				b.WriteString(v)
			} else {
				b.WriteString(text[i : i+j+1])
			}
		}
		text = text[i+j+1:]
	}
}

// intOf reads a term's integer value (0 when it is not one).
func intOf(raw []byte) int64 {
	n, _ := strconv.ParseInt(strings.TrimSpace(string(raw)), 10, 64)
	return n
}
