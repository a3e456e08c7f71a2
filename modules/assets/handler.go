package assets

import (
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
)

// Handler turns HTTP requests into service calls. Every property route
// has its property authorised by properties.Service.Scope first (404 for
// another workspace's to a tenant, 403 otherwise, routes.go); only then is
// the body read.
type Handler struct {
	svc *Service
}

// NewHandler returns the handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

func (h *Handler) list(c *fiber.Ctx) error {
	prop := properties.Scoped(c)
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
	prop := properties.Scoped(c)
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
	prop := properties.Scoped(c)
	a, err := h.svc.Asset(httpserver.Context(c), prop, c.Params("assetId"))
	if err != nil {
		return err
	}
	return c.JSON(assetOut(a))
}

func (h *Handler) update(c *fiber.Ctx) error {
	prop := properties.Scoped(c)
	if _, err := h.svc.Asset(httpserver.Context(c), prop, c.Params("assetId")); err != nil {
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
	prop := properties.Scoped(c)
	if err := h.svc.Delete(httpserver.Context(c), prop, c.Params("assetId")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *Handler) listInspections(c *fiber.Ctx) error {
	prop := properties.Scoped(c)
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
		changes, err := h.svc.Changes(ctx, &list[i])
		if err != nil {
			return err
		}
		outs[i] = inspectionOut(&list[i], changes)
	}
	return c.JSON(listing.NewPage("inspections", outs, func(o *inspectionJSON) inspectionJSON { return *o }, res, q))
}

func (h *Handler) createInspection(c *fiber.Ctx) error {
	prop := properties.Scoped(c)
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
	changes, err := h.svc.Changes(ctx, ins)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(inspectionOut(ins, changes))
}

func (h *Handler) getInspection(c *fiber.Ctx) error {
	prop := properties.Scoped(c)
	ctx := httpserver.Context(c)
	ins, err := h.svc.Inspection(ctx, prop, c.Params("inspectionId"))
	if err != nil {
		return err
	}
	changes, err := h.svc.Changes(ctx, ins)
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
