package tools

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with the least role it needs.
// Help links are public (a sign-in page shows them); the lookups need a
// signed-in user but no workspace: they read no workspace's records.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/tools/help-links", auth.Anyone, h.helpLinks)
		r.Get("/tools/postal-tracking/:number", auth.SignedIn, h.postalTracking)
		r.Get("/tools/geocode", auth.SignedIn, h.geocode)
	}}
}
