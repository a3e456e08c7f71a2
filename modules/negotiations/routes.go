package negotiations

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with the least role it needs.
// The applicant's routes are public: their token is the credential.
func NewRoutes(h *Handler, props *properties.Service, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/public/negotiations/:token", auth.Anyone, h.publicGet)
		r.Post("/public/negotiations/:token/offers", auth.Anyone, h.publicOffer)
		r.Post("/public/negotiations/:token/accept", auth.Anyone, h.publicAccept)
		r.Post("/public/negotiations/:token/decline", auth.Anyone, h.publicDecline)

		r.Get("/properties/:propertyId/negotiations", auth.Viewer, props.Scope, h.list)
		r.Post("/properties/:propertyId/negotiations", auth.Manager, props.Scope, h.open)
		r.Get("/properties/:propertyId/negotiations/:negotiationId", auth.Viewer, props.Scope, h.get)
		r.Post("/properties/:propertyId/negotiations/:negotiationId/offers", auth.Manager, props.Scope, h.offer)
		r.Post("/properties/:propertyId/negotiations/:negotiationId/accept", auth.Manager, props.Scope, h.accept)
		r.Post("/properties/:propertyId/negotiations/:negotiationId/decline", auth.Manager, props.Scope, h.decline)
		r.Post("/properties/:propertyId/negotiations/:negotiationId/contract", auth.Manager, props.Scope, h.contract)
	}}
}
