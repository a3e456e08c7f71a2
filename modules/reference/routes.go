package reference

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with its guard.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/countries", auth.Anyone, h.countries)
		r.Get("/countries/:code", auth.Anyone, h.country)
		r.Get("/languages", auth.Anyone, h.languages)
		r.Get("/languages/:code", auth.Anyone, h.language)
	}}
}
