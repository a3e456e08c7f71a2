package tenancy

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists the portal's routes with the least role each needs. The
// invitation is a landlord's (manager); the /tenancy routes are any
// signed-in user's, and each answers only for the caller's own contracts.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	const contract = "/tenancy/contracts/:contractId"
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Post("/contragents/:contragentId/portal-invitation", auth.Manager, h.invite)
		r.Post("/tenancy/invitations/:token/accept", auth.SignedIn, h.accept)
		r.Get("/tenancy/contracts", auth.SignedIn, h.contracts)
		r.Get(contract, auth.SignedIn, h.contract)
		r.Get(contract+"/charges", auth.SignedIn, h.chargeList)
		r.Get(contract+"/balance", auth.SignedIn, h.balance)
		r.Get(contract+"/receipts", auth.SignedIn, h.receiptList)
	}}
}
