package printforms

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module. Each needs a token; the
// handler checks the record's owner (or an admin) through the owning
// module's Authorize.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/print-forms/contracts/:contractId", auth.Viewer, h.contract)
		r.Get("/print-forms/contracts/:contractId/termination", auth.Viewer, h.termination)
		// The receipts module provides the ReceiptSource; without it the
		// handler answers 404.
		r.Get("/print-forms/receipts/:receiptId", auth.Viewer, h.receipt)
		// A tenant's own receipt: any signed-in user, answered only for a
		// receipt of their own contract (TenantReceipts), else 404.
		r.Get("/tenancy/contracts/:contractId/receipts/:receiptId/pdf", auth.SignedIn, h.tenantReceipt)
	}}
}
