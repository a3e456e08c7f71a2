package accounts

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with its guard.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		api.Post("/auth/register", h.register)                // public
		api.Post("/auth/register/verify", h.verify)           // public
		api.Post("/auth/login", h.login)                      // public
		api.Get("/auth/me", guard.Require(), h.me)            // signed in
		api.Post("/auth/refresh", guard.Require(), h.refresh) // signed in
	}}
}
