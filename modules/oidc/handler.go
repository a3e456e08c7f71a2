package oidc

import (
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/validate"
)

// Handler serves the sign-in routes.
type Handler struct {
	svc    *Service
	log    *slog.Logger
	secure bool
}

// NewHandler returns the handler. The flow cookie is Secure when browsers
// reach the API over TLS (publicurl is https), whatever terminates it.
func NewHandler(svc *Service, cfg Config, log *slog.Logger) *Handler {
	return &Handler{svc: svc, log: log, secure: strings.HasPrefix(cfg.PublicURL, "https://")}
}

const cookiePath = "/api/v1/auth/oidc/"

func (h *Handler) setFlowCookie(c *fiber.Ctx, value string) {
	c.Cookie(&fiber.Cookie{
		Name: cookieName, Value: value, Path: cookiePath, MaxAge: int(h.svc.FlowTTL().Seconds()),
		Secure: h.secure, HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode,
	})
}

func (h *Handler) clearFlowCookie(c *fiber.Ctx) {
	c.Cookie(&fiber.Cookie{
		Name: cookieName, Value: "", Path: cookiePath, MaxAge: -1,
		Secure: h.secure, HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode,
	})
}

func unknownProvider() error {
	return apierror.NotFound("No identity provider has this name.")
}

func (h *Handler) start(c *fiber.Ctx) error {
	to, cookie, err := h.svc.Start(httpserver.Context(c), c.Params("provider"))
	switch {
	case errors.Is(err, ErrUnknownProvider):
		return unknownProvider()
	case errors.Is(err, ErrUnavailable):
		return apierror.Unavailable("The identity provider cannot be reached; try again later.")
	case err != nil:
		return err
	}
	httpserver.NoStore(c)
	h.setFlowCookie(c, cookie)
	return c.Redirect(to, http.StatusFound)
}

func (h *Handler) callback(c *fiber.Ctx) error {
	name := c.Params("provider")
	code, err := h.svc.Callback(httpserver.Context(c), name, CallbackInput{
		Cookie: c.Cookies(cookieName), State: c.Query("state"), Code: c.Query("code"),
		Error: c.Query("error"), Issuer: c.Query("iss"),
	})
	var r *Refusal
	switch {
	case errors.Is(err, ErrUnknownProvider):
		return unknownProvider()
	case errors.As(err, &r):
		h.log.InfoContext(httpserver.Context(c), "oidc sign-in refused", "provider", name, "reason", r.Error())
		h.clearFlowCookie(c)
		httpserver.NoStore(c)
		return c.Redirect(h.svc.WebURL(url.Values{"error": {r.Reason}, "provider": {name}}), http.StatusFound)
	case err != nil:
		return err
	}
	// The flow is spent: the cookie goes, so a second callback with it
	// finds nothing.
	h.clearFlowCookie(c)
	httpserver.NoStore(c)
	return c.Redirect(h.svc.WebURL(url.Values{"code": {code}}), http.StatusFound)
}

type exchangeRequest struct {
	Code string `json:"code" validate:"required,max=128"`
}

type tokenResponse struct {
	Token string `json:"token"`
}

func (h *Handler) exchange(c *fiber.Ctx) error {
	var req exchangeRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	if details := validate.Struct(&req); details != nil {
		return apierror.Validation(details...)
	}
	token, err := h.svc.Exchange(httpserver.Context(c), req.Code)
	switch {
	case errors.Is(err, ErrInvalidCode):
		return apierror.New(http.StatusBadRequest, "invalid_code", "The code is wrong, expired or already used; sign in again.")
	case errors.Is(err, ErrInactive):
		return auth.Unauthorized("Invalid credentials.")
	case err != nil:
		return err
	}
	httpserver.NoStore(c)
	return c.JSON(tokenResponse{Token: token})
}
