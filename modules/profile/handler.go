package profile

import (
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/ratelimit"
)

// Handler serves /user.
type Handler struct {
	accounts *accounts.Service
}

// NewHandler returns the handler.
func NewHandler(svc *accounts.Service) *Handler { return &Handler{accounts: svc} }

func (h *Handler) get(c *fiber.Ctx) error {
	u, err := h.accounts.User(httpserver.Context(c), auth.Current(c).UserID)
	if err != nil {
		return mapError(err)
	}
	return c.JSON(h.accounts.ProfileView(u))
}

func (h *Handler) update(c *fiber.Ctx) error {
	var req updateRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	in := accounts.ProfileUpdate{Name: req.Name, Locale: req.Locale, CountryCode: req.CountryCode}
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
	u, err := h.accounts.UpdateProfile(httpserver.Context(c), auth.Current(c).UserID, in)
	if err != nil {
		return mapError(err)
	}
	return c.JSON(h.accounts.ProfileView(u))
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
