package tenancy

import (
	"context"
	"errors"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/receipts"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/fault"
)

// portal is what this module answers the modules that serve a tenant their
// own records under /tenancy/contracts/{contractId} (documents, counters,
// print forms): whose contract it is, and whose receipt. Each defines the
// interface it asks, so none imports this module.
type portal struct {
	svc      *Service
	receipts *receipts.Service
	payments *payments.Service
}

func newPortal(svc *Service, rec *receipts.Service, pay *payments.Service) *portal {
	return &portal{svc: svc, receipts: rec, payments: pay}
}

// TenantContract is Service.Contract in parts (contracts.Tenancies, which
// documents and counters ask).
func (p *portal) TenantContract(ctx context.Context, userID int64, rawContractID string) (*contracts.Contract, *properties.Property, auth.Principal, error) {
	t, err := p.svc.Contract(ctx, userID, rawContractID)
	if err != nil {
		return nil, nil, auth.Principal{}, err
	}
	return t.Contract, t.Property, t.As, nil
}

// TenantReceipt returns the principal to print the receipt with when it is
// a receipt of a payment of the user's own contract (printforms.TenantReceipts):
// another contract's receipt, even of the same property, is 404.
func (p *portal) TenantReceipt(ctx context.Context, userID int64, rawContractID, rawReceiptID string) (auth.Principal, error) {
	t, err := p.svc.Contract(ctx, userID, rawContractID)
	if err != nil {
		return auth.Principal{}, err
	}
	r, err := p.receipts.Receipt(ctx, t.Property, rawReceiptID)
	if err != nil {
		return auth.Principal{}, err
	}
	pay, err := p.payments.Payment(ctx, t.Property, r.PaymentID.String())
	if errors.Is(err, payments.ErrNotFound) {
		return auth.Principal{}, errNoReceipt()
	}
	if err != nil {
		return auth.Principal{}, err
	}
	if pay.ContractID == nil || *pay.ContractID != t.Contract.ID {
		return auth.Principal{}, errNoReceipt()
	}
	return t.As, nil
}

func errNoReceipt() error { return fault.NotFound("Receipt not found.") }
