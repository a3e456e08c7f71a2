package counters

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module. Each needs a token; the
// handler then checks the property through properties.Service.Authorize.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	const counter = "/properties/:propertyId/counters/:counterId"
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/properties/:propertyId/counters", auth.Viewer, h.listCounters)
		r.Post("/properties/:propertyId/counters", auth.Manager, h.createCounter)
		r.Get(counter, auth.Viewer, h.getCounter)
		r.Put(counter, auth.Manager, h.updateCounter)
		r.Delete(counter, auth.Manager, h.deleteCounter)
		r.Get(counter+"/readings", auth.Viewer, h.listReadings)
		r.Post(counter+"/readings", auth.Manager, h.addReading)
		// Registered before .../readings/:readingId so that "import" is
		// never read as an id.
		r.Post(counter+"/readings/import", auth.Manager, h.importReadings)
		r.Delete(counter+"/readings/:readingId", auth.Manager, h.deleteReading)
		r.Get(counter+"/consumption", auth.Viewer, h.consumption)
		// The tenant portal: any signed-in user, each answered only for
		// their own contract (Tenancies), else 404.
		const mine = "/tenancy/contracts/:contractId/counters"
		r.Get(mine, auth.SignedIn, h.tenantCounters)
		r.Get(mine+"/:counterId/readings", auth.SignedIn, h.tenantReadings)
		r.Post(mine+"/:counterId/readings", auth.SignedIn, h.tenantAddReading)
	}}
}
