package analytics

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with the least role it needs.
// Tracking is public (a token, when sent, names the user); the summary
// is for the service's administrators (ROLE_ADMIN), not a workspace's.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Post("/analytics/track", auth.Anyone, h.track)
		r.Get("/analytics/summary", auth.Admin, h.summary)
	}}
}
