package contracts_test

import (
	"fmt"
	"net/http"
	"testing"
)

// The deposit comes from the generic blocks or from the country's own, an
// amount before a number of months and the generic block before a
// country's; activation bills exactly that deposit.
func TestDepositFromGenericAndCountryBlocks(t *testing.T) {
	f := start(t)
	cases := []struct {
		name    string
		country string
		terms   []term
		want    any // float64 in the body, nil for none
	}{
		{"no deposit block", "DE", nil, nil},
		{"DEPOSIT_AMOUNT", "DE", []term{{"DEPOSIT_AMOUNT", 1500}}, 1500.0},
		{"DEPOSIT_MONTHS", "DE", []term{{"DEPOSIT_MONTHS", 2}}, 1601.0},
		{"amount before months", "DE", []term{{"DEPOSIT_MONTHS", 2}, {"DEPOSIT_AMOUNT", 99.99}}, 99.99},
		{"DE_KAUTION_MONTHS", "DE", []term{{"DE_KAUTION_MONTHS", 3}}, 2401.5},
		{"generic months before the Kaution", "DE", []term{{"DE_KAUTION_MONTHS", 3}, {"DEPOSIT_MONTHS", 1}}, 800.5},
		{"FR_DEPOT_GARANTIE_MONTHS", "FR", []term{{"FR_DEPOT_GARANTIE_MONTHS", 1}}, 800.5},
		{"ES_FIANZA_MONTHS", "ES", []term{{"ES_FIANZA_MONTHS", 2}}, 1601.0},
		{"UA_SECURITY_PAYMENT_AMOUNT", "UA", []term{{"UA_SECURITY_PAYMENT_AMOUNT", 12000}}, 12000.0},
		{"UA amount before generic months", "UA", []term{{"DEPOSIT_MONTHS", 2}, {"UA_SECURITY_PAYMENT_AMOUNT", 700}}, 700.0},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := f
			g.property = newProperty(t, f.app, f.user.Token, tc.country)
			terms := append([]term{{"MONTHLY_RENT_AMOUNT", 800.5}, {"CONTRACT_START_DATE", "2026-12-01"}}, tc.terms...)
			c := g.create(t, fmt.Sprintf("D-%d", i), terms...)
			if c.Deposit != tc.want {
				t.Fatalf("deposit %v, want %v", c.Deposit, tc.want)
			}
			f.app.Post(base+"/"+c.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
			deposits := 0
			for _, ch := range g.charges(t, "?contract_id="+c.ID).Charges {
				if ch.Name == "Deposit" {
					deposits++
					if ch.Amount != tc.want {
						t.Fatalf("deposit charge %v, want %v", ch.Amount, tc.want)
					}
				}
			}
			if want := map[bool]int{true: 0, false: 1}[tc.want == nil]; deposits != want {
				t.Fatalf("%d deposit charges, want %d", deposits, want)
			}
		})
	}
}
