package billing

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/propman/propman/platform/money"
)

// standardRates are the EU member states' standard VAT rates in basis
// points (1900 = 19 %), as published by the European Commission for 2026.
var standardRates = map[string]int64{
	"AT": 2000, "BE": 2100, "BG": 2000, "HR": 2500, "CY": 1900, "CZ": 2100, "DK": 2500, "EE": 2400,
	"FI": 2550, "FR": 2000, "DE": 1900, "GR": 2400, "HU": 2700, "IE": 2300, "IT": 2200, "LV": 2100,
	"LT": 2100, "LU": 1700, "MT": 1800, "NL": 2100, "PL": 2300, "PT": 2300, "RO": 2100, "SK": 2300,
	"SI": 2200, "ES": 2100, "SE": 2500,
}

// vatIDFormats are the formats of each member state's VAT identification
// number after its prefix (Greece's prefix is EL), as the Commission's
// VIES describes them. Only the format is checked: whether the number is
// registered is VIES's to say, which this service does not ask.
var vatIDFormats = map[string]*regexp.Regexp{
	"AT": regexp.MustCompile(`^U\d{8}$`),
	"BE": regexp.MustCompile(`^[01]\d{9}$`),
	"BG": regexp.MustCompile(`^\d{9,10}$`),
	"HR": regexp.MustCompile(`^\d{11}$`),
	"CY": regexp.MustCompile(`^\d{8}[A-Z]$`),
	"CZ": regexp.MustCompile(`^\d{8,10}$`),
	"DK": regexp.MustCompile(`^\d{8}$`),
	"EE": regexp.MustCompile(`^\d{9}$`),
	"FI": regexp.MustCompile(`^\d{8}$`),
	"FR": regexp.MustCompile(`^[0-9A-HJ-NP-Z]{2}\d{9}$`),
	"DE": regexp.MustCompile(`^\d{9}$`),
	"GR": regexp.MustCompile(`^\d{9}$`),
	"HU": regexp.MustCompile(`^\d{8}$`),
	"IE": regexp.MustCompile(`^(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$`),
	"IT": regexp.MustCompile(`^\d{11}$`),
	"LV": regexp.MustCompile(`^\d{11}$`),
	"LT": regexp.MustCompile(`^(\d{9}|\d{12})$`),
	"LU": regexp.MustCompile(`^\d{8}$`),
	"MT": regexp.MustCompile(`^\d{8}$`),
	"NL": regexp.MustCompile(`^\d{9}B\d{2}$`),
	"PL": regexp.MustCompile(`^\d{10}$`),
	"PT": regexp.MustCompile(`^\d{9}$`),
	"RO": regexp.MustCompile(`^\d{2,10}$`),
	"SK": regexp.MustCompile(`^\d{10}$`),
	"SI": regexp.MustCompile(`^\d{8}$`),
	"ES": regexp.MustCompile(`^[0-9A-Z]\d{7}[0-9A-Z]$`),
	"SE": regexp.MustCompile(`^\d{12}$`),
}

// vatPrefix is the prefix of a country's VAT ids.
func vatPrefix(country string) string {
	if country == "GR" {
		return "EL"
	}
	return country
}

// NormalizeVATID upper-cases id and drops spaces, dots and dashes.
func NormalizeVATID(id string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '.', '-':
			return -1
		}
		if r >= 'a' && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, id)
}

// ValidVATID reports whether id (normalized) has the format of a VAT id of
// country, prefix included.
func ValidVATID(country, id string) bool {
	f, ok := vatIDFormats[country]
	p := vatPrefix(country)
	return ok && strings.HasPrefix(id, p) && f.MatchString(id[len(p):])
}

// vatTreatment is how an invoice to a customer is taxed.
type vatTreatment struct {
	RateBP        int64 // basis points
	ReverseCharge bool
	// OutsideEU: a customer outside the EU, no EU VAT charged.
	OutsideEU bool
}

// treatment decides the VAT of a service from an issuer in issuerCountry
// to a customer in country with vatID (normalized, "" for none): domestic
// customers pay the issuer's rate; an EU business elsewhere with a VAT id
// of its country's format is reverse-charged (0 %, the customer accounts
// for it); other EU customers pay their own country's rate (the one-stop
// shop rule for electronically supplied services); customers outside the
// EU pay none.
func treatment(issuerCountry, country, vatID string) vatTreatment {
	if country == issuerCountry {
		return vatTreatment{RateBP: standardRates[country]}
	}
	rate, eu := standardRates[country]
	if !eu {
		return vatTreatment{OutsideEU: true}
	}
	if vatID != "" && ValidVATID(country, vatID) {
		return vatTreatment{ReverseCharge: true}
	}
	return vatTreatment{RateBP: rate}
}

// vatOf is the VAT of net at rate (basis points), rounded half up to the
// cent.
func vatOf(net money.Amount, rateBP int64) money.Amount {
	v := int64(net) * rateBP
	if v >= 0 {
		return money.Amount((v + 5000) / 10000)
	}
	return -money.Amount((-v + 5000) / 10000)
}

// rateString writes a rate in basis points as a percentage ("19", "25.5").
func rateString(bp int64) string {
	s := strconv.FormatInt(bp/100, 10)
	if frac := bp % 100; frac != 0 {
		f := strconv.FormatInt(100+frac, 10)[1:]
		s += "." + strings.TrimRight(f, "0")
	}
	return s
}
