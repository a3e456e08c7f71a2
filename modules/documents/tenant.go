package documents

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/period"
)

// A tenant sees a shared document of their contract for as long as they
// see the contract (their own lease stays theirs after it ends), and a
// shared document of the property (one of no contract) while their
// contract is active: those are for whoever lives there now.
func visibleTo(d *Document, c *contracts.Contract, today period.Date) bool {
	switch {
	case !d.SharedWithTenant:
		return false
	case d.ContractID != nil:
		return *d.ContractID == c.ID
	default:
		st := c.StatusOn(today)
		return st == contracts.Active || st == contracts.Ending
	}
}

// ForTenant returns one page of the documents prop's contract c's tenant
// sees (visibleTo).
func (s *Service) ForTenant(ctx context.Context, prop *properties.Property, c *contracts.Contract, q listing.Query) ([]Document, listing.Result, error) {
	st := c.StatusOn(period.DateOf(s.clock.Now()))
	withProperty := st == contracts.Active || st == contracts.Ending
	return s.store.Shared(ctx, prop.ID, c.ID, withProperty, q)
}

// TenantDocument returns the document with the raw id when the tenant of
// c sees it, else 404, the same answer as for an unknown id.
func (s *Service) TenantDocument(ctx context.Context, prop *properties.Property, c *contracts.Contract, rawID string) (*Document, error) {
	d, err := s.Get(ctx, prop, rawID)
	if err != nil {
		return nil, err
	}
	if !visibleTo(d, c, period.DateOf(s.clock.Now())) {
		return nil, fault.NotFound("Document not found.")
	}
	return d, nil
}

// tenancy finds the caller's own contract of the path.
func (h *Handler) tenancy(c *fiber.Ctx) (*contracts.Contract, *properties.Property, error) {
	ct, prop, _, err := contracts.OwnTenancy(c, h.tenants)
	return ct, prop, err
}

func (h *Handler) tenantList(c *fiber.Ctx) error {
	ct, prop, err := h.tenancy(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, listing.OneOf("category", categories...))
	if err != nil {
		return err
	}
	list, total, err := h.svc.ForTenant(httpserver.Context(c), prop, ct, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("documents", list, toJSON, total, q))
}

func (h *Handler) tenantContent(c *fiber.Ctx) error {
	ct, prop, err := h.tenancy(c)
	if err != nil {
		return err
	}
	d, err := h.svc.TenantDocument(httpserver.Context(c), prop, ct, c.Params("documentId"))
	if err != nil {
		return err
	}
	return h.send(c, d)
}
