package bankaccounts

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module. Where the rent goes is a
// money setting: managers change it, as they do the workspace's notice
// and contract money settings; every member may read it.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Page("/bank-accounts", auth.Viewer, h.list)
		r.Post("/bank-accounts", auth.Manager, h.create)
		r.Read("/bank-accounts/:bankAccountId", auth.Viewer, h.get)
		r.Put("/bank-accounts/:bankAccountId", auth.Manager, h.update)
		r.Delete("/bank-accounts/:bankAccountId", auth.Manager, h.delete)
	}}
}
