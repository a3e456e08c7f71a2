package buildings

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module. Buildings, units and
// households are the landlord's records: a manager changes them.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Page("/buildings", auth.Viewer, h.list)
		r.Post("/buildings", auth.Manager, h.create)
		r.Get("/buildings/:buildingId", auth.Viewer, h.get)
		r.Put("/buildings/:buildingId", auth.Manager, h.update)
		r.Delete("/buildings/:buildingId", auth.Manager, h.delete)
		r.Get("/buildings/:buildingId/units", auth.Viewer, h.units)
		r.Post("/buildings/:buildingId/units/import", auth.Manager, h.importUnits)
		r.Put("/buildings/:buildingId/units/:propertyId", auth.Manager, h.putUnit)
		r.Delete("/buildings/:buildingId/units/:propertyId", auth.Manager, h.deleteUnit)
		r.Get("/contracts/:contractId/household", auth.Viewer, h.households)
		r.Post("/contracts/:contractId/household", auth.Manager, h.addHousehold)
	}}
}
