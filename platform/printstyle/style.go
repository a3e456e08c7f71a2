// Package printstyle is how each locale writes amounts, numbers, dates and
// billing periods in what a person reads: letters, PDFs, mails and
// spreadsheets. Every module that writes for a reader uses it, so a mail
// and the receipt attached to it write a figure the same way.
package printstyle

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// nbsp is the no-break space: French and Ukrainian group digits with it, and
// it joins an amount to its currency so that a line never breaks between
// them.
const nbsp = "\u00a0"

// Style is how one locale writes numbers and dates.
type Style struct {
	group   string // between groups of three digits
	decimal string // before the decimals
	// date is a time layout for a calendar day.
	date string
	// percent follows a percentage: "%" or nbsp+"%".
	percent string
	// month is a layout for a billing month (YYYY-MM), quarter the format
	// of a quarter (%d is the quarter, %s the year).
	month string
	// signFirst writes a currency sign before the amount (English).
	signFirst bool
	// hryvnia writes UAH as "грн" (Ukrainian).
	hryvnia bool
	// months are the months' names where a letter names a month in words
	// (an index's month), quarter a quarter's (%d the quarter, %d the
	// year); without them the month is written as in a billing period.
	months  []string
	quarter string
	// colon ends a label before its value: French puts a no-break space
	// before it.
	colon string
}

// styles are the locales' formats. Dates: ISO 8601 in English (no month
// names to translate, unambiguous for readers on both sides of the
// Atlantic), day.month.year in German and Ukrainian, day/month/year in
// French and Spanish. Amounts: two decimals always, the currency code
// after the number.
var styles = map[string]Style{
	"en": {group: ",", decimal: ".", date: "2006-01-02", percent: "%", month: "2006-01", signFirst: true, colon: ":", quarter: "Q%d %d",
		months: []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}},
	"de": {group: ".", decimal: ",", date: "02.01.2006", percent: nbsp + "%", month: "01.2006", colon: ":", quarter: "%d. Quartal %d",
		months: []string{"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"}},
	"fr": {group: nbsp, decimal: ",", date: "02/01/2006", percent: nbsp + "%", month: "01/2006", colon: nbsp + ":", quarter: "%de trimestre %d",
		months: []string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}},
	"es": {group: ".", decimal: ",", date: "02/01/2006", percent: nbsp + "%", month: "01/2006", colon: ":", quarter: "%dT %d",
		months: []string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"}},
	// Ukrainian names a month in a case the sentence decides: the
	// numeric month reads right in any.
	"uk": {group: nbsp, decimal: ",", date: "02.01.2006", percent: nbsp + "%", month: "01.2006", hryvnia: true, colon: ":", quarter: "%d квартал %d"},
}

// Of is the format of locale; a language without one of its own (an
// operator may activate more) is written the English way.
func Of(locale string) Style {
	if s, ok := styles[locale]; ok {
		return s
	}
	return styles["en"]
}

// grouped writes the decimal digits of n (n >= 0) in groups of three.
func (s Style) grouped(digits string) string {
	if len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	head := len(digits) % 3
	if head > 0 {
		b.WriteString(digits[:head])
	}
	for i := head; i < len(digits); i += 3 {
		if b.Len() > 0 {
			b.WriteString(s.group)
		}
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

// Money writes an amount with two decimals and its currency: the sign of
// a currency that has a well-known one (€, £, $; грн in Ukrainian),
// before the number in English ("€1,234.50") and after it elsewhere
// ("1.234,50 €" in German and Spanish, "1 234,50 €" in French and
// Ukrainian, with no-break spaces), as each language writes money in a
// contract; any other currency by its ISO code after the number
// ("1,234.50 CHF").
func (s Style) Money(a money.Amount, currency string) string {
	n := int64(a)
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	num := s.grouped(strconv.FormatInt(n/100, 10)) + s.decimal + twoDigits(n%100)
	symbol, known := currencySign(s, currency)
	switch {
	case currency == "":
		return sign + num
	case known && s.signFirst:
		return sign + symbol + num
	default:
		return sign + num + nbsp + symbol
	}
}

// currencySign is how the locale writes currency: a sign, or the code.
func currencySign(s Style, currency string) (string, bool) {
	switch currency {
	case "EUR":
		return "€", true
	case "GBP":
		return "£", true
	case "USD":
		return "$", true
	case "UAH":
		if s.hryvnia {
			return "грн", false // written after the number, as Ukrainians do
		}
	}
	return currency, false
}

func twoDigits(n int64) string {
	if n < 10 {
		return "0" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}

// Int writes a whole number with the locale's groups.
func (s Style) Int(n int64) string {
	if n < 0 {
		return "-" + s.grouped(strconv.FormatInt(-n, 10))
	}
	return s.grouped(strconv.FormatInt(n, 10))
}

// Decimal writes a JSON number as the locale does, keeping its decimals
// (5.5 is "5,5" in German); text that is not a plain decimal number is
// returned as it is.
func (s Style) Decimal(num string) string {
	num = strings.TrimSpace(num)
	if _, err := strconv.ParseFloat(num, 64); err != nil || strings.ContainsAny(num, "eE") {
		return num
	}
	sign := ""
	if strings.HasPrefix(num, "-") {
		sign, num = "-", num[1:]
	}
	whole, frac, _ := strings.Cut(num, ".")
	out := sign + s.grouped(whole)
	if frac != "" {
		out += s.decimal + frac
	}
	return out
}

// Percent writes a percentage: "5.5%" (en), "5,5 %" (others).
func (s Style) Percent(num string) string { return s.Decimal(num) + s.percent }

// Date writes a calendar day.
func (s Style) Date(d period.Date) string {
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC).Format(s.date)
}

// Period writes a billing period label: a month (YYYY-MM) in the
// locale's order, a quarter (YYYY-Qn) as "Qn YYYY", a year as it is;
// anything else is returned as it is.
func (s Style) Period(label string) string {
	if !period.ValidLabel(label) {
		return label
	}
	switch {
	case len(label) == 7 && label[5] == 'Q':
		return label[5:] + " " + label[:4]
	case len(label) == 7:
		t, err := time.Parse("2006-01", label)
		if err != nil {
			return label
		}
		return t.Format(s.month)
	}
	return label
}

// Named writes a month (YYYY-MM) or quarter (YYYY-Qn) in words, as a
// letter that cites an index's month does ("Oktober 2025", "3e trimestre
// 2025"); anything else as Period does.
func (s Style) Named(label string) string {
	if !period.ValidLabel(label) || len(label) != 7 {
		return s.Period(label)
	}
	year, err := strconv.Atoi(label[:4])
	if err != nil {
		return s.Period(label)
	}
	if label[5] == 'Q' && s.quarter != "" {
		return fmt.Sprintf(s.quarter, int(label[6]-'0'), year)
	}
	month, err := strconv.Atoi(label[5:])
	if label[5] == 'Q' || err != nil || len(s.months) != 12 || month < 1 || month > 12 {
		return s.Period(label)
	}
	return s.months[month-1] + " " + label[:4]
}

// Colon is what ends a label before its value: French puts a no-break
// space before it.
func (s Style) Colon() string { return s.colon }
