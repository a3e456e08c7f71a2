package reference

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/httpserver"
)

// Handler serves the directory's precomputed responses.
type Handler struct {
	dir *Directory
}

// NewHandler returns the module's handler.
func NewHandler(dir *Directory) *Handler { return &Handler{dir: dir} }

func (h *Handler) countries(c *fiber.Ctx) error {
	return httpserver.SendPayload(c, h.dir.snap.Load().countriesPayload)
}

func (h *Handler) country(c *fiber.Ctx) error {
	code := c.Params("code")
	c2, ok := h.dir.Country(code)
	if !ok {
		return apierror.NotFound("No active country has the code " + quote(code) + ".")
	}
	return httpserver.SendPayload(c, h.dir.snap.Load().countryPayload[c2.Code])
}

func (h *Handler) languages(c *fiber.Ctx) error {
	return httpserver.SendPayload(c, h.dir.snap.Load().languagesPayload)
}

func (h *Handler) language(c *fiber.Ctx) error {
	code := c.Params("code")
	l, ok := h.dir.Language(code)
	if !ok {
		return apierror.NotFound("No active language has the code " + quote(code) + ".")
	}
	return httpserver.SendPayload(c, h.dir.snap.Load().languagePayload[l.Code])
}

// quote bounds what is echoed back of a client's value.
func quote(s string) string {
	if len(s) > 16 {
		s = s[:16] + "..."
	}
	return `"` + s + `"`
}
