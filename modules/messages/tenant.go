package messages

import (
	"context"

	"github.com/gofiber/fiber/v2"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/validate"
)

// ForTenant returns one page of the messages of contract c's thread that
// its tenant sees (all but the landlord's notes), newest first.
func (s *Service) ForTenant(ctx context.Context, c *contracts.Contract, q listing.Query) ([]Message, listing.Result, error) {
	return listOfTenant(ctx, s.db, c.ID, q)
}

// TenantPost files a portal message of the tenant (userID) of c: direction
// in, channel portal, authored by the user and the contract's tenant.
func (s *Service) TenantPost(ctx context.Context, userID int64, c *contracts.Contract, prop *properties.Property, subject, body string) (*Message, error) {
	m := &Message{Direction: In, Channel: ptr(Portal), Subject: subject, Body: body,
		AuthorUserID: &userID, AuthorContragentID: &c.TenantID}
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		_, err := s.insert(ctx, tx, c.WorkspaceID, prop.ID, &c.ID, c.TenantID, m)
		return err
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// tenancy finds the caller's own contract of the path.
func (h *Handler) tenancy(c *fiber.Ctx) (*contracts.Contract, *properties.Property, error) {
	ct, prop, _, err := contracts.OwnTenancy(c, h.tenants)
	return ct, prop, err
}

func (h *Handler) tenantList(c *fiber.Ctx) error {
	ct, _, err := h.tenancy(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c)
	if err != nil {
		return err
	}
	list, res, err := h.svc.ForTenant(httpserver.Context(c), ct, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("messages", list, toJSON, res, q))
}

type tenantRequest struct {
	Subject *string `json:"subject"`
	Body    *string `json:"body" validate:"multiline"`
}

func (h *Handler) tenantCreate(c *fiber.Ctx) error {
	ct, prop, err := h.tenancy(c)
	if err != nil {
		return err
	}
	var req tenantRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	details := validate.Struct(&req)
	subject, body := checkText(req.Subject, req.Body, false, &details)
	if len(details) > 0 {
		return fault.Validation(details...)
	}
	m, err := h.svc.TenantPost(httpserver.Context(c), auth.Current(c).UserID, ct, prop, subject, body)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toJSON(m))
}
