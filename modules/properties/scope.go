package properties

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
)

type scopeKey struct{}

// Scope is the middleware of every route under /properties/:propertyId:
// it authorises the caller on the property once (its workspace, or an
// admin; another workspace's property answers 404 as API-DECISIONS
// wants) and hands the record to the handlers after it, which read it
// with Scoped. Register it after the role, before the handler:
//
//	r.Get("/properties/:propertyId/things", auth.Viewer, props.Scope, h.list)
func (s *Service) Scope(c *fiber.Ctx) error {
	prop, err := s.Authorize(httpserver.Context(c), auth.Current(c), c.Params("propertyId"))
	if err != nil {
		return err
	}
	c.Locals(scopeKey{}, prop)
	return c.Next()
}

// Scoped is the property Scope authorised for this request. A handler
// registered without Scope is a programming error, and panics (the
// server's recover turns it into a 500 the tests see at once).
func Scoped(c *fiber.Ctx) *Property {
	prop, ok := c.Locals(scopeKey{}).(*Property)
	if !ok {
		panic("properties.Scoped on a route registered without properties.Service.Scope: " + c.Route().Path)
	}
	return prop
}
