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
		api.Get(penalties, guard.Require(), h.list)
		api.Post(penalties+"/refresh", guard.Require(), h.refresh)
	}}
}
