package notices

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/period"
)

// rentCall answers GET /contracts/{contractId}/rent-call?due=: the rent
// call's PDF of what falls due on that day and is still owed, as the
// tenant gets it (the contract's language unless ?locale= says another).
func (h *Handler) rentCall(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	ct, err := h.svc.AuthorizeContract(ctx, auth.Current(c), c.Params("contractId"))
	if err != nil {
		return err
	}
	raw := c.Query("due")
	day, err := period.ParseDate(raw)
	if raw == "" || err != nil {
		return apierror.Validation("due: must be a date (YYYY-MM-DD) on which charges of the contract fall due")
	}
	pdf, name, err := h.svc.RentCall(ctx, ct, day, c.Query("locale"))
	if err != nil {
		return apiError(err)
	}
	c.Set(fiber.HeaderContentType, "application/pdf")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	return c.Send(pdf)
}
