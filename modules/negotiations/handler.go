package negotiations

import (
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
)

// Handler turns HTTP requests into negotiation operations. The property
// routes have their property authorised by properties.Service.Scope
// (routes.go); the applicant's routes by their token.
type Handler struct {
	svc       *Service
	contracts *contracts.Service
}

// NewHandler returns the handler.
func NewHandler(svc *Service, ctr *contracts.Service) *Handler {
	return &Handler{svc: svc, contracts: ctr}
}

// negotiation is the property's negotiation of the route.
func (h *Handler) negotiation(c *fiber.Ctx) (*properties.Property, *Negotiation, error) {
	prop := properties.Scoped(c)
	n, err := h.svc.Of(httpserver.Context(c), prop, c.Params("negotiationId"))
	return prop, n, err
}

func (h *Handler) list(c *fiber.Ctx) error {
	prop := properties.Scoped(c)
	q, err := listing.Parse(c, listing.OneOf("status", Open, Agreed, Declined, Expired))
	if err != nil {
		return err
	}
	list, res, err := h.svc.List(httpserver.Context(c), prop, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("negotiations", list, listView, res, q))
}

func (h *Handler) open(c *fiber.Ctx) error {
	prop := properties.Scoped(c)
	var in OpenInput
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	n, rs, err := h.svc.Open(httpserver.Context(c), prop, &in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(view(n, rs))
}

func (h *Handler) get(c *fiber.Ctx) error {
	n, rs, err := h.svc.Get(httpserver.Context(c), properties.Scoped(c), c.Params("negotiationId"))
	if err != nil {
		return err
	}
	return c.JSON(view(n, rs))
}

func (h *Handler) offer(c *fiber.Ctx) error {
	prop, n, err := h.negotiation(c)
	if err != nil {
		return err
	}
	var in OfferInput
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	n, rs, err := h.svc.Offer(httpserver.Context(c), prop, n.ID, Landlord, &in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(view(n, rs))
}

type acceptRequest struct {
	Round *int `json:"round"`
}

func (h *Handler) accept(c *fiber.Ctx) error {
	_, n, err := h.negotiation(c)
	if err != nil {
		return err
	}
	var in acceptRequest
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	n, rs, err := h.svc.Accept(httpserver.Context(c), n.ID, Landlord, in.Round)
	if err != nil {
		return err
	}
	return c.JSON(view(n, rs))
}

func (h *Handler) decline(c *fiber.Ctx) error {
	_, n, err := h.negotiation(c)
	if err != nil {
		return err
	}
	n, rs, err := h.svc.Decline(httpserver.Context(c), n.ID, Landlord)
	if err != nil {
		return err
	}
	return c.JSON(view(n, rs))
}

func (h *Handler) contract(c *fiber.Ctx) error {
	prop := properties.Scoped(c)
	k, created, err := h.svc.Contract(httpserver.Context(c), prop, c.Params("negotiationId"))
	if err != nil {
		return err
	}
	status := fiber.StatusOK
	if created {
		status = fiber.StatusCreated
	}
	return c.Status(status).JSON(h.contracts.View(k))
}

// The applicant's routes: the token is the only credential.

func (h *Handler) token(c *fiber.Ctx) (uuid.UUID, error) {
	httpserver.NoStore(c)
	return h.svc.ByToken(c.Params("token"))
}

func (h *Handler) publicGet(c *fiber.Ctx) error {
	id, err := h.token(c)
	if err != nil {
		return err
	}
	n, rs, err := h.svc.Load(httpserver.Context(c), id)
	if err != nil {
		return err
	}
	return c.JSON(publicView(n, rs))
}

func (h *Handler) publicOffer(c *fiber.Ctx) error {
	id, err := h.token(c)
	if err != nil {
		return err
	}
	ctx := httpserver.Context(c)
	n, _, err := h.svc.Load(ctx, id)
	if err != nil {
		return err
	}
	var in OfferInput
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	prop, err := h.svc.PropertyOf(ctx, n)
	if err != nil {
		return err
	}
	n, rs, err := h.svc.Offer(ctx, prop, id, Applicant, &in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(publicView(n, rs))
}

func (h *Handler) publicAccept(c *fiber.Ctx) error {
	id, err := h.token(c)
	if err != nil {
		return err
	}
	var in acceptRequest
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	n, rs, err := h.svc.Accept(httpserver.Context(c), id, Applicant, in.Round)
	if err != nil {
		return err
	}
	return c.JSON(publicView(n, rs))
}

func (h *Handler) publicDecline(c *fiber.Ctx) error {
	id, err := h.token(c)
	if err != nil {
		return err
	}
	n, rs, err := h.svc.Decline(httpserver.Context(c), id, Applicant)
	if err != nil {
		return err
	}
	return c.JSON(publicView(n, rs))
}
