package proposals

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
)

// Handler turns HTTP requests into proposal and application operations.
type Handler struct {
	svc          *Service
	cacheControl []byte
}

// headerCacheControl is the header's key as it goes on the wire, set
// without normalising it on every answer.
var headerCacheControl = []byte(fiber.HeaderCacheControl)

// NewHandler returns the handler.
func NewHandler(svc *Service) *Handler {
	return &Handler{svc: svc, cacheControl: []byte("public, max-age=" + strconv.Itoa(int(svc.cfg.MaxAge.Seconds())))}
}

func (h *Handler) property(c *fiber.Ctx) (*properties.Property, error) {
	return h.svc.Property(httpserver.Context(c), auth.Current(c), c.Params("propertyId"))
}

func (h *Handler) list(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, listing.OneOf("status", Draft, Published, Closed))
	if err != nil {
		return err
	}
	list, res, err := h.svc.List(httpserver.Context(c), prop, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("proposals", list, proposalView, res, q))
}

func (h *Handler) create(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	var in Input
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	pr, err := h.svc.Create(httpserver.Context(c), prop, &in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(proposalView(pr))
}

func (h *Handler) get(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	pr, err := h.svc.Proposal(httpserver.Context(c), prop, c.Params("proposalId"))
	if err != nil {
		return err
	}
	return c.JSON(proposalView(pr))
}

func (h *Handler) update(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	var in Input
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	pr, err := h.svc.Update(httpserver.Context(c), prop, c.Params("proposalId"), &in)
	if err != nil {
		return err
	}
	return c.JSON(proposalView(pr))
}

func (h *Handler) transition(to string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		prop, err := h.property(c)
		if err != nil {
			return err
		}
		pr, err := h.svc.Transition(httpserver.Context(c), prop, c.Params("proposalId"), to)
		if err != nil {
			return err
		}
		return c.JSON(proposalView(pr))
	}
}

func (h *Handler) applications(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, listing.OneOf("status", New, Shortlisted, Declined))
	if err != nil {
		return err
	}
	list, res, err := h.svc.Applications(httpserver.Context(c), prop, c.Params("proposalId"), q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("applications", list, applicationView, res, q))
}

func (h *Handler) decide(to string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		prop, err := h.property(c)
		if err != nil {
			return err
		}
		a, err := h.svc.Decide(httpserver.Context(c), prop, c.Params("proposalId"), c.Params("applicationId"), to)
		if err != nil {
			return err
		}
		return c.JSON(applicationView(a))
	}
}

// page answers the public page from memory when it can: no token, no
// workspace, one map look-up.
func (h *Handler) page(c *fiber.Ctx) error {
	slug := c.Params("slug")
	// The request's context (its deadline) is made only when the database
	// is needed: a hit costs a map look-up.
	p, hit, err := h.svc.Cached(slug)
	if !hit {
		p, err = h.svc.Page(httpserver.Context(c), slug)
	}
	if err != nil {
		return err
	}
	if err := httpserver.SendPayload(c, p); err != nil {
		return err
	}
	c.Response().Header.SetCanonical(headerCacheControl, h.cacheControl)
	return nil
}

func (h *Handler) apply(c *fiber.Ctx) error {
	var in ApplyInput
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	out, err := h.svc.Apply(httpserver.Context(c), c.Params("slug"), httpserver.ClientIP(c), c.Get(fiber.HeaderAcceptLanguage), &in)
	if err != nil {
		return err
	}
	httpserver.NoStore(c)
	return c.Status(fiber.StatusAccepted).JSON(out)
}

type confirmRequest struct {
	Code *string `json:"code"`
}

func (h *Handler) confirm(c *fiber.Ctx) error {
	var in confirmRequest
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	if in.Code == nil {
		return apierror.Validation("code: is required")
	}
	if err := h.svc.Confirm(httpserver.Context(c), c.Params("slug"), c.Params("applicationId"), *in.Code); err != nil {
		return err
	}
	httpserver.NoStore(c)
	return c.JSON(fiber.Map{"status": "received", "message": "Your application was received; the landlord will answer by email."})
}
