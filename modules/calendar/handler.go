package calendar

import (
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/period"
)

// Handler turns HTTP requests into service calls.
type Handler struct{ svc *Service }

// NewHandler returns the handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// list answers the paged list of stored events, or, given from and to,
// the window of every occurrence and derived event.
func (h *Handler) list(c *fiber.Ctx) error {
	if c.Query("from") != "" || c.Query("to") != "" {
		return h.window(c)
	}
	q, err := listing.Parse(c, listing.UUID("property_id"), listing.UUID("contract_id"), listing.OneOf("kind", Kinds...))
	if err != nil {
		return err
	}
	f := ListFilter{PropertyID: q.Get("property_id"), ContractID: q.Get("contract_id"), Kind: q.Get("kind")}
	list, res, err := h.svc.List(httpserver.Context(c), auth.Current(c), f, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("calendar_events", list, toJSON, res, q))
}

func (h *Handler) window(c *fiber.Ctx) error {
	var details []string
	q := WindowQuery{Loc: nil}
	from, err := period.ParseDate(c.Query("from"))
	if err != nil {
		details = append(details, "from: "+err.Error())
	}
	to, err2 := period.ParseDate(c.Query("to"))
	if err2 != nil {
		details = append(details, "to: "+err2.Error())
	}
	if err == nil && err2 == nil && to.Before(from) {
		details = append(details, "to: must not be before from")
	}
	name := c.Query("time_zone", "UTC")
	loc, ok := zone(name)
	if !ok {
		details = append(details, "time_zone: must be an IANA time zone name such as Europe/Berlin")
	}
	for _, f := range []struct {
		name string
		dst  **uuid.UUID
	}{{"property_id", &q.PropertyID}, {"contract_id", &q.ContractID}} {
		if v := c.Query(f.name); v != "" {
			id, err := uuid.Parse(v)
			if err != nil || len(v) != 36 {
				details = append(details, f.name+": must be a UUID")
				continue
			}
			*f.dst = &id
		}
	}
	if v := c.Query("kind"); v != "" {
		q.Kinds = map[string]bool{}
		for _, k := range strings.Split(v, ",") {
			if !slices.Contains(Kinds, k) && !slices.Contains(DerivedKinds, k) {
				details = append(details, "kind: must be a comma-separated list of "+strings.Join(append(slices.Clone(Kinds), DerivedKinds...), ", "))
				break
			}
			q.Kinds[k] = true
		}
	}
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	if to.Time().Sub(from.Time()).Hours()/24+1 > maxWindowDays {
		return errWindowTooLong()
	}
	q.From, q.To, q.Loc = from, to, loc
	p := auth.Current(c)
	if u, ok := p.Record.(*accounts.User); ok {
		q.Locale = u.Locale
	}
	list, err := h.svc.Window(httpserver.Context(c), p.WorkspaceID, q)
	if err != nil {
		return err
	}
	body := appendWindow(make([]byte, 0, 64+400*len(list)), from.String(), to.String(), loc.String(), list)
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(body)
}

func (h *Handler) create(c *fiber.Ctx) error {
	var req eventRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	e, err := h.svc.Create(httpserver.Context(c), auth.Current(c), req)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toJSON(e))
}

func (h *Handler) event(c *fiber.Ctx) (*Event, error) {
	return h.svc.Authorize(httpserver.Context(c), auth.Current(c), c.Params("eventId"))
}

func (h *Handler) get(c *fiber.Ctx) error {
	e, err := h.event(c)
	if err != nil {
		return err
	}
	return c.JSON(toJSON(e))
}

func (h *Handler) update(c *fiber.Ctx) error {
	e, err := h.event(c)
	if err != nil {
		return err
	}
	var req eventRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	e, err = h.svc.Update(httpserver.Context(c), auth.Current(c), e, req)
	if err != nil {
		return err
	}
	return c.JSON(toJSON(e))
}

func (h *Handler) delete(c *fiber.Ctx) error {
	e, err := h.event(c)
	if err != nil {
		return err
	}
	if err := h.svc.Delete(httpserver.Context(c), e); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *Handler) rotate(c *fiber.Ctx) error {
	token, err := h.svc.RotateFeedToken(httpserver.Context(c), auth.Current(c))
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(feedTokenJSON{Token: token, URL: h.svc.FeedURL(token)})
}

func (h *Handler) feed(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	ws, locale, ok, err := h.svc.FeedOwner(ctx, c.Params("token"))
	if err != nil {
		return err
	}
	if !ok {
		return apierror.NotFound("Calendar feed not found.")
	}
	body, err := h.svc.Feed(ctx, ws, locale)
	if err != nil {
		return err
	}
	etag := etagOf(body)
	c.Set(fiber.HeaderETag, etag)
	c.Set(fiber.HeaderCacheControl, "private, no-cache")
	if inm := c.Get(fiber.HeaderIfNoneMatch); inm != "" && httpserver.ETagMatches(inm, etag) {
		return c.SendStatus(fiber.StatusNotModified)
	}
	c.Set(fiber.HeaderContentType, "text/calendar; charset=utf-8")
	return c.Send(body)
}
