package bills

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module. Recording bills is
// bookkeeping: an accountant of the workspace may do it.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Page("/bills", auth.Viewer, h.list)
		r.Get("/properties/:propertyId/bills", auth.Viewer, h.listProperty)
		r.Post("/properties/:propertyId/bills", auth.Accountant, h.create)
		r.Get("/properties/:propertyId/bills/:billId", auth.Viewer, h.get)
		r.Put("/properties/:propertyId/bills/:billId", auth.Accountant, h.update)
		r.Delete("/properties/:propertyId/bills/:billId", auth.Accountant, h.delete)
	}}
}
