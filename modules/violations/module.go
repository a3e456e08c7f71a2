// Package violations records a tenant's breaches of a contract: which
// term (agreement block) was breached, when, what happened, the evidence
// (documents of the property), and the dispute's course from open to
// resolved or withdrawn. A fine becomes a charge of kind fine on the
// contract through the expenses ledger; withdrawing the violation cancels
// it.
package violations

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/violations/migrations"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "violations"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Violations of contract terms, with evidence and fines", Status: module.Ready,
		Depends:    []string{"accounts", "properties", "contracts", "expenses", "documents"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(fx.Private, NewStore, NewService, NewHandler),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
