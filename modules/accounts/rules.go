package accounts

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/propman/propman/modules/accounts/passwords"
	"github.com/propman/propman/modules/reference"
)

// Field rules shared by registration, the profile and operators' commands.
const (
	nameMin     = 2
	nameMax     = 100
	emailMax    = 254
	passwordMin = 8
	passwordMax = 128

	// A postal address has the bounds of a property's (modules/properties).
	AddressMax    = 500
	PostalCodeMax = 20
	CityMax       = 100
)

var (
	phonePattern = regexp.MustCompile(`^\+[1-9][0-9]{6,14}$`)
	// Postal codes of the world are letters, digits, spaces and hyphens
	// ("10115", "SW1A 1AA", "00-950", "D02 X285").
	postalCodePattern = regexp.MustCompile(`^[\p{L}\p{N}]+([ -][\p{L}\p{N}]+)*$`)
	rolePattern       = regexp.MustCompile(`^ROLE_[A-Z][A-Z0-9_]{0,40}$`)
)

// NormalizeEmail trims and lower-cases an address: emails are compared and
// stored that way.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// rules checks fields against the reference data and collects one message
// per broken rule.
type rules struct {
	dir     *reference.Directory
	details []string
}

func (r *rules) fail(msg string) { r.details = append(r.details, msg) }

func (r *rules) err() error {
	if len(r.details) == 0 {
		return nil
	}
	return &FieldError{Details: r.details}
}

// name checks a trimmed display name.
func (r *rules) name(field, name string) {
	n := utf8.RuneCountInString(name)
	switch {
	case name == "":
		r.fail(field + ": is required")
	case n < nameMin || n > nameMax:
		r.fail(field + ": must be 2 to 100 characters")
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		r.fail(field + ": must not contain control characters")
	}
}

// email checks a normalised address.
func (r *rules) email(field, email string) {
	switch {
	case email == "":
		r.fail(field + ": is required")
	case len(email) > emailMax:
		r.fail(field + ": must be at most 254 characters")
	case !ValidEmail(email):
		r.fail(field + ": must be a valid email address")
	}
}

// ValidEmail accepts local@domain with a dotted domain and no spaces or
// control characters: strict enough to route mail, loose enough for real
// addresses. Every module that takes an address checks it with this.
func ValidEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	if at < 1 || at > 64 || at == len(s)-1 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if strings.ContainsAny(s, " \t\r\n<>()[],;:\\\"") || strings.Contains(local, "@") {
		return false
	}
	if !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return false
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || strings.HasPrefix(l, "-") || strings.HasSuffix(l, "-") {
			return false
		}
	}
	return !strings.HasPrefix(local, ".") && !strings.HasSuffix(local, ".") && !strings.Contains(local, "..")
}

// password checks a new password as received: no trimming.
func (r *rules) password(field, pw string) {
	n := utf8.RuneCountInString(pw)
	if pw == "" {
		r.fail(field + ": is required")
		return
	}
	if n < passwordMin || n > passwordMax {
		r.fail(field + ": must be 8 to 128 characters")
	}
	var upper, lower, digit bool
	for _, c := range pw {
		upper = upper || unicode.IsUpper(c)
		lower = lower || unicode.IsLower(c)
		digit = digit || unicode.IsDigit(c)
	}
	if !upper || !lower || !digit {
		r.fail(field + ": must contain an upper-case letter, a lower-case letter and a digit")
	}
	if passwords.IsCommon(pw) {
		r.fail(field + ": is one of the most common passwords; choose another")
	}
}

// country checks a code and returns it upper-cased.
func (r *rules) country(field, code string) string {
	if code == "" {
		r.fail(field + ": is required")
		return ""
	}
	if len(code) != 2 {
		r.fail(field + ": must be exactly 2 characters")
		return ""
	}
	c, ok := r.dir.Country(code)
	if !ok {
		r.fail(field + ": is not an active country code")
		return ""
	}
	return c.Code
}

// locale checks an optional language code and returns it lower-cased.
func (r *rules) locale(field, code string) string {
	if len(code) > 8 {
		r.fail(field + ": is not an active language code")
		return ""
	}
	l, ok := r.dir.Language(code)
	if !ok {
		r.fail(field + ": is not an active language code")
		return ""
	}
	return l.Code
}

// phone checks an E.164 number.
func (r *rules) phone(field, phone string) {
	if !phonePattern.MatchString(phone) {
		r.fail(field + ": must be an international number in E.164 form, such as +4915112345678")
	}
}

// postalAddress checks a whole postal address (address, city and country
// required, postal code optional) and returns it trimmed, with the country
// upper-cased. Fields are named field.address, field.city, ...
func (r *rules) postalAddress(field string, a PostalAddress) PostalAddress {
	out := PostalAddress{
		Address: strings.TrimSpace(a.Address), PostalCode: strings.TrimSpace(a.PostalCode),
		City: strings.TrimSpace(a.City),
	}
	r.line(field+".address", out.Address, AddressMax, true)
	if r.line(field+".postal_code", out.PostalCode, PostalCodeMax, false) && out.PostalCode != "" &&
		!postalCodePattern.MatchString(out.PostalCode) {
		r.fail(field + ".postal_code: must be letters and digits, separated by single spaces or hyphens")
	}
	r.line(field+".city", out.City, CityMax, true)
	out.CountryCode = r.country(field+".country_code", strings.TrimSpace(a.CountryCode))
	return out
}

// line checks one line of trimmed text of at most maxLen characters and
// reports whether it passed.
func (r *rules) line(field, s string, maxLen int, required bool) bool {
	switch {
	case s == "" && required:
		r.fail(field + ": is required")
	case utf8.RuneCountInString(s) > maxLen:
		r.fail(field + ": must be at most " + strconv.Itoa(maxLen) + " characters")
	case !utf8.ValidString(s):
		r.fail(field + ": must be valid UTF-8")
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		r.fail(field + ": must be one line without control characters")
	default:
		return true
	}
	return false
}
