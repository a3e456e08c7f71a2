package workspaces

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/validate"
)

// Handler turns HTTP requests into service calls. The guard has checked
// the caller's role in the workspace of the path.
type Handler struct {
	svc   *Service
	queue *jobs.Queue
}

// NewHandler returns the handler.
func NewHandler(svc *Service, queue *jobs.Queue) *Handler { return &Handler{svc: svc, queue: queue} }

func (h *Handler) mine(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	p := auth.Current(c)
	// Made here too, so a new user's list is never empty.
	if _, err := h.svc.Default(ctx, p.UserID); err != nil {
		return err
	}
	list, err := h.svc.Mine(ctx, p.UserID)
	if err != nil {
		return err
	}
	out := workspaceList{Workspaces: make([]workspaceJSON, 0, len(list))}
	for i := range list {
		out.Workspaces = append(out.Workspaces, workspaceOf(h.queue, &list[i].Workspace, list[i].Role, list[i].IsDefault))
	}
	return c.JSON(out)
}

func (h *Handler) get(c *fiber.Ctx) error {
	p := auth.Current(c)
	w, err := h.svc.Current(httpserver.Context(c), p)
	if err != nil {
		return err
	}
	return c.JSON(h.view(c, w, p))
}

// view is w as p sees it.
func (h *Handler) view(c *fiber.Ctx, w *Workspace, p auth.Principal) workspaceJSON {
	def, _ := h.svc.Default(httpserver.Context(c), p.UserID)
	return workspaceOf(h.queue, w, p.Role.String(), def == w.ID)
}

func (h *Handler) update(c *fiber.Ctx) error {
	var req updateRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	if details := validate.Struct(&req); details != nil {
		return apierror.Validation(details...)
	}
	p := auth.Current(c)
	w, err := h.svc.Update(httpserver.Context(c), p, Update(req), h.queue.Kinds())
	if err != nil {
		return err
	}
	return c.JSON(h.view(c, w, p))
}

func (h *Handler) members(c *fiber.Ctx) error {
	q, err := listing.Parse(c)
	if err != nil {
		return err
	}
	list, res, err := h.svc.Members(httpserver.Context(c), auth.Current(c), q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("members", list, memberOf, res, q))
}

func (h *Handler) member(c *fiber.Ctx) error {
	id, err := userParam(c)
	if err != nil {
		return err
	}
	m, err := h.svc.Member(httpserver.Context(c), auth.Current(c), id)
	if err != nil {
		return err
	}
	return c.JSON(memberOf(m))
}

func (h *Handler) changeRole(c *fiber.Ctx) error {
	id, err := userParam(c)
	if err != nil {
		return err
	}
	var req roleRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	if details := validate.Struct(&req); details != nil {
		return apierror.Validation(details...)
	}
	m, err := h.svc.ChangeRole(httpserver.Context(c), auth.Current(c), id, req.Role)
	if err != nil {
		return err
	}
	return c.JSON(memberOf(m))
}

func (h *Handler) remove(c *fiber.Ctx) error {
	id, err := userParam(c)
	if err != nil {
		return err
	}
	if err := h.svc.Remove(httpserver.Context(c), auth.Current(c), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *Handler) leave(c *fiber.Ctx) error {
	p := auth.Current(c)
	if err := h.svc.Remove(httpserver.Context(c), p, p.UserID); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
