package notices

import (
	"errors"
	"fmt"
)

// The domain's errors. The service returns them; handler.go alone turns
// them into HTTP answers (apiError).
var (
	// ErrNothingDue: nothing of the contract falls due on the day asked
	// and is still owed, so there is no rent call to print.
	ErrNothingDue = errors.New("nothing falls due that day and is still owed")
)

// InvalidError is a change of the notice settings the service refused:
// one detail per setting, in the shape of a validation error.
type InvalidError struct{ Details []string }

func (e *InvalidError) Error() string { return fmt.Sprintf("invalid notice settings: %v", e.Details) }
