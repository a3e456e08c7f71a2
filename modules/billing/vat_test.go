package billing

import (
	"testing"

	"github.com/propman/propman/platform/money"
)

func TestVATIDFormats(t *testing.T) {
	for _, tt := range []struct {
		country, id string
		ok          bool
	}{
		{"DE", "DE123456789", true}, {"DE", "DE12345678", false}, {"DE", "123456789", false},
		{"AT", "ATU12345678", true}, {"AT", "AT12345678", false},
		{"GR", "EL123456789", true}, {"GR", "GR123456789", false},
		{"NL", "NL123456789B01", true}, {"NL", "NL123456789", false},
		{"FR", "FRXX123456789", true}, {"FR", "FR12345678", false},
		{"ES", "ESX1234567X", true}, {"IE", "IE1234567WA", true},
		{"US", "US123456789", false}, {"DE", "", false},
	} {
		if got := ValidVATID(tt.country, NormalizeVATID(tt.id)); got != tt.ok {
			t.Errorf("ValidVATID(%s, %s) = %v, want %v", tt.country, tt.id, got, tt.ok)
		}
	}
	if got := NormalizeVATID(" de 123.456-789 "); got != "DE123456789" {
		t.Errorf("NormalizeVATID: %q", got)
	}
}

func TestVATTreatment(t *testing.T) {
	for _, tt := range []struct {
		country, vatID string
		want           vatTreatment
	}{
		{"DE", "", vatTreatment{RateBP: 1900}},
		{"DE", "DE123456789", vatTreatment{RateBP: 1900}},        // domestic: never reverse-charged
		{"AT", "ATU12345678", vatTreatment{ReverseCharge: true}}, // EU business elsewhere
		{"AT", "ATU1234", vatTreatment{RateBP: 2000}},            // a malformed id: the customer's rate
		{"FI", "", vatTreatment{RateBP: 2550}},                   // EU consumer: their country's rate
		{"CH", "CHE123456789", vatTreatment{OutsideEU: true}},    // outside the EU
	} {
		if got := treatment("DE", tt.country, tt.vatID); got != tt.want {
			t.Errorf("treatment(DE, %s, %q) = %+v, want %+v", tt.country, tt.vatID, got, tt.want)
		}
	}
	for _, tt := range []struct {
		net  money.Amount
		rate int64
		vat  money.Amount
	}{{1960, 1900, 372}, {490, 1900, 93}, {470, 1900, 89}, {1000, 2550, 255}, {1, 1900, 0}, {3, 1900, 1}} {
		if got := vatOf(tt.net, tt.rate); got != tt.vat {
			t.Errorf("vatOf(%d, %d) = %d, want %d", tt.net, tt.rate, got, tt.vat)
		}
	}
	if rateString(2550) != "25.5" || rateString(1900) != "19" || rateString(0) != "0" {
		t.Errorf("rateString: %s %s %s", rateString(2550), rateString(1900), rateString(0))
	}
}
