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
		r := guard.Routes(api)
		r.Page("/contragents", auth.Viewer, h.list)
		r.Post("/contragents", auth.Manager, h.create)
		// Registered before /contragents/:contragentId so that "import" is
		// never read as an id.
		r.Post("/contragents/import", auth.Manager, h.importCSV)
		r.Read("/contragents/:contragentId", auth.Viewer, h.get)
		r.Put("/contragents/:contragentId", auth.Manager, h.update)
		r.Delete("/contragents/:contragentId", auth.Manager, h.delete)
	}}
}
