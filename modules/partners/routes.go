package partners

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with the least role it needs:
// the credit goes to the workspace, so its owner invites.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/partner-invitations", auth.Owner, h.list)
		r.Post("/partner-invitations", auth.Owner, h.create)
	}}
}
