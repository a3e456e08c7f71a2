package receipts

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/money"
)

// Handler turns HTTP requests into service calls, after the property's
// access check.
type Handler struct {
	svc   *Service
	props *properties.Service
}

// NewHandler returns the handler.
func NewHandler(svc *Service, props *properties.Service) *Handler {
	return &Handler{svc: svc, props: props}
}

// NewRoutes lists every route of the module. Each needs a token.
func NewRoutes(h *Handler, guard *auth.Guard) module.Routes {
	const receipts = "/properties/:propertyId/receipts"
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get(receipts, auth.Viewer, h.list)
		r.Get(receipts+"/:receiptId", auth.Viewer, h.get)
	}}
}

func (h *Handler) list(c *fiber.Ctx) error {
	prop, err := h.props.Authorize(httpserver.Context(c), auth.Current(c), c.Params("propertyId"))
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, listing.OneOf("status", Issued, Void))
	if err != nil {
		return err
	}
	list, total, err := h.svc.List(httpserver.Context(c), prop, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("receipts", list, Out, total, q))
}

func (h *Handler) get(c *fiber.Ctx) error {
	prop, err := h.props.Authorize(httpserver.Context(c), auth.Current(c), c.Params("propertyId"))
	if err != nil {
		return err
	}
	r, err := h.svc.Receipt(httpserver.Context(c), prop, c.Params("receiptId"))
	if err != nil {
		return err
	}
	return c.JSON(Out(r))
}

// JSON is a receipt as clients see it.
type JSON struct {
	ID         string          `json:"id"`
	PropertyID string          `json:"property_id"`
	PaymentID  string          `json:"payment_id"`
	Number     string          `json:"number"`
	IssuedAt   string          `json:"issued_at"`
	Amount     money.Amount    `json:"amount"`
	Currency   string          `json:"currency"`
	Payer      string          `json:"payer"`
	Lines      []payments.Line `json:"lines"`
	Credit     money.Amount    `json:"credit"`
	Status     string          `json:"status"`
	VoidedAt   *string         `json:"voided_at"`
	VoidReason *string         `json:"void_reason"`
}

// Out converts a receipt for clients.
func Out(r *Receipt) JSON {
	out := JSON{
		ID: r.ID.String(), PropertyID: r.PropertyID.String(), PaymentID: r.PaymentID.String(), Number: r.Number,
		IssuedAt: properties.Timestamp(r.IssuedAt), Amount: r.Amount, Currency: r.Currency, Payer: r.Payer,
		Lines: r.Lines, Credit: r.Credit, Status: r.Status, VoidReason: r.VoidReason,
	}
	if out.Lines == nil {
		out.Lines = []payments.Line{}
	}
	if r.VoidedAt != nil {
		at := properties.Timestamp(*r.VoidedAt)
		out.VoidedAt = &at
	}
	return out
}
