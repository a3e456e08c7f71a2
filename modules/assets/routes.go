package assets

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with the least role it needs;
// the handler then checks the property (and the record) belongs to the
// caller's workspace.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	const assets = "/properties/:propertyId/assets"
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get(assets, auth.Viewer, h.list)
		r.Post(assets, auth.Manager, h.create)
		// Registered before .../:assetId so that "inspections" is never
		// read as an asset id.
		r.Get(assets+"/inspections", auth.Viewer, h.listInspections)
		r.Post(assets+"/inspections", auth.Manager, h.createInspection)
		r.Get(assets+"/inspections/:inspectionId", auth.Viewer, h.getInspection)
		r.Get(assets+"/:assetId", auth.Viewer, h.get)
		r.Put(assets+"/:assetId", auth.Manager, h.update)
		r.Delete(assets+"/:assetId", auth.Manager, h.delete)
		r.Get("/print-forms/inspections/:inspectionId", auth.Viewer, h.printInspection)
	}}
}
