// Package dashboard is the landlord's first page in one read: the largest
// arrears, the charges due this week, the open repairs, the bank lines
// waiting for a person, the operating-cost statements whose deadline
// comes near, and the warnings among them in the reader's language. It
// keeps nothing: every figure is read, set-based and bounded, through
// what the modules that own it export.
package dashboard

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "dashboard"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Dashboard: arrears, charges due, repairs, bank lines, statement deadlines and warnings", Status: module.Ready,
		// expenses' charges are read through its exported DueIn; the
		// other parts come from modules that may be off: the dashboard
		// answers without them (their part is null).
		Depends: []string{"accounts", "properties", "expenses", "translations"},
		Uses:    []string{"reports", "repairs", "banking", "opcosts", "printforms"},
		OpenAPI: openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(fx.Private, NewService, NewHandler),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
