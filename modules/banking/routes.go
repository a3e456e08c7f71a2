package banking

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/module"
)

// statementsPath is the import route, whose body is streamed.
const statementsPath = "/bank-accounts/:bankAccountId/statements"

// NewRoutes lists every route of the module. Importing and matching post
// payments, so they take an accountant, as posting a payment does; every
// member may read the lines. The import reads its body as a stream up to
// modules.banking.maxbytes (plus the form's own bytes), spilling the file
// to disk; every other route keeps http.bodylimit.
func NewRoutes(h *Handler, guard *auth.Guard, bodies *httpserver.BodyLimits) module.Routes {
	bodies.Stream(fiber.MethodPost, httpserver.APIPrefix+statementsPath, h.bodyLimit(), 0)
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Post(statementsPath, auth.Accountant, h.importStatement)
		r.Get("/bank-accounts/:bankAccountId/csv-mappings", auth.Viewer, h.listMappings)
		r.Post("/bank-accounts/:bankAccountId/csv-mappings", auth.Accountant, h.createMapping)
		r.Get("/bank-accounts/:bankAccountId/csv-mappings/:mappingId", auth.Viewer, h.getMapping)
		r.Put("/bank-accounts/:bankAccountId/csv-mappings/:mappingId", auth.Accountant, h.updateMapping)
		r.Delete("/bank-accounts/:bankAccountId/csv-mappings/:mappingId", auth.Accountant, h.deleteMapping)
		r.Page("/bank-lines", auth.Viewer, h.listLines)
		r.Get("/bank-lines/:bankLineId", auth.Viewer, h.getLine)
		r.Post("/bank-lines/:bankLineId/match", auth.Accountant, h.match)
		r.Post("/bank-lines/:bankLineId/ignore", auth.Accountant, h.ignore)
	}}
}
