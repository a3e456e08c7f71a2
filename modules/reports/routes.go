package reports

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with the least role it needs:
// the reports show every tenant's debts, so accountants and up.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/reports/arrears", auth.Accountant, h.arrears)
		r.Get("/reports/rent-roll", auth.Accountant, h.rentRoll)
		r.Get("/reports/income", auth.Accountant, h.income)
		r.Get("/reports/charges", auth.Accountant, h.charges)
		r.Get("/reports/owner-statement", auth.Accountant, h.ownerStatement)
	}}
}
