package partners

import (
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/validate"
)

// Handler turns HTTP requests into invitation reads and changes.
type Handler struct{ svc *Service }

// NewHandler returns the handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

type invitationJSON struct {
	ID           string     `json:"id"`
	Email        *string    `json:"email"`
	Code         string     `json:"code"`
	Status       string     `json:"status"`
	CreatedAt    time.Time  `json:"created_at"`
	RegisteredAt *time.Time `json:"registered_at"`
	ConvertedAt  *time.Time `json:"converted_at"`
}

func toJSON(i *Invitation) invitationJSON {
	return invitationJSON{ID: i.ID.String(), Email: i.Email, Code: i.Code, Status: i.Status, CreatedAt: i.CreatedAt,
		RegisteredAt: i.RegisteredAt, ConvertedAt: i.ConvertedAt}
}

type invitationCreate struct {
	// Channel is how the invitation travels: "email" (mailed to Email)
	// or "code" (the caller shares it).
	Channel string  `json:"channel" validate:"required,oneof=email code"`
	Email   *string `json:"email" validate:"omitnil,max=254"`
}

func (h *Handler) create(c *fiber.Ctx) error {
	var req invitationCreate
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	if details := validate.Struct(&req); details != nil {
		return apierror.Validation(details...)
	}
	email := ""
	if req.Email != nil {
		email = strings.TrimSpace(*req.Email)
	}
	switch {
	case req.Channel == "email" && email == "":
		return apierror.Validation("email: is required with channel email")
	case req.Channel == "code" && email != "":
		return apierror.Validation("email: must be absent with channel code")
	}
	inv, err := h.svc.Create(httpserver.Context(c), auth.Current(c), email)
	if err != nil {
		return err
	}
	return c.Status(http.StatusCreated).JSON(toJSON(inv))
}

func (h *Handler) list(c *fiber.Ctx) error {
	q, err := listing.Parse(c, listing.OneOf("status", Sent, Registered, Converted))
	if err != nil {
		return err
	}
	list, res, err := h.svc.List(httpserver.Context(c), auth.Current(c).WorkspaceID, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("invitations", list, toJSON, res, q))
}
