package taxyear

import (
	"errors"
	"fmt"
)

// The domain's errors of the depreciation basis. The service returns
// them; handler.go alone turns them into HTTP answers (apiError).
var (
	// ErrNoBasis: the property has no depreciation basis recorded.
	ErrNoBasis = errors.New("no depreciation basis")
)

// InvalidError is a depreciation basis refused field by field, in the
// shape of a validation error.
type InvalidError struct{ Details []string }

func (e *InvalidError) Error() string {
	return fmt.Sprintf("invalid depreciation basis: %v", e.Details)
}
