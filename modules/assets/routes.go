package assets

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with the least role it needs;
// properties.Service.Scope then authorises the property once and hands it
// to the handler, which reads the record under it.
func NewRoutes(h *Handler, props *properties.Service, guard *auth.Guard) module.Routes {
	const assets = "/properties/:propertyId/assets"
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get(assets, auth.Viewer, props.Scope, h.list)
		r.Post(assets, auth.Manager, props.Scope, h.create)
		// Registered before .../:assetId so that "inspections" is never
		// read as an asset id.
		r.Get(assets+"/inspections", auth.Viewer, props.Scope, h.listInspections)
		r.Post(assets+"/inspections", auth.Manager, props.Scope, h.createInspection)
		r.Get(assets+"/inspections/:inspectionId", auth.Viewer, props.Scope, h.getInspection)
		r.Get(assets+"/:assetId", auth.Viewer, props.Scope, h.get)
		r.Put(assets+"/:assetId", auth.Manager, props.Scope, h.update)
		r.Delete(assets+"/:assetId", auth.Manager, props.Scope, h.delete)
		r.Get("/print-forms/inspections/:inspectionId", auth.Viewer, h.printInspection)
	}}
}
