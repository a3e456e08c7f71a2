package tracking_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/propman/propman/platform/tracking"
)

// The valid numbers are the carriers' and the UPU's published examples (UPU
// S10 standard: AA473124829GB; UPS's developer guide: 1Z5R89390357567127 and
// others; DHL's and FedEx's sample waybills as collected in the
// tracking_number_data project); each invalid one is a valid one with one
// character changed, so only the check digit can refuse it.
func TestPublishedNumbers(t *testing.T) {
	valid := []struct{ number, carrier, country, url string }{
		{"AA473124829GB", tracking.UPU, "GB", "https://www.royalmail.com/track-your-item#/tracking-results/AA473124829GB"},
		{"RB123456785GB", tracking.UPU, "GB", ""},
		{"RB123456785US", tracking.UPU, "US", "https://tools.usps.com/go/TrackConfirmAction?tLabels=RB123456785US"},
		{"rr 123 456 785 de", tracking.UPU, "DE", "https://www.deutschepost.de/de/s/sendungsverfolgung.html?piececode=RR123456785DE"},
		{"RB123456785CF", tracking.UPU, "CF", ""},
		{"CP123456785UA", tracking.UPU, "UA", "https://track.ukrposhta.ua/tracking_UA.html?barcode=CP123456785UA"},
		{"1Z5R89390357567127", tracking.UPS, "", "https://www.ups.com/track?tracknum=1Z5R89390357567127"},
		{"1Z879E930346834440", tracking.UPS, "", ""},
		{"1Z410E7W0392751591", tracking.UPS, "", ""},
		{"1Z8V92A70367203024", tracking.UPS, "", ""},
		{"1Z999AA10123456784", tracking.UPS, "", ""},
		{"3318810025", tracking.DHLExpress, "", "https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=3318810025"},
		{"8487135506", tracking.DHLExpress, "", ""},
		{"1099255990", tracking.DHLExpress, "", ""},
		{"3821724944", tracking.DHLExpress, "", ""},
		{"986578788855", tracking.FedEx, "", "https://www.fedex.com/fedextrack/?trknbr=986578788855"},
		{"477179081230", tracking.FedEx, "", ""},
		{"7995-3127-4483", tracking.FedEx, "", ""},
		{"0414 4176 0228 964", tracking.FedEx, "", ""},
		{"568283610012000", tracking.FedEx, "", ""},
		{"20450123456789", tracking.NovaPoshta, "UA", "https://novaposhta.ua/tracking/?cargo_number=20450123456789"},
		{"59000123456789", tracking.NovaPoshta, "UA", ""},
	}
	for _, c := range valid {
		r, err := tracking.Identify(c.number)
		if err != nil {
			t.Errorf("%q: %v", c.number, err)
			continue
		}
		if r.Carrier != c.carrier || r.Country != c.country || (c.url != "" && r.URL != c.url) {
			t.Errorf("%q: %+v", c.number, r)
		}
		if r.Carrier != tracking.UPU && r.URL == "" {
			t.Errorf("%q: no URL", c.number)
		}
	}
	checks := []string{
		"AA473124828GB",      // S10 check digit
		"RB123456786US",      // S10 check digit
		"RB123456785XX",      // S10: no such country
		"1Z5R89390357567128", // UPS check digit
		"1Z1111111111111111", // UPS check digit
		"3318810010",         // DHL
		"3318810034",         // DHL
		"996578788855",       // FedEx 12
		"568283610012732",    // FedEx 15
	}
	for _, n := range checks {
		_, err := tracking.Identify(n)
		var ce *tracking.CheckError
		if !errors.As(err, &ce) {
			t.Errorf("%q: %v, want a check digit error", n, err)
		}
	}
	unknown := []string{"", "   ", "RR 1234 5678 DE", "2Z5R89390357567127", "12345", "1234567890123456789",
		"21450123456789", "AB12345678GB", "RB12345678-5G", "<script>", "ÄÖ123456785DE", strings.Repeat("1", 65)}
	for _, n := range unknown {
		if _, err := tracking.Identify(n); !errors.Is(err, tracking.ErrUnknown) {
			t.Errorf("%q: %v, want unknown", n, err)
		}
	}
}

func FuzzIdentify(f *testing.F) {
	for _, s := range []string{"AA473124829GB", "1Z5R89390357567127", "3318810025", "986578788855", "20450123456789", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := tracking.Identify(s)
		if err == nil && (r.Number == "" || r.Carrier == "") {
			t.Fatalf("%q: %+v", s, r)
		}
	})
}
