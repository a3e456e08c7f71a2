package counters

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/period"
)

// tenancy is the caller's own contract of the path, as its tenant.
type tenancy struct {
	contract *contracts.Contract
	prop     *properties.Property
	as       auth.Principal
}

func (h *Handler) tenancy(c *fiber.Ctx) (tenancy, error) {
	ct, prop, as, err := contracts.OwnTenancy(c, h.tenants)
	return tenancy{contract: ct, prop: prop, as: as}, err
}

// tenantCounter is the counter of the path when it is the contract's (its
// tenant pays what its readings bill), else 404: a tenant sees no other
// meter of the property.
func (h *Handler) tenantCounter(c *fiber.Ctx, t tenancy) (*Counter, error) {
	ctr, err := h.svc.Counter(httpserver.Context(c), t.prop, c.Params("counterId"))
	if err != nil {
		return nil, err
	}
	if ctr.ContractID == nil || *ctr.ContractID != t.contract.ID {
		return nil, errNoCounter()
	}
	return ctr, nil
}

func (h *Handler) tenantCounters(c *fiber.Ctx) error {
	t, err := h.tenancy(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, listing.OneOf("kind", Kinds...))
	if err != nil {
		return err
	}
	list, total, err := h.svc.Counters(httpserver.Context(c), t.prop, q.With("contract_id", t.contract.ID.String()))
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("counters", list, counterOut, total, q))
}

func (h *Handler) tenantReadings(c *fiber.Ctx) error {
	t, err := h.tenancy(c)
	if err != nil {
		return err
	}
	if _, err := h.tenantCounter(c, t); err != nil {
		return err
	}
	q, from, to, err := readingsQuery(c)
	if err != nil {
		return err
	}
	list, total, err := h.svc.Readings(httpserver.Context(c), t.prop, c.Params("counterId"), from, to, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("readings", list, readingOut, total, q))
}

func errContractNotActive(status string) error {
	return fault.Conflict("contract_not_active",
		"The contract is "+status+": readings can be sent only while it is active; ask the landlord to enter this one.")
}

// tenantAddReading appends a reading as the landlord's route does, with
// the same checks and answers, marked as the tenant's; only while the
// contract is active.
func (h *Handler) tenantAddReading(c *fiber.Ctx) error {
	t, err := h.tenancy(c)
	if err != nil {
		return err
	}
	if _, err := h.tenantCounter(c, t); err != nil {
		return err
	}
	if st := t.contract.StatusOn(period.DateOf(h.svc.clock.Now())); st != contracts.Active && st != contracts.Ending {
		return errContractNotActive(st)
	}
	in, err := decodeReading(c)
	if err != nil {
		return err
	}
	in.EnteredBy = ByTenant
	// The workspace's principal reaches the counter; created_by names the
	// tenant who sent the reading.
	as := t.as
	as.UserID = auth.Current(c).UserID
	r, err := h.svc.AddReading(httpserver.Context(c), as, t.prop, c.Params("counterId"), in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(readingOut(r))
}
