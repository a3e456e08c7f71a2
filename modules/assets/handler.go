package assets

import (
	"github.com/gofiber/fiber/v2"
	"go.uber.org/fx"
	"slices"
	"strings"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
)

// Handler turns HTTP requests into service calls. Every route first checks
// the property through the properties module (404 for another workspace's
// to a tenant, 403 otherwise); only then is the body read.
type Handler struct {
	svc   *Service
	props *properties.Service
}

// HandlerParams are the handler's dependencies.
type HandlerParams struct {
	fx.In

	Service    *Service
	Properties *properties.Service
}

// NewHandler returns the handler.
func NewHandler(p HandlerParams) *Handler { return &Handler{svc: p.Service, props: p.Properties} }

func (h *Handler) property(c *fiber.Ctx) (*properties.Property, error) {
	return h.props.Authorize(httpserver.Context(c), auth.Current(c), c.Params("propertyId"))
}

func (h *Handler) list(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, listing.Text("category", 50), listing.OneOf("condition", Conditions...))
	if err != nil {
		return err
	}
	list, res, err := h.svc.List(httpserver.Context(c), prop, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("assets", list, assetOut, res, q))
}

func decodeAsset(c *fiber.Ctx, create bool) (assetInput, error) {
	var req assetRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return assetInput{}, err
	}
	in, details := req.input(create)
	if len(details) > 0 {
		return assetInput{}, apierror.Validation(details...)
	}
	return in, nil
}

func (h *Handler) create(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	in, err := decodeAsset(c, true)
	if err != nil {
		return err
	}
	a, err := h.svc.Create(httpserver.Context(c), prop, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(assetOut(a))
}

func (h *Handler) get(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	a, err := h.svc.Asset(httpserver.Context(c), h.svc.db, prop, c.Params("assetId"))
	if err != nil {
		return err
	}
	return c.JSON(assetOut(a))
}

func (h *Handler) update(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	if _, err := h.svc.Asset(httpserver.Context(c), h.svc.db, prop, c.Params("assetId")); err != nil {
		return err
	}
	in, err := decodeAsset(c, false)
	if err != nil {
		return err
	}
	a, err := h.svc.Update(httpserver.Context(c), prop, c.Params("assetId"), in)
	if err != nil {
		return err
	}
	return c.JSON(assetOut(a))
}

func (h *Handler) delete(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	if err := h.svc.Delete(httpserver.Context(c), prop, c.Params("assetId")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *Handler) listInspections(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, listing.UUID("contract_id"), listing.OneOf("kind", CheckIn, CheckOut))
	if err != nil {
		return err
	}
	ctx := httpserver.Context(c)
	list, res, err := h.svc.Inspections(ctx, prop, q)
	if err != nil {
		return err
	}
	outs := make([]inspectionJSON, len(list))
	for i := range list {
		changes, err := h.svc.Changes(ctx, h.svc.db, &list[i])
		if err != nil {
			return err
		}
		outs[i] = inspectionOut(&list[i], changes)
	}
	return c.JSON(listing.NewPage("inspections", outs, func(o *inspectionJSON) inspectionJSON { return *o }, res, q))
}

func (h *Handler) createInspection(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	var req inspectionRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	in, details := req.input()
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	ctx := httpserver.Context(c)
	ins, err := h.svc.CreateInspection(ctx, auth.Current(c), prop, in)
	if err != nil {
		return err
	}
	changes, err := h.svc.Changes(ctx, h.svc.db, ins)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(inspectionOut(ins, changes))
}

func (h *Handler) getInspection(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	ctx := httpserver.Context(c)
	ins, err := h.svc.Inspection(ctx, prop, c.Params("inspectionId"))
	if err != nil {
		return err
	}
	changes, err := h.svc.Changes(ctx, h.svc.db, ins)
	if err != nil {
		return err
	}
	return c.JSON(inspectionOut(ins, changes))
}

func (h *Handler) printInspection(c *fiber.Ctx) error {
	locale := c.Query("locale")
	if locale != "" && !slices.Contains(reportLocales, locale) {
		return apierror.Validation("locale: must be one of " + strings.Join(reportLocales, ", "))
	}
	pdf, name, err := h.svc.InspectionPDF(httpserver.Context(c), auth.Current(c), c.Params("inspectionId"), strings.Clone(locale))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/pdf")
	c.Set(fiber.HeaderContentDisposition, `inline; filename="`+name+`"`)
	return c.Send(pdf)
}

// reportLocales are the languages an inspection report is written in.
var reportLocales = []string{"en", "de", "fr", "es", "uk"}
