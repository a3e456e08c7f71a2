// Package penalties is the penalties module: late fees. A refresh gives
// every overdue, still outstanding regular charge of a contract whose
// terms set LATE_FEE_PERCENTAGE one penalty charge (kind penalty,
// penalty_for the charge), created through the expenses module in one
// transaction under the property's lock, with the ledger's use of credit
// on it. Where the country's agreement blocks forbid a fixed late fee
// (law.go) the penalty is statutory default interest, or none (422). A
// daily periodic run (late_fees, latefees.go) refreshes every active
// property of a workspace. The module has no table of its own: penalties
// are charges.
package penalties

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "penalties"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Late fees on overdue charges", Status: module.Ready,
		Depends: []string{"accounts", "properties", "expenses", "contracts", "agreements"},
		OpenAPI: openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(fx.Private, NewConfig, NewStore, NewService, NewHandler),
			module.ProvideRoutes(NewRoutes),
			fx.Invoke(func(q *jobs.Queue, s *Service, props *properties.Service) { q.Periodic(LateFeesKind(s, props)) }),
		),
	}
}
