package translations

import (
	"strings"
	"unicode/utf8"

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

func (h *Handler) selectKeys(c *fiber.Ctx) error {
	var req selectRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	// The rules checked by hand first: the validator's reflection cost a
	// tenth of this request; it only words what is wrong.
	if !req.plainlyValid() {
		if details := validate.Struct(&req); details != nil {
			return apierror.Validation(details...)
		}
	}
	locale := strings.ToLower(req.Locale)
	lang, ok := h.dir.Language(locale)
	if !ok {
		return apierror.Validation("locale: must be the code of an active language (GET /api/v1/languages)")
	}
	body, err := h.dicts.SelectJSON(lang.Code, req.Keys)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(body)
}

// plainlyValid reports whether req meets every validate tag of
// selectRequest; when it does not, validate.Struct says why.
func (r *selectRequest) plainlyValid() bool {
	if r.Locale == "" || len(r.Locale) > 8 || len(r.Keys) < 1 || len(r.Keys) > 500 {
		return false
	}
	for _, k := range r.Keys {
		if k == "" || utf8.RuneCountInString(k) > 200 {
			return false
		}
	}
	return true
}
