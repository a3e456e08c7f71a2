package bills

import (
	"github.com/gofiber/fiber/v2"

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

// filters are the filters of both lists.
func filters() []listing.Filter {
	return []listing.Filter{
		listing.UUID("property_id"),
		listing.OneOf("category", Categories...),
		listing.OneOf("operating_cost_category", OperatingCategories...),
		listing.Date("from"), listing.Date("to"),
		listing.OneOf("status", Paid, Unpaid),
	}
}

func (h *Handler) list(c *fiber.Ctx) error {
	q, err := listing.Parse(c, filters()...)
	if err != nil {
		return err
	}
	p := auth.Current(c)
	list, res, err := h.svc.List(httpserver.Context(c), &p, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("bills", list, toJSON, res, q))
}

func (h *Handler) listProperty(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	prop, err := h.svc.Property(ctx, auth.Current(c), c.Params("propertyId"))
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, filters()...)
	if err != nil {
		return err
	}
	list, res, err := h.svc.ListProperty(ctx, prop, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("bills", list, toJSON, res, q))
}

func (h *Handler) create(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	p := auth.Current(c)
	// The access check comes before the body, so a stranger learns nothing
	// from validation messages.
	prop, err := h.svc.Property(ctx, p, c.Params("propertyId"))
	if err != nil {
		return err
	}
	var in Input
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	b, err := h.svc.Create(ctx, p, prop, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toJSON(b))
}

func (h *Handler) get(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	prop, err := h.svc.Property(ctx, auth.Current(c), c.Params("propertyId"))
	if err != nil {
		return err
	}
	b, err := h.svc.Get(ctx, prop, c.Params("billId"))
	if err != nil {
		return err
	}
	return c.JSON(toJSON(b))
}

func (h *Handler) update(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	p := auth.Current(c)
	prop, err := h.svc.Property(ctx, p, c.Params("propertyId"))
	if err != nil {
		return err
	}
	b, err := h.svc.Get(ctx, prop, c.Params("billId"))
	if err != nil {
		return err
	}
	var in Input
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	b, err = h.svc.Update(ctx, p, prop, b, in)
	if err != nil {
		return err
	}
	return c.JSON(toJSON(b))
}

func (h *Handler) delete(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	prop, err := h.svc.Property(ctx, auth.Current(c), c.Params("propertyId"))
	if err != nil {
		return err
	}
	b, err := h.svc.Get(ctx, prop, c.Params("billId"))
	if err != nil {
		return err
	}
	if err := h.svc.Delete(ctx, prop, b); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
