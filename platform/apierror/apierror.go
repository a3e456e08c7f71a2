// Package apierror holds the typed errors that handlers and services return.
// The HTTP server turns them into the JSON bodies of API-DECISIONS.md.
package apierror

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/propman/propman/platform/fault"
)

// Error is an error with a status and a machine code, shown to the client.
type Error struct {
	Status  int
	Code    string
	Message string
	Details []string
	// Wait is the number of seconds to wait, for 429; it also sets Retry-After.
	Wait int
	// RetryAfter sets the Retry-After header (seconds) without a wait in
	// the body: a 503 for a busy row or database.
	RetryAfter int
	// Body, when set, is sent as it is instead of the standard shape: the
	// specification fixes some bodies ({success:false,...}, {code,message}).
	Body any
	// Cause is the domain error the answer stands for (a module's
	// ErrNotFound, say), so that another module calling the service tests
	// it with errors.Is rather than branching on the status. It never
	// reaches the client.
	Cause error
}

// Unwrap is the domain error under the answer.
func (e *Error) Unwrap() error { return e.Cause }

// Because is a copy of e standing for the domain error cause.
func (e *Error) Because(cause error) *Error {
	c := *e
	c.Cause = cause
	return &c
}

func (e *Error) Error() string {
	if len(e.Details) > 0 {
		return fmt.Sprintf("%s: %s %v", e.Code, e.Message, e.Details)
	}
	return e.Code + ": " + e.Message
}

// New returns an error with the standard body.
func New(status int, code, message string) *Error {
	return &Error{Status: status, Code: code, Message: message}
}

// Validation is a 400 validation_failed with one detail per broken rule.
func Validation(details ...string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: "validation_failed", Message: "The request is not valid.", Details: details}
}

// NotFound is a 404 not_found.
func NotFound(message string) *Error {
	return New(http.StatusNotFound, "not_found", message)
}

// Forbidden is a 403 forbidden.
func Forbidden(message string) *Error {
	return New(http.StatusForbidden, "forbidden", message)
}

// Conflict is a 409 with its own code, such as has_charges.
func Conflict(code, message string) *Error {
	return New(http.StatusConflict, code, message)
}

// Unavailable is a 503 unavailable.
func Unavailable(message string) *Error {
	return New(http.StatusServiceUnavailable, "unavailable", message)
}

// Busy is a 503 unavailable for a request that waited too long for a lock
// another request holds: trying again in a second usually succeeds.
func Busy() *Error {
	e := Unavailable("The data is busy with other changes; try again in a second.")
	e.RetryAfter = 1
	return e
}

// RateLimited is a 429 rate_limit with the seconds to wait.
func RateLimited(wait int) *Error {
	if wait < 1 {
		wait = 1
	}
	return &Error{Status: http.StatusTooManyRequests, Code: "rate_limit", Message: "Too many requests; try again later.", Wait: wait}
}

// WithBody returns an error sent with exactly the given body.
func WithBody(status int, body any) *Error {
	return &Error{Status: status, Code: http.StatusText(status), Body: body}
}

// As finds the answer in err's chain: an *Error, or a service's
// refusal (*fault.Error) turned into one. This is the one place a
// refusal's kind becomes an HTTP status.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	if f, ok := fault.As(err); ok {
		return FromFault(f), true
	}
	return nil, false
}

// statusOf is the HTTP status of each kind of refusal.
var statusOf = map[fault.Kind]int{
	fault.KindInvalid:       http.StatusBadRequest,
	fault.KindForbidden:     http.StatusForbidden,
	fault.KindNotFound:      http.StatusNotFound,
	fault.KindConflict:      http.StatusConflict,
	fault.KindPlanLimit:     http.StatusPaymentRequired,
	fault.KindTooLarge:      http.StatusRequestEntityTooLarge,
	fault.KindUnsupported:   http.StatusUnsupportedMediaType,
	fault.KindUnprocessable: http.StatusUnprocessableEntity,
	fault.KindTooMany:       http.StatusTooManyRequests,
	fault.KindUpstream:      http.StatusBadGateway,
	fault.KindUnavailable:   http.StatusServiceUnavailable,
}

// FaultKind is the kind of refusal the answer's status stands for, so
// that a service that gets an answer from code below the edge (a
// middleware's refusal passed on) tells it apart by kind, as it does a
// service's refusal. 0 for a status that is no refusal.
func (e *Error) FaultKind() fault.Kind {
	for k, s := range statusOf {
		if s == e.Status {
			return k
		}
	}
	return 0
}

// FromFault is the answer to a service's refusal. A kind without a status
// is a bug, answered as a 500 internal_error.
func FromFault(f *fault.Error) *Error {
	status, ok := statusOf[f.Kind]
	if !ok {
		return &Error{Status: http.StatusInternalServerError, Code: "internal_error", Message: "An internal error occurred.", Cause: f}
	}
	code := f.Code
	if f.Body != nil && code == "" {
		code = http.StatusText(status)
	}
	return &Error{Status: status, Code: code, Message: f.Message, Details: f.Details, Wait: f.Wait,
		RetryAfter: f.RetryAfter, Body: f.Body, Cause: f}
}
