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
		r := guard.Routes(api)
		r.Page("/contracts", auth.Viewer, h.list)
		r.Post("/contracts", auth.Manager, h.create)
		r.Read("/contracts/:contractId", auth.Viewer, h.get)
		r.Put("/contracts/:contractId", auth.Manager, h.update)
		r.Delete("/contracts/:contractId", auth.Manager, h.delete)
		r.Post("/contracts/:contractId/activate", auth.Manager, h.activate)
		r.Post("/contracts/:contractId/terminate", auth.Manager, h.terminate)
		r.Get("/contracts/:contractId/rents", auth.Viewer, h.rents)
		r.Post("/contracts/:contractId/rent", auth.Manager, h.changeRent)
	}}
}
