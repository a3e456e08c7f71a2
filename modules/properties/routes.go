package properties

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module. Each needs a token; the
// ownership check is the service's Authorize.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		api.Get("/properties", guard.Require(), h.list)
		api.Post("/properties", guard.Require(), h.create)
		api.Get("/properties/:propertyId", guard.Require(), h.get)
		api.Put("/properties/:propertyId", guard.Require(), h.update)
		api.Delete("/properties/:propertyId", guard.Require(), h.delete)
		api.Post("/properties/:propertyId/archive", guard.Require(), h.archive)
		api.Post("/properties/:propertyId/unarchive", guard.Require(), h.unarchive)
	}}
}
