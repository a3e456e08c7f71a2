package dashboard

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists the module's route with the least role it needs: it
// shows every tenant's debts, so accountants and up, as the reports.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/dashboard", auth.Accountant, h.get)
	}}
}
