package accounts

import (
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/ratelimit"
	"github.com/propman/propman/platform/validate"
)

// Handler serves the auth endpoints.
type Handler struct {
	svc *Service
}

// NewHandler returns the handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

func (h *Handler) register(c *fiber.Ctx) error {
	var req registerRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return failure(http.StatusBadRequest, "validation_failed", "", err.Details)
	}
	err := h.svc.Register(httpserver.Context(c), RegisterInput{Name: req.Name, Email: req.Email, Locale: req.Locale, IP: httpserver.ClientIP(c)})
	var fe *FieldError
	var rl *RateLimitError
	switch {
	case err == nil:
		return c.JSON(registerResponse{Success: true, Message: "A verification code has been sent to your email."})
	case errors.As(err, &fe):
		return failure(http.StatusBadRequest, "validation_failed", "", fe.Details)
	case errors.Is(err, ErrEmailExists):
		return failure(http.StatusConflict, "email_exists", "An account with this email already exists.", nil)
	case errors.As(err, &rl):
		wait := ratelimit.Seconds(rl.Wait)
		e := apierror.WithBody(http.StatusTooManyRequests, successFailure{Error: "rate_limit", Wait: wait})
		e.Wait = wait
		return e
	case errors.Is(err, ErrMailUnavailable):
		return failure(http.StatusServiceUnavailable, "mail_unavailable", "The verification email could not be sent; try again later.", nil)
	default:
		return err
	}
}

func (h *Handler) verify(c *fiber.Ctx) error {
	var req verifyRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return failure(http.StatusBadRequest, "validation_failed", "", err.Details)
	}
	u, err := h.svc.Verify(httpserver.Context(c), VerifyInput(req))
	var fe *FieldError
	switch {
	case err == nil:
		return c.Status(http.StatusCreated).JSON(verifyResponse{
			Success: true, Message: "Your account has been created.",
			User: createdUser{ID: u.ID, Name: u.Name, Email: u.Email},
		})
	case errors.As(err, &fe):
		return failure(http.StatusBadRequest, "validation_failed", "", fe.Details)
	case errors.Is(err, ErrInvalidCode):
		return failure(http.StatusBadRequest, "invalid_code", "",
			[]string{"code: is wrong, expired or already used; request a new one"})
	case errors.Is(err, ErrEmailExists):
		return failure(http.StatusConflict, "email_exists", "", nil)
	case errors.Is(err, ErrPhoneExists):
		return failure(http.StatusConflict, "phone_exists", "", nil)
	default:
		return err
	}
}

func failure(status int, code, message string, details []string) *apierror.Error {
	return apierror.WithBody(status, successFailure{Error: code, Message: message, Details: details})
}

func (h *Handler) login(c *fiber.Ctx) error {
	var req loginRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	if details := validate.Struct(&req); details != nil {
		return apierror.Validation(details...)
	}
	token, err := h.svc.Login(httpserver.Context(c), LoginInput{Email: req.Email, Password: req.Password, IP: httpserver.ClientIP(c)})
	var rl *RateLimitError
	switch {
	case err == nil:
		return c.JSON(tokenResponse{Token: token})
	case errors.Is(err, ErrInvalidCredentials):
		return auth.Unauthorized("Invalid credentials.")
	case errors.As(err, &rl):
		wait := ratelimit.Seconds(rl.Wait)
		e := apierror.WithBody(http.StatusTooManyRequests, codeMessage{
			Code: http.StatusTooManyRequests, Message: "Too many failed logins; try again later.", Wait: wait,
		})
		e.Wait = wait
		return e
	default:
		return err
	}
}

func (h *Handler) me(c *fiber.Ctx) error {
	// The guard has just read the user to check the token: answer from that.
	if u, ok := auth.Current(c).Record.(*User); ok {
		return c.JSON(h.svc.View(u))
	}
	u, err := h.svc.User(httpserver.Context(c), auth.Current(c).UserID)
	if errors.Is(err, ErrNotFound) {
		return auth.Unauthorized("Invalid JWT Token")
	}
	if err != nil {
		return err
	}
	return c.JSON(h.svc.View(u))
}

func (h *Handler) refresh(c *fiber.Ctx) error {
	token, err := h.svc.Refresh(auth.Current(c))
	if errors.Is(err, ErrSessionTooOld) {
		return auth.Unauthorized("The login is too old to refresh; log in again.")
	}
	if err != nil {
		return err
	}
	return c.JSON(refreshResponse{Message: "Token refreshed.", Token: token, ExpiresIn: int(h.svc.TokenTTL().Seconds())})
}
