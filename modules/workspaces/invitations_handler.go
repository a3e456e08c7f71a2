package workspaces

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/listing"
)

// invitationJSON is an invitation as the workspace's owners see it; the
// token is never in it.
type invitationJSON struct {
	ID          int64  `json:"id"`
	WorkspaceID int64  `json:"workspace_id"`
	Email       string `json:"email"`
	Role        string `json:"role"`
	Status      string `json:"status"`
	InvitedBy   *int64 `json:"invited_by"`
	AcceptedBy  *int64 `json:"accepted_by"`
	ExpiresAt   string `json:"expires_at"`
	CreatedAt   string `json:"created_at"`
	UpdatedAt   string `json:"updated_at"`
}

func (h *InvitationHandler) invitationOf(inv *Invitation) invitationJSON {
	return invitationJSON{
		ID: inv.ID, WorkspaceID: inv.WorkspaceID, Email: inv.Email, Role: inv.Role,
		Status: inv.statusAt(h.svc.now()), InvitedBy: inv.InvitedBy, AcceptedBy: inv.AcceptedBy,
		ExpiresAt: timestamp(inv.ExpiresAt), CreatedAt: timestamp(inv.CreatedAt), UpdatedAt: timestamp(inv.UpdatedAt),
	}
}

type inviteRequest struct {
	Email string `json:"email"`
	Role  string `json:"role"`
}

// InvitationHandler serves the invitation routes.
type InvitationHandler struct {
	svc   *Invitations
	queue *jobs.Queue
}

// NewInvitationHandler returns the handler.
func NewInvitationHandler(svc *Invitations, queue *jobs.Queue) *InvitationHandler {
	return &InvitationHandler{svc: svc, queue: queue}
}

func (h *InvitationHandler) invite(c *fiber.Ctx) error {
	var req inviteRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	inv, err := h.svc.Invite(httpserver.Context(c), auth.Current(c), req.Email, req.Role)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(h.invitationOf(inv))
}

func (h *InvitationHandler) list(c *fiber.Ctx) error {
	q, err := listing.Parse(c)
	if err != nil {
		return err
	}
	list, res, err := h.svc.List(httpserver.Context(c), auth.Current(c), q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("invitations", list, h.invitationOf, res, q))
}

func (h *InvitationHandler) revoke(c *fiber.Ctx) error {
	id, err := strconv.ParseInt(c.Params("invitationId"), 10, 64)
	if err != nil || id <= 0 {
		return fault.NotFound("No invitation of this workspace has this id.")
	}
	if err := h.svc.Revoke(httpserver.Context(c), auth.Current(c), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *InvitationHandler) accept(c *fiber.Ctx) error {
	token := c.Params("token")
	// A token is 43 base64url characters; anything else is no invitation.
	if len(token) != 43 {
		return errInvitationNotFound()
	}
	m, err := h.svc.Accept(httpserver.Context(c), auth.Current(c), token)
	if err != nil {
		return err
	}
	return c.JSON(workspaceOf(h.queue, &m.Workspace, m.Role, m.IsDefault))
}
