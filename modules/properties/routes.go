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
		r := guard.Routes(api)
		r.Page("/properties", auth.Viewer, h.list)
		r.Post("/properties", auth.Manager, h.create)
		r.Read("/properties/:propertyId", auth.Viewer, h.get)
		r.Put("/properties/:propertyId", auth.Manager, h.update)
		r.Delete("/properties/:propertyId", auth.Manager, h.delete)
		r.Post("/properties/:propertyId/archive", auth.Manager, h.archive)
		r.Post("/properties/:propertyId/unarchive", auth.Manager, h.unarchive)
	}}
}
