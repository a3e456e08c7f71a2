package profile

import (
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/workspaces"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/ratelimit"
)

// Handler serves /user.
type Handler struct {
	accounts   *accounts.Service
	workspaces *workspaces.Service
}

// NewHandler returns the handler.
func NewHandler(svc *accounts.Service, ws *workspaces.Service) *Handler {
	return &Handler{accounts: svc, workspaces: ws}
}

// profileJSON is the profile with the workspace requests act in when they
// name none.
type profileJSON struct {
	accounts.ProfileView
	DefaultWorkspaceID *int64 `json:"default_workspace_id"`
}

func (h *Handler) view(c *fiber.Ctx, u *accounts.User) (profileJSON, error) {
	out := profileJSON{ProfileView: h.accounts.ProfileView(u)}
	id, err := h.workspaces.Default(httpserver.Context(c), u.ID)
	if err != nil {
		return profileJSON{}, err
	}
	if id > 0 {
		out.DefaultWorkspaceID = &id
	}
	return out, nil
}

func (h *Handler) get(c *fiber.Ctx) error {
	u, err := h.accounts.User(httpserver.Context(c), auth.Current(c).UserID)
	if err != nil {
		return mapError(err)
	}
	out, err := h.view(c, u)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

func (h *Handler) update(c *fiber.Ctx) error {
	var req updateRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	in := accounts.ProfileUpdate{Name: req.Name, Locale: req.Locale, CountryCode: req.CountryCode, LandlordType: req.LandlordType}
	if req.Phone.Present {
		in.Phone = req.Phone.Value
		in.ClearPhone = req.Phone.Value == nil
	}
	if req.PostalAddress.Present {
		if a := req.PostalAddress.Value; a != nil {
			in.PostalAddress = &accounts.PostalAddress{Address: a.Address, PostalCode: a.PostalCode, City: a.City, CountryCode: a.CountryCode}
		} else {
			in.ClearPostalAddress = true
		}
	}
	ctx, me := httpserver.Context(c), auth.Current(c).UserID
	if req.DefaultWorkspaceID != nil {
		if err := h.checkDefault(c, *req.DefaultWorkspaceID); err != nil {
			return err
		}
	}
	u, err := h.accounts.UpdateProfile(ctx, me, in)
	if err != nil {
		return mapError(err)
	}
	if req.DefaultWorkspaceID != nil {
		if err := h.workspaces.SetDefault(ctx, me, *req.DefaultWorkspaceID, "default_workspace_id"); err != nil {
			return err
		}
	}
	out, err := h.view(c, u)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

func (h *Handler) changePassword(c *fiber.Ctx) error {
	var req passwordRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	if err := h.accounts.ChangePassword(httpserver.Context(c), auth.Current(c).UserID, req.CurrentPassword, req.NewPassword); err != nil {
		return mapError(err)
	}
	return c.JSON(messageResponse{Message: "Your password has been changed; log in again with the new password."})
}

func (h *Handler) roles(c *fiber.Ctx) error {
	u, err := h.accounts.User(httpserver.Context(c), auth.Current(c).UserID)
	if err != nil {
		return mapError(err)
	}
	return c.JSON(rolesResponse{Roles: u.Roles.List()})
}

// mapError words the accounts service's errors in the standard shape.
func mapError(err error) error {
	var fe *accounts.FieldError
	var rl *accounts.RateLimitError
	switch {
	case errors.As(err, &fe):
		return apierror.Validation(fe.Details...)
	case errors.Is(err, accounts.ErrPhoneExists):
		return apierror.Conflict("phone_exists", "Another account has this phone number.")
	case errors.Is(err, accounts.ErrInvalidPassword):
		return apierror.New(http.StatusBadRequest, "invalid_password", "The current password is wrong.")
	case errors.As(err, &rl):
		return apierror.RateLimited(ratelimit.Seconds(rl.Wait))
	case errors.Is(err, accounts.ErrNotFound):
		// The guard admitted the user a moment ago; it is gone now.
		return auth.Unauthorized("Invalid JWT Token")
	default:
		return err
	}
}

// checkDefault refuses, before anything is changed, a default workspace
// the caller is not a member of.
func (h *Handler) checkDefault(c *fiber.Ctx, id int64) error {
	mine, err := h.workspaces.Mine(httpserver.Context(c), auth.Current(c).UserID)
	if err != nil {
		return err
	}
	for _, w := range mine {
		if w.ID == id {
			return nil
		}
	}
	return apierror.Validation("default_workspace_id: must be the id of a workspace you are a member of (GET /api/v1/workspaces)")
}
