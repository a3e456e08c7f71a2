package calendar

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with the least role it needs.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/calendar-events", auth.Viewer, h.list)
		r.Post("/calendar-events", auth.Manager, h.create)
		r.Get("/calendar-events/:eventId", auth.Viewer, h.get)
		r.Patch("/calendar-events/:eventId", auth.Manager, h.update)
		r.Delete("/calendar-events/:eventId", auth.Manager, h.delete)
		r.Post("/calendar/feed-token", auth.Viewer, h.rotate)
		// The feed is read by calendar apps, which send no bearer token: the
		// secret in the path is the credential.
		r.Get("/calendar/feed/:token.ics", auth.Anyone, h.feed)
	}}
}
