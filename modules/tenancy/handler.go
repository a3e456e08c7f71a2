package tenancy

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/modules/receipts"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/period"
)

// Handler serves the portal. Every /tenancy route first finds the
// caller's own contract (Service.Contract): another's is 404.
type Handler struct {
	svc      *Service
	leases   *contracts.Service
	charges  *expenses.Service
	payments *payments.Service
	receipts *receipts.Service
}

// NewHandler returns the handler.
func NewHandler(svc *Service, ctr *contracts.Service, ch *expenses.Service, pay *payments.Service, rec *receipts.Service) *Handler {
	return &Handler{svc: svc, leases: ctr, charges: ch, payments: pay, receipts: rec}
}

// invitationJSON is a portal invitation; its token is only in the mail.
type invitationJSON struct {
	ID           int64  `json:"id"`
	ContragentID string `json:"contragent_id"`
	WorkspaceID  int64  `json:"workspace_id"`
	Email        string `json:"email"`
	Status       string `json:"status"`
	ExpiresAt    string `json:"expires_at"`
	CreatedAt    string `json:"created_at"`
}

func (h *Handler) invitationOf(i *Invitation) invitationJSON {
	return invitationJSON{
		ID: i.ID, ContragentID: i.ContragentID.String(), WorkspaceID: i.WorkspaceID, Email: i.Email,
		Status: i.StatusAt(h.svc.Now()), ExpiresAt: i.ExpiresAt.UTC().Format(time.RFC3339), CreatedAt: i.CreatedAt.UTC().Format(time.RFC3339),
	}
}

func (h *Handler) invite(c *fiber.Ctx) error {
	inv, err := h.svc.Invite(httpserver.Context(c), auth.Current(c), c.Params("contragentId"))
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(h.invitationOf(inv))
}

func (h *Handler) accept(c *fiber.Ctx) error {
	token := c.Params("token")
	if len(token) > 100 {
		return errNoInvitation()
	}
	inv, err := h.svc.Accept(httpserver.Context(c), auth.Current(c).UserID, token)
	if err != nil {
		return err
	}
	return c.JSON(h.invitationOf(inv))
}

func (h *Handler) contracts(c *fiber.Ctx) error {
	q, err := listing.Parse(c)
	if err != nil {
		return err
	}
	list, res, err := h.svc.Contracts(httpserver.Context(c), auth.Current(c).UserID, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("contracts", list, h.leases.View, res, q))
}

func (h *Handler) tenancy(c *fiber.Ctx) (*Tenancy, error) {
	return h.svc.Contract(httpserver.Context(c), auth.Current(c).UserID, c.Params("contractId"))
}

func (h *Handler) contract(c *fiber.Ctx) error {
	t, err := h.tenancy(c)
	if err != nil {
		return err
	}
	return c.JSON(h.leases.View(t.Contract))
}

func (h *Handler) chargeList(c *fiber.Ctx) error {
	t, err := h.tenancy(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c)
	if err != nil {
		return err
	}
	list, total, err := h.charges.Charges(httpserver.Context(c), t.Property, q.With("contract_id", t.Contract.ID.String()))
	if err != nil {
		return err
	}
	// The tenant reads the contract's language.
	return c.JSON(listing.NewPage("charges", list, h.charges.ChargeJSONIn(t.Contract.Locale), total, q))
}

func (h *Handler) balance(c *fiber.Ctx) error {
	t, err := h.tenancy(c)
	if err != nil {
		return err
	}
	b, err := h.payments.Balance(httpserver.Context(c), t.Property, &t.Contract.ID, period.Date{})
	if err != nil {
		return err
	}
	return c.JSON(b)
}

func (h *Handler) receiptList(c *fiber.Ctx) error {
	t, err := h.tenancy(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c)
	if err != nil {
		return err
	}
	list, total, err := h.receipts.ListForContract(httpserver.Context(c), t.Property, t.Contract.ID, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("receipts", list, receipts.Out, total, q))
}
