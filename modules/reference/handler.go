package reference

import (
	"strings"

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
	// One snapshot for the lookup and the answer: a refresh in between
	// could otherwise leave the code without its bytes.
	p, ok := h.dir.snap.Load().countryPayload[strings.ToUpper(code)]
	if !ok {
		return apierror.NotFound("No active country has the code " + quote(code) + ".")
	}
	return httpserver.SendPayload(c, p)
}

func (h *Handler) languages(c *fiber.Ctx) error {
	return httpserver.SendPayload(c, h.dir.snap.Load().languagesPayload)
}

func (h *Handler) language(c *fiber.Ctx) error {
	code := c.Params("code")
	p, ok := h.dir.snap.Load().languagePayload[strings.ToLower(code)]
	if !ok {
		return apierror.NotFound("No active language has the code " + quote(code) + ".")
	}
	return httpserver.SendPayload(c, p)
}

// quote bounds what is echoed back of a client's value.
func quote(s string) string {
	if len(s) > 16 {
		s = s[:16] + "..."
	}
	return `"` + s + `"`
}
