package proposals

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with the least role it needs.
// The public ones come first: they are the busiest.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/public/proposals/:slug", auth.Anyone, h.page)
		r.Post("/public/proposals/:slug/applications", auth.Anyone, h.apply)
		r.Post("/public/proposals/:slug/applications/:applicationId/confirm", auth.Anyone, h.confirm)

		r.Get("/properties/:propertyId/proposals", auth.Viewer, h.list)
		r.Post("/properties/:propertyId/proposals", auth.Manager, h.create)
		r.Get("/properties/:propertyId/proposals/:proposalId", auth.Viewer, h.get)
		r.Put("/properties/:propertyId/proposals/:proposalId", auth.Manager, h.update)
		r.Post("/properties/:propertyId/proposals/:proposalId/publish", auth.Manager, h.transition(Published))
		r.Post("/properties/:propertyId/proposals/:proposalId/close", auth.Manager, h.transition(Closed))
		r.Get("/properties/:propertyId/proposals/:proposalId/applications", auth.Viewer, h.applications)
		r.Post("/properties/:propertyId/proposals/:proposalId/applications/:applicationId/shortlist", auth.Manager, h.decide(Shortlisted))
		r.Post("/properties/:propertyId/proposals/:proposalId/applications/:applicationId/decline", auth.Manager, h.decide(Declined))
	}}
}
