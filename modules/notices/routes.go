package notices

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with the least role it needs.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/notice-settings", auth.Viewer, h.getSettings)
		r.Patch("/notice-settings", auth.Manager, h.patchSettings)
		r.Get("/contracts/:contractId/notice-settings", auth.Viewer, h.getContract)
		r.Patch("/contracts/:contractId/notice-settings", auth.Manager, h.patchContract)
		r.Get("/contracts/:contractId/rent-call", auth.Viewer, h.rentCall)
	}}
}
