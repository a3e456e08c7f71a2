// Package fault holds the refusals a service returns, in the domain's
// terms: the input breaks a rule, the record is not there, the change
// conflicts with what is recorded, the law refuses it. Each carries the
// machine code and the message the client reads, but no HTTP status: the
// edge (apierror.As, used by the server's error handler) alone turns a
// Kind into a status, so a service never speaks HTTP and another module
// branches on a Kind or on a module's own sentinel, never on a status.
//
// A module's rules that another module must tell apart get their own
// sentinels and typed errors (modules/violations/errors.go); fault is for
// the plain refusals every module shares.
package fault

import (
	"errors"
	"fmt"
)

// Kind is what went wrong, as the domain sees it.
type Kind uint8

// The kinds. The comment gives the status the edge answers with.
const (
	// KindInvalid: the request breaks a rule of its fields (400).
	KindInvalid Kind = iota + 1
	// KindForbidden: the caller may not do this here (403).
	KindForbidden
	// KindNotFound: no such record where the caller may see it (404).
	KindNotFound
	// KindConflict: what is recorded does not allow it (409).
	KindConflict
	// KindPlanLimit: the workspace's plan does not allow more (402).
	KindPlanLimit
	// KindTooLarge: the content is larger than the limit (413).
	KindTooLarge
	// KindUnsupported: the content is of a type the service does not read (415).
	KindUnsupported
	// KindUnprocessable: well formed, but a rule of law or of the domain
	// refuses it (422).
	KindUnprocessable
	// KindTooMany: the caller must wait before trying again (429).
	KindTooMany
	// KindUpstream: a service propman depends on answered wrongly (502).
	KindUpstream
	// KindUnavailable: a service propman depends on is down, or the data is
	// busy; trying again later may succeed (503).
	KindUnavailable
)

// Error is a refusal. Code and Message are what the client reads;
// Details list one broken rule each (field: rule). Wait is the seconds to
// wait for TooMany, RetryAfter a hint for Unavailable. Body, when set, is
// the exact answer a specification fixes for this refusal (the agreement
// blocks' {error}); Cause is a module's domain error the refusal stands
// for, for errors.Is.
type Error struct {
	Kind       Kind
	Code       string
	Message    string
	Details    []string
	Wait       int
	RetryAfter int
	Body       any
	Cause      error
}

func (e *Error) Error() string {
	if len(e.Details) > 0 {
		return fmt.Sprintf("%s: %s %v", e.Code, e.Message, e.Details)
	}
	return e.Code + ": " + e.Message
}

// Unwrap is the domain error under the refusal.
func (e *Error) Unwrap() error { return e.Cause }

// Because is a copy of e standing for the domain error cause.
func (e *Error) Because(cause error) *Error {
	c := *e
	c.Cause = cause
	return &c
}

// New is a refusal of kind with its code and message.
func New(kind Kind, code, message string) *Error {
	return &Error{Kind: kind, Code: code, Message: message}
}

// Validation is the input refused field by field: validation_failed with
// one detail per broken rule.
func Validation(details ...string) *Error {
	return &Error{Kind: KindInvalid, Code: "validation_failed", Message: "The request is not valid.", Details: details}
}

// NotFound is a not_found refusal.
func NotFound(message string) *Error { return New(KindNotFound, "not_found", message) }

// Forbidden is a forbidden refusal.
func Forbidden(message string) *Error { return New(KindForbidden, "forbidden", message) }

// Conflict is a refusal by what is recorded, with its own code (has_charges...).
func Conflict(code, message string) *Error { return New(KindConflict, code, message) }

// Unavailable is an unavailable refusal: something propman needs is down.
func Unavailable(message string) *Error { return New(KindUnavailable, "unavailable", message) }

// TooManyRequests is a rate_limit refusal: wait seconds (at least 1).
func TooManyRequests(wait int) *Error {
	if wait < 1 {
		wait = 1
	}
	return &Error{Kind: KindTooMany, Code: "rate_limit", Message: "Too many requests; try again later.", Wait: wait}
}

// WithBody is a refusal answered with exactly body (a shape the
// specification fixes).
func WithBody(kind Kind, body any) *Error {
	return &Error{Kind: kind, Body: body}
}

// As finds a refusal in err's chain.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// Kinded is an error that says what kind of refusal it is: every *Error,
// a module's typed error that chooses to, and the edge's own answers.
type Kinded interface {
	error
	FaultKind() Kind
}

// FaultKind is e's kind.
func (e *Error) FaultKind() Kind { return e.Kind }

// KindOf is the kind of the first refusal in err's chain.
func KindOf(err error) (Kind, bool) {
	var k Kinded
	if errors.As(err, &k) {
		return k.FaultKind(), true
	}
	return 0, false
}

// Is tells whether err's chain holds a refusal of kind.
func Is(err error, kind Kind) bool {
	k, ok := KindOf(err)
	return ok && k == kind
}
