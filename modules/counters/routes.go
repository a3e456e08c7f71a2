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
		api.Get("/properties/:propertyId/counters", guard.Require(), h.listCounters)
		api.Post("/properties/:propertyId/counters", guard.Require(), h.createCounter)
		api.Get(counter, guard.Require(), h.getCounter)
		api.Put(counter, guard.Require(), h.updateCounter)
		api.Delete(counter, guard.Require(), h.deleteCounter)
		api.Get(counter+"/readings", guard.Require(), h.listReadings)
		api.Post(counter+"/readings", guard.Require(), h.addReading)
		// Registered before .../readings/:readingId so that "import" is
		// never read as an id.
		api.Post(counter+"/readings/import", guard.Require(), h.importReadings)
		api.Delete(counter+"/readings/:readingId", guard.Require(), h.deleteReading)
		api.Get(counter+"/consumption", guard.Require(), h.consumption)
	}}
}
