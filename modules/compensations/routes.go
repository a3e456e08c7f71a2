package compensations

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with the least role it needs:
// compensations move money, so an accountant may credit and pay them out;
// creating, cancelling and settling a deposit are a manager's.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	const list = "/properties/:propertyId/compensations"
	const one = list + "/:compensationId"
	const settlements = list + "/deposit-settlements"
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get(list, auth.Viewer, h.list)
		r.Post(list, auth.Manager, h.create)
		// Registered before .../:compensationId so that the word is never
		// read as an id.
		r.Get(settlements, auth.Viewer, h.listSettlements)
		r.Post(settlements, auth.Manager, h.settle)
		r.Get(one, auth.Viewer, h.get)
		r.Post(one+"/credit", auth.Accountant, h.credit)
		r.Post(one+"/pay-out", auth.Accountant, h.payOut)
		r.Post(one+"/cancel", auth.Manager, h.cancel)
		r.Post(one+"/reverse", auth.Accountant, h.reverse)
		r.Get("/print-forms/deposit-settlements/:settlementId", auth.Viewer, h.printSettlement)
	}}
}
