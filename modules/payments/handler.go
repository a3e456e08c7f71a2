package payments

import (
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/period"
)

// Handler turns HTTP requests into service calls. Every route first
// checks, through the properties module, that the caller may use the
// property; only then is the body read.
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

var listFilters = []listing.Filter{
	listing.UUID("contract_id"),
	listing.OneOf("status", Posted, Reversed),
	listing.Date("from"),
	listing.Date("to"),
}

func (h *Handler) list(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, listFilters...)
	if err != nil {
		return err
	}
	list, total, err := h.svc.List(httpserver.Context(c), prop, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("payments", list, paymentOut, total, q))
}

func (h *Handler) get(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	p, err := h.svc.Payment(httpserver.Context(c), prop, c.Params("paymentId"))
	if err != nil {
		return err
	}
	return c.JSON(paymentOut(p))
}

func (h *Handler) create(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	var req paymentRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	in, details := req.input(h.svc.Today())
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	p, err := h.svc.Post(httpserver.Context(c), auth.Current(c), prop, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(paymentOut(p))
}

func (h *Handler) reverse(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	p, err := h.svc.Payment(httpserver.Context(c), prop, c.Params("paymentId"))
	if err != nil {
		return err
	}
	var req reverseRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	var reason string
	if req.Reason != nil {
		reason = strings.TrimSpace(*req.Reason)
	}
	switch n := utf8.RuneCountInString(reason); {
	case n == 0:
		return apierror.Validation("reason: is required (why the payment is reversed)")
	case n > MaxReasonLen:
		return apierror.Validation("reason: must be at most 500 characters")
	}
	p, err = h.svc.Reverse(httpserver.Context(c), auth.Current(c), prop, p, reason)
	if err != nil {
		return err
	}
	return c.JSON(paymentOut(p))
}

func (h *Handler) balance(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, listing.Date("as_of"), listing.UUID("contract_id"))
	if err != nil {
		return err
	}
	var asOf period.Date
	if v := q.Get("as_of"); v != "" {
		asOf, _ = period.ParseDate(v)
	}
	var contractID *uuid.UUID
	if v := q.Get("contract_id"); v != "" {
		id := uuid.MustParse(v)
		contractID = &id
	}
	b, err := h.svc.Balance(httpserver.Context(c), prop, contractID, asOf)
	if err != nil {
		return err
	}
	return c.JSON(b)
}
