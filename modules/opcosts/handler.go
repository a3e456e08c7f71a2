package opcosts

import (
	"encoding/json"

	"strings"

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

func (h *Handler) keys(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	b, err := h.svc.Building(ctx, auth.Current(c), c.Params("buildingId"))
	if err != nil {
		return err
	}
	keys, err := h.svc.Keys(ctx, b)
	if err != nil {
		return err
	}
	return c.JSON(keys)
}

func (h *Handler) setKeys(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	b, err := h.svc.Building(ctx, auth.Current(c), c.Params("buildingId"))
	if err != nil {
		return err
	}
	var in KeySet
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	keys, err := h.svc.SetKeys(ctx, b, in)
	if err != nil {
		return err
	}
	return c.JSON(keys)
}

func (h *Handler) create(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	p := auth.Current(c)
	b, err := h.svc.Building(ctx, p, c.Params("buildingId"))
	if err != nil {
		return err
	}
	var in Period
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	st, comp, err := h.svc.Create(ctx, p, b, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toJSON(b.Country, st, comp))
}

func (h *Handler) list(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	b, err := h.svc.Building(ctx, auth.Current(c), c.Params("buildingId"))
	if err != nil {
		return err
	}
	q, err := listing.Parse(c)
	if err != nil {
		return err
	}
	list, comps, res, err := h.svc.List(ctx, b, q)
	if err != nil {
		return err
	}
	byID := make(map[*Statement]*Computation, len(list))
	for i := range list {
		byID[&list[i]] = comps[i]
	}
	return c.JSON(listing.NewPage("statements", list, func(st *Statement) statementJSON { return toJSON(b.Country, st, byID[st]) }, res, q))
}

func (h *Handler) get(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	b, err := h.svc.Building(ctx, auth.Current(c), c.Params("buildingId"))
	if err != nil {
		return err
	}
	st, comp, err := h.svc.Get(ctx, b, c.Params("statementId"))
	if err != nil {
		return err
	}
	return c.JSON(toJSON(b.Country, st, comp))
}

func (h *Handler) post(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	p := auth.Current(c)
	b, err := h.svc.Building(ctx, p, c.Params("buildingId"))
	if err != nil {
		return err
	}
	st, comp, err := h.svc.Get(ctx, b, c.Params("statementId"))
	if err != nil {
		return err
	}
	var in PostInput
	if len(c.Body()) > 0 {
		if err := httpserver.DecodeJSON(c, &in); err != nil {
			return err
		}
		if in.LateNotAtFault == nil {
			return apierror.Validation("late_not_at_fault: is required in a body (leave the body out to excuse nothing)")
		}
	}
	if err := h.svc.Post(ctx, p, b, st, comp, in); err != nil {
		return err
	}
	return c.JSON(toJSON(b.Country, st, comp))
}

func (h *Handler) pdf(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	p := auth.Current(c)
	b, err := h.svc.Building(ctx, p, c.Params("buildingId"))
	if err != nil {
		return err
	}
	st, comp, err := h.svc.Get(ctx, b, c.Params("statementId"))
	if err != nil {
		return err
	}
	pdf, name, err := h.svc.PDF(ctx, b, st, comp, c.Params("contractId"), strings.Clone(c.Query("locale")))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/pdf")
	c.Set(fiber.HeaderContentDisposition, `inline; filename="`+name+`"`)
	return c.Send(pdf)
}

func (h *Handler) correct(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	p := auth.Current(c)
	b, err := h.svc.Building(ctx, p, c.Params("buildingId"))
	if err != nil {
		return err
	}
	st, comp, err := h.svc.Get(ctx, b, c.Params("statementId"))
	if err != nil {
		return err
	}
	// A body names co2 (null keeps the first statement's), as the doc
	// says; no body keeps it too.
	var in struct {
		CO2 json.RawMessage `json:"co2"`
	}
	var co2 *CO2Input
	if len(c.Body()) > 0 {
		if err := httpserver.DecodeJSON(c, &in); err != nil {
			return err
		}
		if in.CO2 == nil {
			return apierror.Validation("co2: is required in a body (null, or leave the body out, to keep the first statement's CO2 cost)")
		}
		if string(in.CO2) != "null" {
			co2 = new(CO2Input)
			if err := json.Unmarshal(in.CO2, co2); err != nil {
				return apierror.Validation("co2: must be an object {cost, emissions_kg} of numbers with at most 2 decimals")
			}
		}
	}
	next, ncomp, err := h.svc.Correct(ctx, p, b, st, comp, co2)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toJSON(b.Country, next, ncomp))
}

func (h *Handler) send(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	b, err := h.svc.Building(ctx, auth.Current(c), c.Params("buildingId"))
	if err != nil {
		return err
	}
	st, comp, err := h.svc.Get(ctx, b, c.Params("statementId"))
	if err != nil {
		return err
	}
	if err := h.svc.Send(ctx, b, st, comp); err != nil {
		return err
	}
	st, comp, err = h.svc.Get(ctx, b, st.ID.String())
	if err != nil {
		return err
	}
	return c.JSON(toJSON(b.Country, st, comp))
}

func (h *Handler) prepayment(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	b, err := h.svc.Building(ctx, auth.Current(c), c.Params("buildingId"))
	if err != nil {
		return err
	}
	st, comp, err := h.svc.Get(ctx, b, c.Params("statementId"))
	if err != nil {
		return err
	}
	var in PrepaymentInput
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	if _, err := h.svc.ConfirmPrepayment(ctx, b, st, comp, c.Params("contractId"), in); err != nil {
		return err
	}
	st, comp, err = h.svc.Get(ctx, b, st.ID.String())
	if err != nil {
		return err
	}
	return c.JSON(toJSON(b.Country, st, comp))
}

func (h *Handler) delete(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	b, err := h.svc.Building(ctx, auth.Current(c), c.Params("buildingId"))
	if err != nil {
		return err
	}
	st, _, err := h.svc.Get(ctx, b, c.Params("statementId"))
	if err != nil {
		return err
	}
	if err := h.svc.Delete(ctx, b, st); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *Handler) deadlines(c *fiber.Ctx) error {
	q, err := listing.Parse(c)
	if err != nil {
		return err
	}
	p := auth.Current(c)
	list, res, err := h.svc.Deadlines(httpserver.Context(c), &p, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("deadlines", list, func(d *BuildingDeadline) BuildingDeadline { return *d }, res, q))
}
