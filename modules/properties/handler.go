package properties

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/validate"
)

// Handler turns HTTP requests into service calls.
type Handler struct {
	svc *Service
}

// NewHandler returns the handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

func (h *Handler) list(c *fiber.Ctx) error {
	q, err := listing.Parse(c, listing.OneOf("archived", "true", "false"))
	if err != nil {
		return err
	}
	p := auth.Current(c)
	list, total, err := h.svc.List(httpserver.Context(c), &p, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("properties", list, toJSON, total, q))
}

func (h *Handler) create(c *fiber.Ctx) error {
	in, err := decode(c)
	if err != nil {
		return err
	}
	prop, err := h.svc.Create(httpserver.Context(c), auth.Current(c), in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toJSON(prop))
}

func (h *Handler) get(c *fiber.Ctx) error {
	p := auth.Current(c)
	prop, err := h.svc.Get(httpserver.Context(c), &p, c.Params("propertyId"))
	if err != nil {
		return err
	}
	return c.JSON(toJSON(prop))
}

func (h *Handler) update(c *fiber.Ctx) error {
	// The access check comes before the body, so a stranger learns nothing
	// from validation messages.
	prop, err := h.svc.Authorize(httpserver.Context(c), auth.Current(c), c.Params("propertyId"))
	if err != nil {
		return err
	}
	in, err := decode(c)
	if err != nil {
		return err
	}
	prop, err = h.svc.Update(httpserver.Context(c), prop, in)
	if err != nil {
		return err
	}
	return c.JSON(toJSON(prop))
}

func (h *Handler) delete(c *fiber.Ctx) error {
	if err := h.svc.Delete(httpserver.Context(c), auth.Current(c), c.Params("propertyId")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *Handler) archive(c *fiber.Ctx) error   { return h.setArchived(c, true) }
func (h *Handler) unarchive(c *fiber.Ctx) error { return h.setArchived(c, false) }

func (h *Handler) setArchived(c *fiber.Ctx, archived bool) error {
	prop, err := h.svc.Authorize(httpserver.Context(c), auth.Current(c), c.Params("propertyId"))
	if err != nil {
		return err
	}
	prop, err = h.svc.SetArchived(httpserver.Context(c), prop, archived)
	if err != nil {
		return err
	}
	return c.JSON(toJSON(prop))
}

func decode(c *fiber.Ctx) (Input, error) {
	var req propertyRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return Input{}, err
	}
	req.trim()
	if details := validate.Struct(&req); details != nil {
		return Input{}, apierror.Validation(details...)
	}
	return req.input(), nil
}
