// Package tracking tells which carrier a parcel or letter number belongs to,
// from the carriers' published formats and check digits alone: no carrier
// is asked, so the answer is instant and works offline. A number that
// matches a format but whose check digit is wrong is refused, which catches
// most typing mistakes before a landlord files a useless number.
package tracking

import (
	"errors"
	"fmt"
	"strings"
)

// Carriers, as the API names them.
const (
	UPU         = "upu"         // a national post, UPU S10 (the country tells which)
	UPS         = "ups"         // UPS 1Z
	DHLExpress  = "dhl_express" // DHL Express waybill, 10 digits
	FedEx       = "fedex"       // FedEx Express (12) and Ground (15)
	NovaPoshta  = "nova_poshta" // Nova Poshta express waybill, 14 digits
	MaxInputLen = 64            // the longest number (with spaces) worth reading
)

// Result is what a number tells about itself.
type Result struct {
	// Number is the number without spaces and dashes, upper-cased.
	Number string
	// Carrier is one of the constants above.
	Carrier string
	// CarrierName is the carrier's name for people ("Deutsche Post", "UPS").
	CarrierName string
	// Format names the format recognised ("UPU S10", "UPS 1Z", ...).
	Format string
	// Country is the ISO 3166-1 alpha-2 country of origin when the format
	// carries it (UPU S10), else empty.
	Country string
	// Service is the UPU service indicator's meaning (registered letter,
	// EMS, parcel...) for S10 numbers, else empty.
	Service string
	// URL is the carrier's public tracking page for the number; empty when
	// no page is known (a national post not in the table).
	URL string
}

// ErrUnknown is a number that matches no format this package knows.
var ErrUnknown = errors.New("the number matches no known carrier format")

// CheckError is a number that has a carrier's format but not its check
// digit: most likely mistyped.
type CheckError struct{ Format string }

func (e *CheckError) Error() string {
	return fmt.Sprintf("the number has the %s format but its check digit is wrong", e.Format)
}

// Normalize drops spaces and dashes (printed labels group digits) and
// upper-cases. It returns "" when anything else than ASCII letters and
// digits remains or the input is longer than MaxInputLen.
func Normalize(s string) string {
	if len(s) > MaxInputLen {
		return ""
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '-':
		case c >= '0' && c <= '9', c >= 'A' && c <= 'Z':
			b.WriteByte(c)
		case c >= 'a' && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
		default:
			return ""
		}
	}
	return b.String()
}

// Identify recognises a tracking number. It returns ErrUnknown when no
// format fits, a *CheckError when a format fits but the check digit does
// not. The formats cannot overlap (lengths and letters differ), so at most
// one applies.
func Identify(number string) (Result, error) {
	n := Normalize(number)
	switch {
	case n == "":
		return Result{}, ErrUnknown
	case len(n) == 13 && isLetters(n[:2]) && isDigits(n[2:11]) && isLetters(n[11:]):
		return s10(n)
	case len(n) == 18 && n[:2] == "1Z" && isAlnum(n[2:]):
		if !upsValid(n) {
			return Result{}, &CheckError{Format: "UPS 1Z"}
		}
		return Result{Number: n, Carrier: UPS, CarrierName: "UPS", Format: "UPS 1Z",
			URL: "https://www.ups.com/track?tracknum=" + n}, nil
	case !isDigits(n):
		return Result{}, ErrUnknown
	case len(n) == 14 && (n[:2] == "20" || n[:2] == "59"):
		// Nova Poshta publishes no check digit: the prefix and the length
		// are the whole format.
		return Result{Number: n, Carrier: NovaPoshta, CarrierName: "Nova Poshta", Format: "Nova Poshta", Country: "UA",
			URL: "https://novaposhta.ua/tracking/?cargo_number=" + n}, nil
	case len(n) == 10:
		if !dhlValid(n) {
			return Result{}, &CheckError{Format: "DHL Express"}
		}
		return Result{Number: n, Carrier: DHLExpress, CarrierName: "DHL Express", Format: "DHL Express",
			URL: "https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=" + n}, nil
	case len(n) == 12 || len(n) == 15:
		format := "FedEx Express"
		ok := fedex12Valid(n)
		if len(n) == 15 {
			format, ok = "FedEx Ground", gs1Valid(n)
		}
		if !ok {
			return Result{}, &CheckError{Format: format}
		}
		return Result{Number: n, Carrier: FedEx, CarrierName: "FedEx", Format: format,
			URL: "https://www.fedex.com/fedextrack/?trknbr=" + n}, nil
	}
	return Result{}, ErrUnknown
}

// s10 reads a UPU S10 number: service indicator (2 letters), serial (8
// digits), check digit, ISO country of the post that issued it.
func s10(n string) (Result, error) {
	if !s10CheckOK(n[2:10], n[10]) || !isCountry(n[11:]) {
		return Result{}, &CheckError{Format: "UPU S10"}
	}
	r := Result{Number: n, Carrier: UPU, Format: "UPU S10", Country: n[11:], Service: s10Service(n[:2])}
	r.CarrierName = "National post (" + r.Country + ")"
	if p, ok := posts[r.Country]; ok {
		r.CarrierName = p.name
		r.URL = strings.ReplaceAll(p.url, "{n}", n)
	}
	return r, nil
}

// s10CheckOK: weights 8 6 4 2 3 5 9 7, check = 11 - sum mod 11, where 10
// becomes 0 and 11 becomes 5 (UPU S10, section 6).
func s10CheckOK(serial string, check byte) bool {
	weights := [8]int{8, 6, 4, 2, 3, 5, 9, 7}
	sum := 0
	for i := range 8 {
		sum += int(serial[i]-'0') * weights[i]
	}
	c := 11 - sum%11
	switch c {
	case 10:
		c = 0
	case 11:
		c = 5
	}
	return int(check-'0') == c
}

// s10Service names the service indicator's first letter (S10 Annex A).
func s10Service(ind string) string {
	switch ind[0] {
	case 'E':
		return "EMS"
	case 'R':
		return "registered letter"
	case 'V':
		return "insured letter"
	case 'C':
		return "parcel"
	case 'H':
		return "e-commerce parcel"
	case 'L':
		return "letter post express"
	case 'U':
		return "letter post"
	case 'M':
		return "M-bag"
	}
	return "domestic or bilateral"
}

// upsValid checks a 1Z number: the 15 characters after 1Z as digits
// (letters by (c-'A'+2) mod 10), odd positions once and even positions
// twice; the check digit brings the sum to a multiple of ten.
func upsValid(n string) bool {
	sum := 0
	for i := 2; i < 17; i++ {
		v := upsValue(n[i])
		if (i-2)%2 == 1 {
			v *= 2
		}
		sum += v
	}
	last := n[17]
	if last < '0' || last > '9' {
		return false
	}
	return (10-sum%10)%10 == int(last-'0')
}

func upsValue(c byte) int {
	if c >= '0' && c <= '9' {
		return int(c - '0')
	}
	return int(c-'A'+2) % 10
}

// dhlValid: the first nine digits as a number, modulo 7, are the tenth.
func dhlValid(n string) bool {
	rem := 0
	for i := range 9 {
		rem = (rem*10 + int(n[i]-'0')) % 7
	}
	return rem == int(n[9]-'0')
}

// fedex12Valid: weights 3 1 7 repeated over the first eleven digits, the
// sum modulo 11 and then modulo 10 is the twelfth.
func fedex12Valid(n string) bool {
	weights := [3]int{3, 1, 7}
	sum := 0
	for i := range 11 {
		sum += int(n[i]-'0') * weights[i%3]
	}
	return sum%11%10 == int(n[11]-'0')
}

// gs1Valid is the GS1 mod-10 check (FedEx Ground 15 digits): from the
// right of the data digits, weights 3 1 3 1 ...
func gs1Valid(n string) bool {
	sum, w := 0, 3
	for i := len(n) - 2; i >= 0; i-- {
		sum += int(n[i]-'0') * w
		w = 4 - w
	}
	return (10-sum%10)%10 == int(n[len(n)-1]-'0')
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return s != ""
}

func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if (s[i] < 'A' || s[i] > 'Z') && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}
