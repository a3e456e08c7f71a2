package contragents

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module. Each needs a token; the
// ownership check is the service's Authorize.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		api.Get("/contragents", guard.Require(), h.list)
		api.Post("/contragents", guard.Require(), h.create)
		// Registered before /contragents/:contragentId so that "import" is
		// never read as an id.
		api.Post("/contragents/import", guard.Require(), h.importCSV)
		api.Get("/contragents/:contragentId", guard.Require(), h.get)
		api.Put("/contragents/:contragentId", guard.Require(), h.update)
		api.Delete("/contragents/:contragentId", guard.Require(), h.delete)
	}}
}
