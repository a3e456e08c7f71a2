package contracts_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// twentyTerms are 20 valid terms of a German property.
func twentyTerms() []term {
	return []term{
		{"MONTHLY_RENT_AMOUNT", 950}, {"CONTRACT_START_DATE", "2026-11-01"}, {"CONTRACT_END_DATE", "2027-10-31"},
		{"PAYMENT_DAY_OF_MONTH", 3}, {"DEPOSIT_MONTHS", 3}, {"UTILITY_PREPAYMENT_AMOUNT", 180.5},
		{"MINIMUM_LEASE_TERM_MONTHS", 12}, {"NOTICE_PERIOD_DAYS", 90}, {"UTILITIES_INCLUDED", false},
		{"LATE_FEE_PERCENTAGE", 1.5}, {"RENT_INDEXATION", true}, {"PETS_ALLOWED", true}, {"SMOKING_ALLOWED", false},
		{"SUBLETTING_ALLOWED", false}, {"MAXIMUM_OCCUPANTS", 3}, {"FURNISHED", true}, {"KEYS_HANDED_OVER", 4},
		{"INVENTORY_LIST", "Kitchen, wardrobe"}, {"DE_KAUTION_MONTHS", 3}, {"DE_STAFFELMIETE", false},
	}
}

// BenchmarkActivate20Terms creates and activates a contract with 20 terms
// per iteration, each on its own property (no overlap): creation checks the
// terms, activation writes two expenses and the deposit in one transaction.
func BenchmarkActivate20Terms(b *testing.B) {
	f := start(b)
	terms := twentyTerms()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		f.property = newProperty(b, f.app, f.user.Token, "DE")
		b.StartTimer()
		var c contract
		f.app.Post(base, f.user.Token, f.body(fmt.Sprintf("B-%d", i), terms...)).Expect(http.StatusCreated).JSON(&c)
		if res := f.app.Post(base+"/"+c.ID+"/activate", f.user.Token, nil); res.Status != http.StatusOK {
			b.Fatalf("activate: %d %s", res.Status, res.String())
		}
	}
}

// BenchmarkList1000 lists 1,000 contracts of one owner, 200 per page (the
// first page), against a bare Fiber handler sending the same bytes.
func BenchmarkList1000(b *testing.B) {
	f := start(b)
	terms := twentyTerms()
	for i := 0; i < 1000; i++ {
		f.app.Post(base, f.user.Token, f.body(fmt.Sprintf("L-%d", i), terms...)).Expect(http.StatusCreated)
	}
	testkit.BenchAgainstBare(b, f.app, "list", base+"?per_page=200", f.user.Token)
}
