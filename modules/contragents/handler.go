package contragents

import (
	"mime"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
)

// Handler turns HTTP requests into service calls.
type Handler struct {
	svc *Service
}

// NewHandler returns the handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// SearchMax bounds the ?q= search term, in bytes.
const SearchMax = 200

func (h *Handler) list(c *fiber.Ctx) error {
	q, err := listing.Parse(c,
		listing.OneOf("role", Roles...),
		listing.OneOf("kind", KindPerson, KindCompany),
		listing.Text("q", SearchMax),
	)
	if err != nil {
		return err
	}
	f := ListFilter{Role: q.Get("role"), Kind: q.Get("kind"), Search: q.Get("q")}
	p := auth.Current(c)
	list, total, err := h.svc.List(httpserver.Context(c), &p, f, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("contragents", list, toJSON, total, q))
}

func (h *Handler) create(c *fiber.Ctx) error {
	var req contragentRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	ca, err := h.svc.Create(httpserver.Context(c), auth.Current(c), req.input())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toJSON(ca))
}

func (h *Handler) get(c *fiber.Ctx) error {
	p := auth.Current(c)
	ca, err := h.svc.Get(httpserver.Context(c), &p, c.Params("contragentId"))
	if err != nil {
		return err
	}
	return c.JSON(toJSON(ca))
}

func (h *Handler) update(c *fiber.Ctx) error {
	// The access check comes before the body, so a stranger learns nothing
	// from validation messages.
	ca, err := h.svc.Authorize(httpserver.Context(c), auth.Current(c), c.Params("contragentId"))
	if err != nil {
		return err
	}
	var req contragentRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	ca, err = h.svc.Update(httpserver.Context(c), ca, req.input())
	if err != nil {
		return err
	}
	return c.JSON(toJSON(ca))
}

func (h *Handler) delete(c *fiber.Ctx) error {
	if err := h.svc.Delete(httpserver.Context(c), auth.Current(c), c.Params("contragentId")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// importResult is the answer of a successful import.
type importResult struct {
	Created int `json:"created"`
}

func (h *Handler) importCSV(c *fiber.Ctx) error {
	mt, _, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if err != nil || mt != "text/csv" {
		return apierror.New(fiber.StatusUnsupportedMediaType, "unsupported_type",
			"The import takes a CSV file: send it with Content-Type: text/csv.")
	}
	// The body is parsed into fresh strings before the handler returns, so
	// Fiber's reuse of its buffer does not matter.
	n, err := h.svc.Import(httpserver.Context(c), auth.Current(c), c.Body())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(importResult{Created: n})
}
