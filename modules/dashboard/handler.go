package dashboard

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/export"
	"github.com/propman/propman/platform/httpserver"
)

// Handler turns the request into the service's call.
type Handler struct{ svc *Service }

// NewHandler returns the handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// get answers the principal's workspace's dashboard, its words in
// ?locale= or Accept-Language, else the reader's profile language.
func (h *Handler) get(c *fiber.Ctx) error {
	p := auth.Current(c)
	locale := export.LocaleOf(c)
	if locale == "" {
		locale = "en"
		if u, ok := p.Record.(*accounts.User); ok && u.Locale != "" {
			locale = u.Locale
		}
	}
	d, err := h.svc.Get(httpserver.Context(c), p.WorkspaceID, locale)
	if err != nil {
		return err
	}
	return c.JSON(d)
}
