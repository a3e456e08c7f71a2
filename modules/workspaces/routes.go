package workspaces

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// NewRoutes lists every route of the module with the least role it needs.
// A route under /workspaces/{workspaceId} acts in that workspace, whatever
// X-Workspace-ID says.
func NewRoutes(h *Handler, inv *InvitationHandler, guard *auth.Guard) module.Routes {
	const ws = "/workspaces/:workspaceId"
	return module.Routes{Module: Name, Register: func(api fiber.Router) {
		r := guard.Routes(api)
		r.Get("/workspaces", auth.SignedIn, h.mine)
		r.Get(ws, auth.Viewer, h.get)
		r.Patch(ws, auth.Owner, h.update)
		r.Get(ws+"/members", auth.Viewer, h.members)
		r.Get(ws+"/members/:userId", auth.Viewer, h.member)
		r.Patch(ws+"/members/:userId", auth.Owner, h.changeRole)
		r.Delete(ws+"/members/:userId", auth.Owner, h.remove)
		r.Post(ws+"/leave", auth.Viewer, h.leave)
		r.Post(ws+"/invitations", auth.Owner, inv.invite)
		r.Get(ws+"/invitations", auth.Owner, inv.list)
		r.Delete(ws+"/invitations/:invitationId", auth.Owner, inv.revoke)
		// Any signed-in user: the invited address is checked, not a role.
		r.Post("/invitations/:token/accept", auth.SignedIn, inv.accept)
		r.Get(ws+"/activity", auth.Manager, h.activity)
		r.Get(ws+"/runs", auth.Accountant, h.runs)
	}}
}
