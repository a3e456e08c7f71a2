package buildings

import (
	"fmt"
	"io"
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

func (h *Handler) list(c *fiber.Ctx) error {
	q, err := listing.Parse(c)
	if err != nil {
		return err
	}
	p := auth.Current(c)
	list, res, err := h.svc.List(httpserver.Context(c), &p, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("buildings", list, toJSON, res, q))
}

func (h *Handler) create(c *fiber.Ctx) error {
	var in Input
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	b, err := h.svc.Create(httpserver.Context(c), auth.Current(c), in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toJSON(b))
}

func (h *Handler) get(c *fiber.Ctx) error {
	b, err := h.svc.Authorize(httpserver.Context(c), auth.Current(c), c.Params("buildingId"))
	if err != nil {
		return err
	}
	return c.JSON(toJSON(b))
}

func (h *Handler) update(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	b, err := h.svc.Authorize(ctx, auth.Current(c), c.Params("buildingId"))
	if err != nil {
		return err
	}
	var in Input
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	if b, err = h.svc.Update(ctx, b, in); err != nil {
		return err
	}
	return c.JSON(toJSON(b))
}

func (h *Handler) delete(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	b, err := h.svc.Authorize(ctx, auth.Current(c), c.Params("buildingId"))
	if err != nil {
		return err
	}
	if err := h.svc.Delete(ctx, b); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *Handler) units(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	p := auth.Current(c)
	b, err := h.svc.Authorize(ctx, p, c.Params("buildingId"))
	if err != nil {
		return err
	}
	units, props, err := h.svc.Units(ctx, p, b)
	if err != nil {
		return err
	}
	out := make([]unitJSON, len(units))
	for i := range units {
		out[i] = unitOut(&units[i], props[i])
	}
	return c.JSON(fiber.Map{"units": out})
}

func (h *Handler) putUnit(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	p := auth.Current(c)
	b, err := h.svc.Authorize(ctx, p, c.Params("buildingId"))
	if err != nil {
		return err
	}
	var in UnitInput
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	u, prop, err := h.svc.PutUnit(ctx, p, b, c.Params("propertyId"), in)
	if err != nil {
		return err
	}
	return c.JSON(unitOut(u, prop))
}

func (h *Handler) deleteUnit(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	p := auth.Current(c)
	b, err := h.svc.Authorize(ctx, p, c.Params("buildingId"))
	if err != nil {
		return err
	}
	if err := h.svc.RemoveUnit(ctx, p, b, c.Params("propertyId")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *Handler) households(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	ct, err := h.svc.Contract(ctx, auth.Current(c), c.Params("contractId"))
	if err != nil {
		return err
	}
	list, err := h.svc.Households(ctx, ct)
	if err != nil {
		return err
	}
	out := make([]householdJSON, len(list))
	for i := range list {
		out[i] = householdOut(&list[i])
	}
	return c.JSON(fiber.Map{"household": out})
}

func (h *Handler) addHousehold(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	ct, err := h.svc.Contract(ctx, auth.Current(c), c.Params("contractId"))
	if err != nil {
		return err
	}
	var in HouseholdInput
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	hh, err := h.svc.AddHousehold(ctx, ct, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(householdOut(hh))
}

// maxImportBody bounds a unit import's file: about 40 bytes a unit.
const maxImportBody = 512 << 10

func (h *Handler) importUnits(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	p := auth.Current(c)
	b, err := h.svc.Authorize(ctx, p, c.Params("buildingId"))
	if err != nil {
		return err
	}
	var dryRun bool
	switch c.Query("dry_run") {
	case "", "false":
	case "true":
		dryRun = true
	default:
		return apierror.Validation("dry_run: must be true or false")
	}
	mt, _, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	var body []byte
	switch {
	case err == nil && mt == "text/csv":
		// Parsed into fresh strings before the handler returns, so Fiber's
		// reuse of its buffer does not matter.
		body = c.Body()
	case err == nil && mt == fiber.MIMEMultipartForm:
		fh, err := c.FormFile("file")
		if err != nil {
			return apierror.Validation("file: a multipart/form-data body with one file in the field \"file\" is required")
		}
		if fh.Size > maxImportBody {
			return apierror.Validation(fmt.Sprintf("file: must be at most %d KiB", maxImportBody>>10))
		}
		f, err := fh.Open()
		if err != nil {
			return fmt.Errorf("open unit import: %w", err)
		}
		defer f.Close()
		if body, err = io.ReadAll(io.LimitReader(f, maxImportBody+1)); err != nil {
			return fmt.Errorf("read unit import: %w", err)
		}
	default:
		return apierror.New(fiber.StatusUnsupportedMediaType, "unsupported_type",
			"The import takes a CSV file: send it with Content-Type: text/csv, or as the field \"file\" of a multipart/form-data body.")
	}
	if len(body) > maxImportBody {
		return apierror.Validation(fmt.Sprintf("file: must be at most %d KiB", maxImportBody>>10))
	}
	res, err := h.svc.ImportUnits(ctx, p, b, body, dryRun)
	if err != nil {
		return err
	}
	return c.JSON(res)
}
