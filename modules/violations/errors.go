package violations

import (
	"errors"
	"fmt"

	"github.com/propman/propman/platform/law"
)

// The domain's errors. The service returns them; handler.go alone turns
// them into HTTP answers (apiError), so another module calling the service
// branches on these, never on a status code.
var (
	// ErrNotFound: no violation with that id under the property.
	ErrNotFound = errors.New("violation not found")
)

// InvalidError is input the service refused after reading the database
// (the contract is not the property's, the code is none of its terms, an
// evidence document is another property's): one detail per field, in the
// shape of a validation error.
type InvalidError struct{ Details []string }

func (e *InvalidError) Error() string { return fmt.Sprintf("invalid violation: %v", e.Details) }

// FineVoidError: the law of the property's country voids a contractual
// fine on a residential lease; nothing was recorded.
type FineVoidError struct{ Rules law.Rules }

func (e *FineVoidError) Error() string {
	return "a contractual fine is void in " + e.Rules.Country + " (" + e.Rules.FinesSource + ")"
}

// TransitionError: the state machine does not lead from From to To.
type TransitionError struct{ From, To string }

func (e *TransitionError) Error() string {
	return fmt.Sprintf("a violation that is %s cannot become %s", e.From, e.To)
}

// PaymentsError: withdrawing would cancel a charge that money was
// allocated to, the fine itself or, when LateFee, its late fee.
type PaymentsError struct{ LateFee bool }

func (e *PaymentsError) Error() string {
	if e.LateFee {
		return "money was allocated to the fine's late fee"
	}
	return "money was allocated to the fine"
}
