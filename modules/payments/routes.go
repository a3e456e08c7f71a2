package payments

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module. Each needs a token; the
// handler then checks the property through properties.Service.Authorize.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	const payments = "/properties/:propertyId/payments"
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get(payments, auth.Viewer, h.list)
		r.Post(payments, auth.Accountant, h.create)
		r.Get(payments+"/:paymentId", auth.Viewer, h.get)
		r.Post(payments+"/:paymentId/reverse", auth.Accountant, h.reverse)
		r.Get("/properties/:propertyId/balance", auth.Viewer, h.balance)
	}}
}
