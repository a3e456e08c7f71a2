package bankaccounts

import (
	"github.com/gofiber/fiber/v2"

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
	return c.JSON(listing.NewPage("bank_accounts", list, toJSON, res, q))
}

func (h *Handler) create(c *fiber.Ctx) error {
	var req accountRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	a, err := h.svc.Create(httpserver.Context(c), auth.Current(c), &req)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toJSON(a))
}

func (h *Handler) get(c *fiber.Ctx) error {
	p := auth.Current(c)
	a, err := h.svc.Get(httpserver.Context(c), &p, c.Params("bankAccountId"))
	if err != nil {
		return err
	}
	return c.JSON(toJSON(a))
}

func (h *Handler) update(c *fiber.Ctx) error {
	// The access check comes before the body, so a stranger learns nothing
	// from validation messages.
	p := auth.Current(c)
	if _, err := h.svc.Get(httpserver.Context(c), &p, c.Params("bankAccountId")); err != nil {
		return err
	}
	var req accountRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	a, err := h.svc.Update(httpserver.Context(c), p, c.Params("bankAccountId"), &req)
	if err != nil {
		return err
	}
	return c.JSON(toJSON(a))
}

func (h *Handler) delete(c *fiber.Ctx) error {
	if err := h.svc.Delete(httpserver.Context(c), auth.Current(c), c.Params("bankAccountId")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
