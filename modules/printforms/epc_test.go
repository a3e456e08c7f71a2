package printforms

import (
	"strings"
	"testing"

	"github.com/propman/propman/platform/money"
)

// The EPC payload's rules that the notices' end-to-end test does not
// reach: no code outside the euro or without an account, the amount's
// bounds, and the name's and reference's lengths.
func TestEPCPayloadRules(t *testing.T) {
	bank := &Bank{Holder: "Anna Schmidt", IBAN: "DE89370400440532013000", Currency: "EUR"}
	if _, ok := EPCPayload(nil, 95000, "EUR", "x"); ok {
		t.Error("a code without an account")
	}
	if _, ok := EPCPayload(bank, 95000, "GBP", "x"); ok {
		t.Error("a code for pounds")
	}
	if _, ok := EPCPayload(&Bank{Holder: "A", IBAN: "GB29NWBK60161331926819", Currency: "GBP"}, 95000, "EUR", "x"); ok {
		t.Error("a code to an account kept in pounds")
	}
	for _, tc := range []struct {
		amount money.Amount
		want   string
	}{{1, "EUR0.01"}, {95000, "EUR950.00"}, {99999999999, "EUR999999999.99"}, {0, ""}, {-500, ""}, {100000000000, ""}} {
		p, ok := EPCPayload(bank, tc.amount, "eur", "Miete 12/2026 Vertrag 1")
		if !ok {
			t.Fatalf("%d: no code", tc.amount)
		}
		if got := strings.Split(p, "\n")[7]; got != tc.want {
			t.Errorf("amount %d: %q, want %q", tc.amount, got, tc.want)
		}
	}
	long := &Bank{Holder: strings.Repeat("Ä", 80), IBAN: "de89 3704 0044 0532 0130 00", BIC: "cobadeff"}
	p, _ := EPCPayload(long, 100, "EUR", strings.Repeat("x", 150))
	lines := strings.Split(p, "\n")
	if len([]rune(lines[5])) != 70 || len([]rune(lines[10])) != 140 || lines[6] != "DE89370400440532013000" || lines[4] != "COBADEFF" {
		t.Errorf("payload %q", p)
	}
}
