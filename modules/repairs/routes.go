package repairs

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with the least role it needs.
// The tenant's routes are any signed-in user's and answer only for the
// caller's own contract; the provider's are public, their token being
// the credential.
func NewRoutes(h *Handler, guard *auth.Guard, bodies *httpserver.BodyLimits) module.Routes {
	const list = "/properties/:propertyId/repair-requests"
	const one = list + "/:requestId"
	const tenant = "/tenancy/contracts/:contractId/repair-requests"
	const order = "/work-orders/:token"
	// The photo uploads stream their bodies up to maxUpload.
	bodies.Stream(fiber.MethodPost, httpserver.APIPrefix+tenant+"/:requestId/photos", maxUpload, uploadTime)
	bodies.Stream(fiber.MethodPost, httpserver.APIPrefix+order+"/files", maxUpload, uploadTime)
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get(order, auth.Anyone, h.providerGet)
		r.Post(order+"/accept", auth.Anyone, h.providerAct("accept"))
		r.Post(order+"/decline", auth.Anyone, h.providerAct("decline"))
		r.Post(order+"/slots", auth.Anyone, h.providerAct("slots"))
		r.Post(order+"/done", auth.Anyone, h.providerAct("done"))
		r.Post(order+"/files", auth.Anyone, h.providerFiles)

		r.Get("/repair-requests/overdue", auth.Viewer, h.overdue)
		r.Get(list, auth.Viewer, h.list)
		r.Post(list, auth.Manager, h.create)
		r.Get(one, auth.Viewer, h.get)
		r.Post(one+"/transition", auth.Manager, h.transition)
		r.Post(one+"/work-orders", auth.Manager, h.order)
		r.Post(one+"/recharge", auth.Manager, h.recharge)

		r.Get(tenant, auth.SignedIn, h.tenantList)
		r.Post(tenant, auth.SignedIn, h.tenantCreate)
		r.Get(tenant+"/:requestId", auth.SignedIn, h.tenantGet)
		r.Post(tenant+"/:requestId/slot", auth.SignedIn, h.tenantSlot)
		r.Post(tenant+"/:requestId/photos", auth.SignedIn, h.tenantPhotos)
	}}
}
