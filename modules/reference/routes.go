package reference

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with its guard.
func NewRoutes(h *Handler) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		api.Get("/countries", h.countries)      // public
		api.Get("/countries/:code", h.country)  // public
		api.Get("/languages", h.languages)      // public
		api.Get("/languages/:code", h.language) // public
	}}
}
