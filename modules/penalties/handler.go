package penalties

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
)

// Handler turns HTTP requests into service calls. Every route first
// checks, through the properties module, that the caller may use the
// property.
type Handler struct {
	svc   *Service
	props *properties.Service
	// charges renders the penalties in the caller's language.
	charges *expenses.Service
}

// NewHandler returns the handler.
func NewHandler(svc *Service, props *properties.Service, charges *expenses.Service) *Handler {
	return &Handler{svc: svc, props: props, charges: charges}
}

func (h *Handler) property(c *fiber.Ctx) (*properties.Property, error) {
	return h.props.Authorize(httpserver.Context(c), auth.Current(c), c.Params("propertyId"))
}

func (h *Handler) list(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, listing.UUID("contract_id"))
	if err != nil {
		return err
	}
	list, total, err := h.svc.List(httpserver.Context(c), prop, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("penalties", list, h.charges.ChargeJSONIn(h.charges.ReaderLocale(httpserver.Context(c), auth.Current(c))), total, q))
}

func (h *Handler) refresh(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	res, err := h.svc.Refresh(httpserver.Context(c), prop)
	if err != nil {
		return err
	}
	return c.JSON(res)
}
