package compensations

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
)

// Handler turns HTTP requests into service calls, the property checked
// first.
type Handler struct {
	svc   *Service
	props *properties.Service
}

// NewHandler returns the handler.
func NewHandler(svc *Service, props *properties.Service) *Handler {
	return &Handler{svc: svc, props: props}
}

func (h *Handler) property(c *fiber.Ctx) (*properties.Property, error) {
	return h.props.Authorize(httpserver.Context(c), auth.Current(c), c.Params("propertyId"))
}

func (h *Handler) list(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, listing.OneOf("status", Statuses...), listing.OneOf("kind", Kinds...), listing.UUID("contract_id"))
	if err != nil {
		return err
	}
	list, res, err := h.svc.List(httpserver.Context(c), prop, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("compensations", list, compensationOut, res, q))
}

func (h *Handler) create(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	var req createRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	in, details := req.input()
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	cp, err := h.svc.Create(httpserver.Context(c), auth.Current(c), prop, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toJSON(cp))
}

func (h *Handler) get(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	cp, err := h.svc.Get(httpserver.Context(c), prop, c.Params("compensationId"))
	if err != nil {
		return err
	}
	return c.JSON(toJSON(cp))
}

func (h *Handler) credit(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	cp, err := h.svc.Credit(httpserver.Context(c), auth.Current(c), prop, c.Params("compensationId"))
	if err != nil {
		return err
	}
	return c.JSON(toJSON(cp))
}

func (h *Handler) payOut(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	var req payOutRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	in, details := req.input(h.svc.Today())
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	cp, err := h.svc.PayOut(httpserver.Context(c), prop, c.Params("compensationId"), in)
	if err != nil {
		return err
	}
	return c.JSON(toJSON(cp))
}

func reason(c *fiber.Ctx) (string, error) {
	var req reasonRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return "", err
	}
	r := strings.TrimSpace(req.Reason)
	if n := utf8.RuneCountInString(r); n < 1 || n > 1000 {
		return "", apierror.Validation("reason: must be 1 to 1000 characters")
	}
	return r, nil
}

func (h *Handler) cancel(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	why, err := reason(c)
	if err != nil {
		return err
	}
	cp, err := h.svc.Cancel(httpserver.Context(c), prop, c.Params("compensationId"), why)
	if err != nil {
		return err
	}
	return c.JSON(toJSON(cp))
}

func (h *Handler) reverse(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	why, err := reason(c)
	if err != nil {
		return err
	}
	cp, err := h.svc.Reverse(httpserver.Context(c), auth.Current(c), prop, c.Params("compensationId"), why)
	if err != nil {
		return err
	}
	return c.JSON(toJSON(cp))
}

func (h *Handler) settle(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	var req settleRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	in, details := req.input()
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	st, err := h.svc.Settle(httpserver.Context(c), auth.Current(c), prop, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(settlementOut(st))
}

func (h *Handler) listSettlements(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, listing.UUID("contract_id"))
	if err != nil {
		return err
	}
	list, res, err := h.svc.Settlements(httpserver.Context(c), prop, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("deposit_settlements", list, settlementOut, res, q))
}

func (h *Handler) printSettlement(c *fiber.Ctx) error {
	locale := c.Query("locale")
	if locale != "" && !slices.Contains(statementLocales, locale) {
		return apierror.Validation("locale: must be one of " + strings.Join(statementLocales, ", "))
	}
	pdf, name, err := h.svc.StatementPDF(httpserver.Context(c), auth.Current(c), c.Params("settlementId"), strings.Clone(locale))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/pdf")
	c.Set(fiber.HeaderContentDisposition, `inline; filename="`+name+`"`)
	return c.Send(pdf)
}

// statementLocales are the languages a deposit statement is written in.
var statementLocales = []string{"en", "de", "fr", "es", "uk"}
