package penalties

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module. Each needs a token; the
// handler then checks the property through properties.Service.Authorize.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	const penalties = "/properties/:propertyId/penalties"
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get(penalties, auth.Viewer, h.list)
		r.Post(penalties+"/refresh", auth.Accountant, h.refresh)
	}}
}
