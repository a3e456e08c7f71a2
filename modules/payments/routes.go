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
		api.Get(payments, guard.Require(), h.list)
		api.Post(payments, guard.Require(), h.create)
		api.Get(payments+"/:paymentId", guard.Require(), h.get)
		api.Post(payments+"/:paymentId/reverse", guard.Require(), h.reverse)
		api.Get("/properties/:propertyId/balance", guard.Require(), h.balance)
	}}
}
