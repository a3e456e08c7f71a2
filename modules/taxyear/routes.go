package taxyear

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists the module's routes: the tax year and the properties'
// depreciation bases are the accountant's.
func NewRoutes(h *Handler, props *properties.Service, guard *auth.Guard) module.Routes {
	const basis = "/properties/:propertyId/depreciation"
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/reports/tax-year", auth.Accountant, h.taxYear)
		r.Get(basis, auth.Viewer, props.Scope, h.getBasis)
		r.Put(basis, auth.Accountant, props.Scope, h.putBasis)
		r.Delete(basis, auth.Accountant, props.Scope, h.deleteBasis)
	}}
}
