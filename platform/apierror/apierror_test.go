package apierror_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/propman/propman/platform/apierror"
)

var errGone = errors.New("record gone")

// An answer that stands for a domain error is found by errors.Is through
// any wrapping, keeps its status and body, and leaves the original alone.
func TestBecauseCarriesTheDomainError(t *testing.T) {
	base := apierror.NotFound("Record not found.")
	err := fmt.Errorf("reading: %w", base.Because(errGone))
	if !errors.Is(err, errGone) {
		t.Fatalf("errors.Is(%v, errGone) = false", err)
	}
	e, ok := apierror.As(err)
	if !ok || e.Status != 404 || e.Message != "Record not found." {
		t.Fatalf("As = %+v, %v; want the 404 with its message", e, ok)
	}
	if errors.Is(base, errGone) {
		t.Error("Because changed the answer it was called on")
	}
	if errors.Is(apierror.NotFound("Other."), errGone) {
		t.Error("an answer without a cause matches errGone")
	}
}
