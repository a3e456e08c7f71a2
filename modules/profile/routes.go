package profile

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with its guard.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/user/profile", auth.SignedIn, h.get)
		r.Put("/user/profile", auth.SignedIn, h.update)
		r.Put("/user/password", auth.SignedIn, h.changePassword)
		r.Get("/user/roles", auth.SignedIn, h.roles)
	}}
}
