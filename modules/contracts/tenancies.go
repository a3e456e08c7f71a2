package contracts

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/httpserver"
)

// OwnTenancy answers a tenant route (…/tenancy/contracts/:contractId/…)
// of the modules that serve a tenant their records: the caller's own
// contract of the path, its property and the principal to read them as;
// 404 when it is not theirs, or when t is nil (the tenancy module is off).
func OwnTenancy(c *fiber.Ctx, t Tenancies) (*Contract, *properties.Property, auth.Principal, error) {
	if t == nil {
		return nil, nil, auth.Principal{}, fault.NotFound("Contract not found.")
	}
	return t.TenantContract(httpserver.Context(c), auth.Current(c).UserID, c.Params("contractId"))
}
