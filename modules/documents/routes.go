package documents

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/module"
)

// uploadPath is the upload route, whose body is streamed.
const uploadPath = "/properties/:propertyId/documents"

// NewRoutes lists every route of the module. Each needs a token; the
// property's owner (or an admin) is checked by properties.Service.Authorize.
// The upload route reads its body as a stream up to
// modules.documents.maxsize (plus the form's own bytes); every other route
// keeps http.bodylimit.
func NewRoutes(h *Handler, guard *auth.Guard, bodies *httpserver.BodyLimits) module.Routes {
	bodies.Stream(fiber.MethodPost, httpserver.APIPrefix+uploadPath, h.bodyLimit(), h.cfg.Timeout)
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/properties/:propertyId/documents", auth.Viewer, h.list)
		r.Post(uploadPath, auth.Manager, h.upload)
		r.Get("/properties/:propertyId/documents/:documentId", auth.Viewer, h.get)
		r.Put("/properties/:propertyId/documents/:documentId", auth.Manager, h.update)
		r.Delete("/properties/:propertyId/documents/:documentId", auth.Manager, h.delete)
		r.Get("/properties/:propertyId/documents/:documentId/content", auth.Viewer, h.content)
		// The tenant portal: any signed-in user, each answered only for
		// their own contract (Tenancies), else 404.
		r.Get("/tenancy/contracts/:contractId/documents", auth.SignedIn, h.tenantList)
		r.Get("/tenancy/contracts/:contractId/documents/:documentId/content", auth.SignedIn, h.tenantContent)
	}}
}
