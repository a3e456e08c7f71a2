package accounts

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with its guard.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Post("/auth/register", auth.Anyone, h.register)
		r.Post("/auth/register/verify", auth.Anyone, h.verify)
		r.Post("/auth/login", auth.Anyone, h.login)
		r.Get("/auth/me", auth.SignedIn, h.me)
		r.Post("/auth/refresh", auth.SignedIn, h.refresh)
	}}
}
