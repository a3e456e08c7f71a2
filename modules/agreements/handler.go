package agreements

import (
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/httpserver"
)

// Handler answers the agreement-block endpoints from precomputed responses.
type Handler struct {
	responses *Responses
}

// NewHandler returns the module's handler.
func NewHandler(r *Responses) *Handler { return &Handler{responses: r} }

func (h *Handler) list(c *fiber.Ctx) error {
	res, err := h.responses.List(c.Query("country"))
	return send(c, res, err)
}

func (h *Handler) byCode(c *fiber.Ctx) error {
	res, err := h.responses.ByCode(param(c, "code"))
	return send(c, res, err)
}

func (h *Handler) byType(c *fiber.Ctx) error {
	res, err := h.responses.ByType(param(c, "dataType"))
	return send(c, res, err)
}

// send writes a precomputed response, or 304 when the client holds it.
func send(c *fiber.Ctx, res *Response, err error) error {
	if err != nil {
		return err
	}
	return httpserver.SendPayload(c, *res)
}

// param is a path parameter, percent-decoded (Fiber leaves it as sent).
func param(c *fiber.Ctx, name string) string {
	v := c.Params(name)
	if !strings.Contains(v, "%") {
		return v
	}
	if u, err := url.PathUnescape(v); err == nil {
		return u
	}
	return v
}
