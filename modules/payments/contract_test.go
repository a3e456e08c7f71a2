package payments_test

import (
	"net/http"
	"testing"
	"time"
)

// A payment for a contract goes only to that contract's charges, is the
// tenant's when it names no payer, and keeps its credit for the
// contract's later charges: not for the property's other charges.
func TestPaymentForAContract(t *testing.T) {
	f := start(t)
	var tenant, contract struct {
		ID string `json:"id"`
	}
	f.app.Post("/api/v1/contragents", f.user.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Tom Tenant"}).
		Expect(http.StatusCreated).JSON(&tenant)
	f.app.Post("/api/v1/contracts", f.user.Token, map[string]any{"property_id": f.property, "tenant_id": tenant.ID, "number": "C-1",
		"terms": []any{map[string]any{"code": "MONTHLY_RENT_AMOUNT", "value": 800}, map[string]any{"code": "CONTRACT_START_DATE", "value": "2026-11-01"}}}).
		Expect(http.StatusCreated).JSON(&contract)
	f.app.Post("/api/v1/contracts/"+contract.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	older := f.manual(t, "Older repair, not the tenant's contract", 100, "2026-10-01")
	f.app.Post(f.url("/expenses/refresh-all"), f.user.Token, nil).Expect(http.StatusOK)

	var p struct {
		payment
		PayerID *string `json:"payer_id"`
	}
	f.app.Post(f.url("/payments"), f.user.Token, map[string]any{"amount": 1000, "method": "bank_transfer", "contract_id": contract.ID}).
		Expect(http.StatusCreated).JSON(&p)
	if p.PayerID == nil || *p.PayerID != tenant.ID || len(p.Allocations) != 1 || p.Allocations[0].Amount != "800.00" || p.Unallocated != "200.00" {
		t.Fatalf("payment %+v payer %v", p.payment, p.PayerID)
	}
	if c := f.charge(t, older.ID); c.PaidAmount != "0.00" {
		t.Fatalf("the contract's payment paid another charge: %+v", c)
	}
	// A later manual charge outside the contract does not take the credit.
	other := f.manual(t, "Another repair", 50, "2026-11-20")
	if other.PaidAmount != "0.00" {
		t.Fatalf("credit went outside the contract: %+v", other)
	}
	// December's rent, billed a month later, does.
	f.app.Clock.Advance(15 * 24 * time.Hour)
	token, err := f.app.Tokens.Issue(f.user.ID, 0, f.app.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	f.user.Token = token
	f.app.Post(f.url("/expenses/refresh-all"), f.user.Token, nil).Expect(http.StatusOK)
	var l chargeList
	f.app.Get(f.url("/charges?contract_id="+contract.ID+"&period=2026-12"), f.user.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 1 || l.Charges[0].PaidAmount != "200.00" || l.Charges[0].Status != "partially_paid" {
		t.Fatalf("December %+v", l)
	}
	var r struct {
		Receipts []struct {
			Payer string `json:"payer"`
		} `json:"receipts"`
	}
	f.app.Get(f.url("/receipts"), f.user.Token).Expect(http.StatusOK).JSON(&r)
	if len(r.Receipts) != 1 || r.Receipts[0].Payer != "Tom Tenant" {
		t.Fatalf("receipts %+v", r)
	}
	if b := f.balance(t, "?contract_id="+contract.ID); b.Charged != "1600.00" || b.Paid != "1000.00" || b.Outstanding != "600.00" || b.Credit != "0.00" {
		t.Fatalf("contract balance %+v", b)
	}
}
