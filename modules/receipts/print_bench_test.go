package receipts_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/uuid"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/platform/period"
	"github.com/propman/propman/platform/testkit"
)

// BenchmarkReceiptPrintBigProperty prints the receipt of a payment on a
// property with 10,000 charges and 5,000 earlier payments: BalanceAfter
// alone, the print route answered from the PDF cache (every read the form
// needs, the balance included), and drawn each time (cache off).
func BenchmarkReceiptPrintBigProperty(b *testing.B) {
	for _, cache := range []int{64, 0} {
		var svc *payments.Service
		app := testkit.Start(b, testkit.WithPopulate(&svc), testkit.WithConfig("modules.printforms.cache", cache))
		u := accountstest.NewUser(b, app)
		var prop struct{ ID string }
		app.Post("/api/v1/properties", u.Token, map[string]any{"name": "Big", "country_code": "DE"}).Expect(http.StatusCreated).JSON(&prop)
		pid := uuid.MustParse(prop.ID)
		now := app.Clock.Now().Add(-1)
		ctx := context.Background()
		charges := make([]expenses.Charge, 10000)
		for i := range charges {
			id := uuid.Must(uuid.NewV7())
			charges[i] = expenses.Charge{ID: id, PropertyID: pid, Origin: id, Name: "C", Amount: 1000, Currency: "EUR",
				Period: "2026-11", DueDate: period.NewDate(2020, 1, 1).AddDays(i % 2000), Status: expenses.Unpaid,
				Kind: expenses.Regular, CreatedAt: now}
		}
		pays := make([]payments.Payment, 5000)
		allocs := make([]payments.Allocation, 5000)
		for i := range pays {
			id := uuid.Must(uuid.NewV7())
			pays[i] = payments.Payment{ID: id, PropertyID: pid, OwnerID: u.ID, Amount: 500, Currency: "EUR",
				PaidOn: period.NewDate(2026, 1, 1), Method: "cash", Status: payments.Posted, CreatedBy: u.ID, CreatedAt: now, UpdatedAt: now}
			allocs[i] = payments.Allocation{PaymentID: id, ChargeID: charges[i].ID, PropertyID: pid, Amount: 500, CreatedAt: now}
		}
		for start := 0; start < 10000; start += 1000 {
			batch := charges[start : start+1000]
			if _, err := app.DB.NewInsert().Model(&batch).Exec(ctx); err != nil {
				b.Fatal(err)
			}
			if start < 5000 {
				p, a := pays[start:start+1000], allocs[start:start+1000]
				if _, err := app.DB.NewInsert().Model(&p).Exec(ctx); err != nil {
					b.Fatal(err)
				}
				if _, err := app.DB.NewInsert().Model(&a).Exec(ctx); err != nil {
					b.Fatal(err)
				}
			}
		}
		if _, err := app.DB.NewUpdate().Table("charges").Set("paid_amount_minor = 500").
			Where("id IN (SELECT charge_id FROM payment_allocations)").Exec(ctx); err != nil {
			b.Fatal(err)
		}
		if app.Engine == "postgres" {
			// As autovacuum would after a bulk load: the planner's row counts.
			if _, err := app.DB.ExecContext(ctx, "ANALYZE charges, payments, payment_allocations"); err != nil {
				b.Fatal(err)
			}
		}
		var pay struct{ ID string }
		app.Post("/api/v1/properties/"+prop.ID+"/payments", u.Token, map[string]any{"amount": 25, "method": "cash"}).
			Expect(http.StatusCreated).JSON(&pay)
		var l receiptList
		app.Get("/api/v1/properties/"+prop.ID+"/receipts", u.Token).Expect(http.StatusOK).JSON(&l)
		path := "/api/v1/print-forms/receipts/" + l.Receipts[0].ID + "?locale=de"
		name := fmt.Sprintf("%s/cache=%d", app.Engine, cache)
		if cache > 0 {
			b.Run(app.Engine+"/BalanceAfter", func(b *testing.B) {
				p := &payments.Payment{ID: uuid.MustParse(pay.ID), PropertyID: pid, CreatedAt: app.Clock.Now()}
				for range b.N {
					if got, err := svc.BalanceAfter(ctx, p); err != nil || got != 10000*1000-5000*500-2500 {
						b.Fatalf("balance %v, %v", got, err)
					}
				}
			})
		}
		b.Run(name, func(b *testing.B) {
			for range b.N {
				req := httptest.NewRequest(http.MethodGet, path, nil)
				req.Header.Set("Authorization", "Bearer "+u.Token)
				res, err := app.Fiber.Test(req, -1)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					b.Fatalf("status %d", res.StatusCode)
				}
			}
		})
	}
}
