package accounts

import (
	"errors"
	"time"
)

// Errors of the service. Handlers turn them into the bodies the
// specification fixes for each endpoint; nothing below them knows HTTP.
var (
	ErrEmailExists        = errors.New("email already registered")
	ErrPhoneExists        = errors.New("phone already registered")
	ErrInvalidCode        = errors.New("invalid, expired or used verification code")
	ErrMailUnavailable    = errors.New("the verification email could not be sent")
	ErrInvalidCredentials = errors.New("invalid credentials")
	ErrInvalidPassword    = errors.New("the current password is wrong")
	ErrSessionTooOld      = errors.New("the login is older than auth.maxage")
)

// FieldError lists the broken field rules of an input, one message each.
type FieldError struct {
	Details []string
}

func (e *FieldError) Error() string { return "invalid fields" }

// RateLimitError says a throttle refused the request and for how long.
type RateLimitError struct {
	Wait time.Duration
}

func (e *RateLimitError) Error() string { return "rate limited for " + e.Wait.String() }
