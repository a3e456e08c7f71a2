package agreements

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with its guard.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/agreement-blocks", auth.Anyone, h.list)
		r.Get("/agreement-blocks/by-type/:dataType", auth.Anyone, h.byType)
		r.Get("/agreement-blocks/:code", auth.Anyone, h.byCode)
	}}
}
