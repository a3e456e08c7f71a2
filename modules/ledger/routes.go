package ledger

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module. The books are read by the
// workspace's accountant and those above; nobody writes them through the
// API: every entry comes from a money event.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/ledger/accounts", auth.Accountant, h.accounts)
		r.Get("/ledger/accounts/:accountId/movements", auth.Accountant, h.movements)
		r.Get("/ledger/journal", auth.Accountant, h.journal)
		r.Get("/ledger/journal/export", auth.Accountant, h.journalExport)
		r.Get("/reports/trial-balance", auth.Accountant, h.trialBalance)
	}}
}
