package expenses

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module. Each needs a token; the
// handler then checks the property through properties.Service.Authorize.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/properties/:propertyId/expenses", auth.Viewer, h.listExpenses)
		r.Post("/properties/:propertyId/expenses", auth.Manager, h.createExpense)
		r.Post("/properties/:propertyId/expenses/refresh-all", auth.Accountant, h.refreshAll)
		r.Get("/properties/:propertyId/expenses/:expenseId", auth.Viewer, h.getExpense)
		r.Put("/properties/:propertyId/expenses/:expenseId", auth.Manager, h.updateExpense)
		r.Delete("/properties/:propertyId/expenses/:expenseId", auth.Manager, h.deleteExpense)
		r.Get("/properties/:propertyId/charges", auth.Viewer, h.listCharges)
		r.Post("/properties/:propertyId/charges", auth.Accountant, h.createCharge)
	}}
}
