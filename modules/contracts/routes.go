package contracts

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module. Each needs a token; the
// ownership check is the service's Authorize.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		api.Get("/contracts", guard.Require(), h.list)
		api.Post("/contracts", guard.Require(), h.create)
		api.Get("/contracts/:contractId", guard.Require(), h.get)
		api.Put("/contracts/:contractId", guard.Require(), h.update)
		api.Delete("/contracts/:contractId", guard.Require(), h.delete)
		api.Post("/contracts/:contractId/activate", guard.Require(), h.activate)
		api.Post("/contracts/:contractId/terminate", guard.Require(), h.terminate)
		api.Get("/contracts/:contractId/rents", guard.Require(), h.rents)
		api.Post("/contracts/:contractId/rent", guard.Require(), h.changeRent)
	}}
}
