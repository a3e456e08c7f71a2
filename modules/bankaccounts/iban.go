package bankaccounts

import (
	"strconv"
	"strings"
)

// ibanLengths is the length of an IBAN in each country of the SWIFT IBAN
// registry (ISO 13616): a country not listed has no IBAN, and an IBAN of
// another length is mistyped even when its check digits happen to fit.
var ibanLengths = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BI": 27,
	"BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28,
	"EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
	"GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27,
	"JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25,
	"MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18,
	"NO": 15, "OM": 23, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33,
	"SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28,
	"TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}

// NormalizeIBAN returns s without spaces and in upper case, as an IBAN is
// stored and compared, and a reason for a client when it is no IBAN: not
// letters and digits, a country without IBANs, the wrong length for its
// country, or check digits that fail ISO 7064 mod 97-10.
func NormalizeIBAN(s string) (string, string) {
	iban := strings.ToUpper(strings.Join(strings.Fields(s), ""))
	if iban == "" {
		return "", "is required"
	}
	for i, r := range iban {
		letter, digit := r >= 'A' && r <= 'Z', r >= '0' && r <= '9'
		switch {
		case i < 2 && !letter, i >= 2 && i < 4 && !digit, !letter && !digit:
			return "", "must be an IBAN: two letters of the country, two check digits, then letters and digits"
		}
	}
	if len(iban) < 5 {
		return "", "must be an IBAN: two letters of the country, two check digits, then letters and digits"
	}
	want, ok := ibanLengths[iban[:2]]
	if !ok {
		return "", "must be an IBAN of a country that uses IBANs (" + iban[:2] + " does not)"
	}
	if len(iban) != want {
		return "", "must have " + strconv.Itoa(want) + " characters for an IBAN of " + iban[:2] + " (has " + strconv.Itoa(len(iban)) + ")"
	}
	if mod97(iban[4:]+iban[:4]) != 1 {
		return "", "has wrong check digits: please check the IBAN for a typing error"
	}
	return iban, ""
}

// mod97 is s read as the decimal number ISO 13616 makes of it (A=10 ...
// Z=35) modulo 97, digit by digit so that no number grows past an int.
func mod97(s string) int {
	n := 0
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			v := int(r-'A') + 10
			n = (n*100 + v) % 97
		} else {
			n = (n*10 + int(r-'0')) % 97
		}
	}
	return n
}

// GroupIBAN writes iban in groups of four characters, as it is printed
// and read out (DE89 3704 0044 0532 0130 00).
func GroupIBAN(iban string) string {
	var b strings.Builder
	for i, r := range iban {
		if i > 0 && i%4 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// NormalizeBIC returns s without spaces and in upper case, and a reason
// for a client when it is not of the shape ISO 9362 gives a BIC: four
// letters (the institution), two letters (the country), two letters or
// digits (the location) and optionally three letters or digits (the
// branch).
func NormalizeBIC(s string) (string, string) {
	bic := strings.ToUpper(strings.Join(strings.Fields(s), ""))
	if len(bic) != 8 && len(bic) != 11 {
		return "", "must be a BIC of 8 or 11 characters (e.g. COBADEFFXXX)"
	}
	for i, r := range bic {
		letter, digit := r >= 'A' && r <= 'Z', r >= '0' && r <= '9'
		if (i < 6 && !letter) || (i >= 6 && !letter && !digit) {
			return "", "must be a BIC: 4 letters of the bank, 2 letters of the country, 2 letters or digits of the place, optionally 3 of the branch"
		}
	}
	return bic, ""
}
