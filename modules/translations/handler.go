package translations

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/validate"
)

// Handler serves the dictionaries.
type Handler struct {
	dicts *Dictionaries
	dir   *reference.Directory
}

// NewHandler returns the module's handler.
func NewHandler(dicts *Dictionaries, dir *reference.Directory) *Handler {
	return &Handler{dicts: dicts, dir: dir}
}

func (h *Handler) get(c *fiber.Ctx) error {
	locale := strings.ToLower(c.Params("locale"))
	if _, ok := h.dir.Language(locale); !ok {
		return apierror.NotFound("No active language has this locale code.")
	}
	p, err := h.dicts.Payload(locale)
	if err != nil {
		return err
	}
	return httpserver.SendPayload(c, p)
}

type selectRequest struct {
	Locale string   `json:"locale" validate:"required,max=8"`
	Keys   []string `json:"keys" validate:"required,min=1,max=500,dive,required,max=200"`
}

type selectResponse struct {
	Locale       string            `json:"locale"`
	Translations map[string]string `json:"translations"`
	Missing      []string          `json:"missing"`
}

func (h *Handler) selectKeys(c *fiber.Ctx) error {
	var req selectRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	if details := validate.Struct(&req); details != nil {
		return apierror.Validation(details...)
	}
	locale := strings.ToLower(req.Locale)
	if _, ok := h.dir.Language(locale); !ok {
		return apierror.Validation("locale: must be the code of an active language (GET /api/v1/languages)")
	}
	found, missing := h.dicts.Select(locale, req.Keys)
	return c.JSON(selectResponse{Locale: locale, Translations: found, Missing: missing})
}
