package oidc

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with its guard: all public,
// they are how a user without a token gets one.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/auth/oidc/:provider/start", auth.Anyone, h.start)
		r.Get("/auth/oidc/:provider/callback", auth.Anyone, h.callback)
		r.Post("/auth/oidc/exchange", auth.Anyone, h.exchange)
	}}
}
