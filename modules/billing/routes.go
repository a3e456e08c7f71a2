package billing

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with the least role it needs.
// The subscription and payments are the owner's; invoices the
// accountant's too; Stripe's webhook is public and proves itself by its
// signature.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/billing/plans", auth.Viewer, h.plans)
		r.Get("/billing/subscription", auth.Viewer, h.getSubscription)
		r.Put("/billing/subscription", auth.Owner, h.putSubscription)
		r.Post("/billing/subscription/cancel", auth.Owner, h.cancel)
		r.Post("/billing/payment-methods", auth.Owner, h.addPaymentMethod)
		r.Get("/billing/invoices", auth.Accountant, h.listInvoices)
		r.Get("/billing/invoices/:invoiceId", auth.Accountant, h.getInvoice)
		r.Get("/billing/invoices/:invoiceId/pdf", auth.Accountant, h.invoicePDF)
		r.Post("/billing/invoices/:invoiceId/pay", auth.Owner, h.payInvoice)
		r.Post("/billing/webhooks/stripe", auth.Anyone, h.webhook)
	}}
}
