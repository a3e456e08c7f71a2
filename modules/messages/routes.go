package messages

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with the least role it needs.
// The inbound route is public in the table: the operator's mail server
// authenticates with modules.messages.inboundsecret, checked by the
// handler; its body is streamed up to modules.messages.inboundmaxsize.
func NewRoutes(h *Handler, guard *auth.Guard, bodies *httpserver.BodyLimits) module.Routes {
	bodies.Stream(fiber.MethodPost, httpserver.APIPrefix+InboundPath, h.cfg.InboundMaxSize, 0)
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/properties/:propertyId/messages", auth.Viewer, h.list)
		r.Post("/properties/:propertyId/messages", auth.Manager, h.create)
		r.Get("/properties/:propertyId/messages/:messageId", auth.Viewer, h.get)
		r.Post(InboundPath, auth.Anyone, h.inbound)
		// The tenant portal: any signed-in user, each answered only for
		// their own contract (Tenancies), else 404.
		r.Get("/tenancy/contracts/:contractId/messages", auth.SignedIn, h.tenantList)
		r.Post("/tenancy/contracts/:contractId/messages", auth.SignedIn, h.tenantCreate)
	}}
}
