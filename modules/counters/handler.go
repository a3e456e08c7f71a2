package counters

import (
	"mime"

	"github.com/gofiber/fiber/v2"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/contracts"
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
	svc     *Service
	props   *properties.Service
	tenants contracts.Tenancies
}

// HandlerParams are the handler's dependencies as fx provides them.
type HandlerParams struct {
	fx.In

	Service    *Service
	Properties *properties.Service
	// Tenancies is nil when the tenancy module is off: the tenant routes
	// then answer 404.
	Tenancies contracts.Tenancies `optional:"true"`
}

// NewHandler returns the handler.
func NewHandler(p HandlerParams) *Handler {
	return &Handler{svc: p.Service, props: p.Properties, tenants: p.Tenancies}
}

func (h *Handler) property(c *fiber.Ctx) (*properties.Property, error) {
	return h.props.Authorize(httpserver.Context(c), auth.Current(c), c.Params("propertyId"))
}

func (h *Handler) listCounters(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, listing.OneOf("kind", Kinds...))
	if err != nil {
		return err
	}
	list, total, err := h.svc.Counters(httpserver.Context(c), prop, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("counters", list, counterOut, total, q))
}

func decodeCounter(c *fiber.Ctx) (CounterInput, error) {
	var req counterRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return CounterInput{}, err
	}
	in, details := req.input()
	if len(details) > 0 {
		return CounterInput{}, apierror.Validation(details...)
	}
	return in, nil
}

func (h *Handler) createCounter(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	in, err := decodeCounter(c)
	if err != nil {
		return err
	}
	ctr, err := h.svc.CreateCounter(httpserver.Context(c), prop, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(counterOut(ctr))
}

func (h *Handler) getCounter(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	ctr, err := h.svc.Counter(httpserver.Context(c), prop, c.Params("counterId"))
	if err != nil {
		return err
	}
	return c.JSON(counterOut(ctr))
}

func (h *Handler) updateCounter(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	if _, err := h.svc.Counter(httpserver.Context(c), prop, c.Params("counterId")); err != nil {
		return err
	}
	in, err := decodeCounter(c)
	if err != nil {
		return err
	}
	ctr, err := h.svc.UpdateCounter(httpserver.Context(c), prop, c.Params("counterId"), in)
	if err != nil {
		return err
	}
	return c.JSON(counterOut(ctr))
}

func (h *Handler) deleteCounter(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	if err := h.svc.DeleteCounter(httpserver.Context(c), prop, c.Params("counterId")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *Handler) listReadings(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	q, from, to, err := readingsQuery(c)
	if err != nil {
		return err
	}
	list, total, err := h.svc.Readings(httpserver.Context(c), prop, c.Params("counterId"), from, to, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("readings", list, readingOut, total, q))
}

// readingsQuery reads a readings list's query: its page and from..to.
func readingsQuery(c *fiber.Ctx) (q listing.Query, from, to period.Date, err error) {
	q, err = listing.Parse(c, listing.Date("from"), listing.Date("to"))
	if err != nil {
		return q, from, to, err
	}
	var details []string
	if v := q.Get("from"); v != "" {
		if from, err = period.ParseDate(v); err != nil {
			details = append(details, "from: "+err.Error())
		}
	}
	if v := q.Get("to"); v != "" {
		if to, err = period.ParseDate(v); err != nil {
			details = append(details, "to: "+err.Error())
		}
	}
	if len(details) > 0 {
		return q, from, to, apierror.Validation(details...)
	}
	return q, from, to, nil
}

func (h *Handler) addReading(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	if _, err := h.svc.Counter(httpserver.Context(c), prop, c.Params("counterId")); err != nil {
		return err
	}
	in, err := decodeReading(c)
	if err != nil {
		return err
	}
	r, err := h.svc.AddReading(httpserver.Context(c), auth.Current(c), prop, c.Params("counterId"), in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(readingOut(r))
}

func decodeReading(c *fiber.Ctx) (ReadingInput, error) {
	var req readingRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return ReadingInput{}, err
	}
	in, details := req.input()
	if len(details) > 0 {
		return ReadingInput{}, apierror.Validation(details...)
	}
	return in, nil
}

func (h *Handler) deleteReading(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	err = h.svc.DeleteReading(httpserver.Context(c), auth.Current(c), prop, c.Params("counterId"), c.Params("readingId"))
	if err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *Handler) importReadings(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	mt, _, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if err != nil || mt != "text/csv" {
		return apierror.New(fiber.StatusUnsupportedMediaType, "unsupported_type",
			"The import takes a CSV file: send it with Content-Type: text/csv.")
	}
	// The body is parsed into values before the handler returns, so
	// Fiber's reuse of its buffer does not matter.
	res, err := h.svc.Import(httpserver.Context(c), auth.Current(c), prop, c.Params("counterId"), c.Body())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(res)
}

func (h *Handler) consumption(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	if by := c.Query("by"); by != "" && by != "month" {
		return apierror.Validation("by: must be month (the only grouping so far)")
	}
	rep, err := h.svc.Consumption(httpserver.Context(c), prop, c.Params("counterId"), c.Query("from"), c.Query("to"))
	if err != nil {
		return err
	}
	return c.JSON(rep)
}
