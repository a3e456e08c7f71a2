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
		api.Get("/properties/:propertyId/expenses", guard.Require(), h.listExpenses)
		api.Post("/properties/:propertyId/expenses", guard.Require(), h.createExpense)
		api.Post("/properties/:propertyId/expenses/refresh-all", guard.Require(), h.refreshAll)
		api.Get("/properties/:propertyId/expenses/:expenseId", guard.Require(), h.getExpense)
		api.Put("/properties/:propertyId/expenses/:expenseId", guard.Require(), h.updateExpense)
		api.Delete("/properties/:propertyId/expenses/:expenseId", guard.Require(), h.deleteExpense)
		api.Get("/properties/:propertyId/charges", guard.Require(), h.listCharges)
		api.Post("/properties/:propertyId/charges", guard.Require(), h.createCharge)
	}}
}
