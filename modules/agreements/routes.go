package agreements

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with its guard.
func NewRoutes(h *Handler) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		api.Get("/agreement-blocks", h.list)                     // public
		api.Get("/agreement-blocks/by-type/:dataType", h.byType) // public
		api.Get("/agreement-blocks/:code", h.byCode)             // public
	}}
}
