package receipts_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/testkit"
)

// Receipts are listed newest first (issued_at, then id, both descending):
// the cursor carries a timestamp, which must come back exactly on both
// engines, and receipts issued in the same instant keep their id order.
func TestReceiptCursors(t *testing.T) {
	app := testkit.Start(t)
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	u := accountstest.NewUser(t, app)
	prop := newProperty(t, app, u.Token)
	base := "/api/v1/properties/" + prop
	app.Post(base+"/charges", u.Token, map[string]any{"name": "Rent", "amount": 950, "due_date": "2026-11-03"}).Expect(http.StatusCreated)
	for i := range 7 {
		if i%3 == 0 {
			app.Clock.Advance(1234567 * time.Microsecond)
		}
		app.Post(base+"/payments", u.Token, map[string]any{"amount": 10, "method": "cash"}).Expect(http.StatusCreated)
	}
	var all receiptList
	app.Get(base+"/receipts?per_page=200", u.Token).Expect(http.StatusOK).JSON(&all)
	var want []string
	for _, r := range all.Receipts {
		want = append(want, r.ID)
	}
	if len(want) != 7 {
		t.Fatalf("%d receipts", len(want))
	}
	for _, per := range []int{1, 2, 3} {
		if got := app.Walk(base+"/receipts", u.Token, "receipts", per); !slices.Equal(got, want) {
			t.Fatalf("by %d: %v\nwant %v", per, got, want)
		}
	}
	if got := app.Walk(base+"/receipts?status=issued", u.Token, "receipts", 2); !slices.Equal(got, want) {
		t.Fatalf("issued: %v", got)
	}
}
