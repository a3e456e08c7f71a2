package expenses

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/period"
)

// Handler turns HTTP requests into service calls. Every route first
// checks, through the properties module, that the caller may use the
// property; only then is the body read, so a stranger learns nothing from
// validation messages.
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

func (h *Handler) listExpenses(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c)
	if err != nil {
		return err
	}
	list, total, err := h.svc.Expenses(httpserver.Context(c), prop, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("expenses", list, h.expenseJSON(c), total, q))
}

func (h *Handler) createExpense(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	in, err := decodeExpense(c)
	if err != nil {
		return err
	}
	e, err := h.svc.CreateExpense(httpserver.Context(c), prop, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(h.expenseJSON(c)(e))
}

func (h *Handler) getExpense(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	e, err := h.svc.Expense(httpserver.Context(c), prop, c.Params("expenseId"))
	if err != nil {
		return err
	}
	return c.JSON(h.expenseJSON(c)(e))
}

func (h *Handler) updateExpense(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	in, err := decodeExpense(c)
	if err != nil {
		return err
	}
	e, err := h.svc.UpdateExpense(httpserver.Context(c), prop, c.Params("expenseId"), in)
	if err != nil {
		return err
	}
	return c.JSON(h.expenseJSON(c)(e))
}

func (h *Handler) deleteExpense(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	if err := h.svc.DeleteExpense(httpserver.Context(c), prop, c.Params("expenseId")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *Handler) refreshAll(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	since, err := sinceParam(c.Query("since"))
	if err != nil {
		return err
	}
	res, err := h.svc.RefreshAll(httpserver.Context(c), prop, since)
	if err != nil {
		return err
	}
	return c.JSON(res)
}

func (h *Handler) listCharges(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, chargeFilters...)
	if err != nil {
		return err
	}
	list, total, err := h.svc.Charges(httpserver.Context(c), prop, q)
	if err != nil {
		return err
	}
	loc := h.svc.ReaderLocale(httpserver.Context(c), auth.Current(c))
	return c.JSON(listing.NewPage("charges", list, h.svc.ChargeJSONIn(loc), total, q))
}

// chargeFilters are the query parameters of the charge list.
var chargeFilters = []listing.Filter{
	{Name: "period", Rule: "must be a month (2026-11), a quarter (2026-Q4) or a year (2026)", OK: period.ValidLabel, MaxLen: 7},
	listing.OneOf("status", Statuses...),
	listing.UUID("contract_id"),
	listing.OneOf("kind", Regular, Penalty, Fine),
}

func (h *Handler) createCharge(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	var req chargeRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	in, details := req.input()
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	ch, err := h.svc.CreateCharge(httpserver.Context(c), prop, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(h.svc.ChargeJSONIn(h.svc.ReaderLocale(httpserver.Context(c), auth.Current(c)))(ch))
}

func decodeExpense(c *fiber.Ctx) (ExpenseInput, error) {
	var req expenseRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return ExpenseInput{}, err
	}
	in, details := req.input()
	if len(details) > 0 {
		return ExpenseInput{}, apierror.Validation(details...)
	}
	return in, nil
}

// expenseJSON renders expenses for the caller, generated names in their
// profile's locale.
func (h *Handler) expenseJSON(c *fiber.Ctx) func(*Expense) expenseJSON {
	return h.svc.ExpenseJSONIn(h.svc.ReaderLocale(httpserver.Context(c), auth.Current(c)))
}
