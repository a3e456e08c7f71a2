package violations

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with the least role it needs.
func NewRoutes(h *Handler, props *properties.Service, guard *auth.Guard) module.Routes {
	const list = "/properties/:propertyId/violations"
	const one = list + "/:violationId"
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get(list, auth.Viewer, props.Scope, h.list)
		r.Post(list, auth.Manager, props.Scope, h.create)
		r.Get(one, auth.Viewer, props.Scope, h.get)
		r.Post(one+"/acknowledge", auth.Manager, props.Scope, h.move(Acknowledged))
		r.Post(one+"/dispute", auth.Manager, props.Scope, h.move(Disputed))
		r.Post(one+"/resolve", auth.Manager, props.Scope, h.move(Resolved))
		r.Post(one+"/withdraw", auth.Manager, props.Scope, h.move(Withdrawn))
	}}
}
