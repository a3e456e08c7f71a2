package opcosts

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module. A statement is bookkeeping:
// an accountant computes and posts it; the keys are the landlord's
// choice (a manager's).
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Page("/opcosts/deadlines", auth.Viewer, h.deadlines)
		r.Get("/buildings/:buildingId/opcost-keys", auth.Viewer, h.keys)
		r.Put("/buildings/:buildingId/opcost-keys", auth.Manager, h.setKeys)
		r.Get("/buildings/:buildingId/opcost-statements", auth.Viewer, h.list)
		r.Post("/buildings/:buildingId/opcost-statements", auth.Accountant, h.create)
		r.Get("/buildings/:buildingId/opcost-statements/:statementId", auth.Viewer, h.get)
		r.Delete("/buildings/:buildingId/opcost-statements/:statementId", auth.Accountant, h.delete)
		r.Post("/buildings/:buildingId/opcost-statements/:statementId/post", auth.Accountant, h.post)
		r.Post("/buildings/:buildingId/opcost-statements/:statementId/correction", auth.Accountant, h.correct)
		r.Get("/buildings/:buildingId/opcost-statements/:statementId/contracts/:contractId/pdf", auth.Viewer, h.pdf)
		// Sending letters and changing a contract's prepayment are the
		// landlord's dealings with the tenant: a manager's.
		r.Post("/buildings/:buildingId/opcost-statements/:statementId/send", auth.Manager, h.send)
		r.Post("/buildings/:buildingId/opcost-statements/:statementId/contracts/:contractId/prepayment", auth.Manager, h.prepayment)
	}}
}
