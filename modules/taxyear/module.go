// Package taxyear fills in a landlord's tax forms from the books
// (LANDLORD-CORE section 2, issue 44): Germany's Anlage V, France's
// déclaration 2044, the UK's SA105 and the US Schedule E, each line with
// its amount for a year, per property and for the workspace, as JSON,
// CSV, XLSX and a PDF summary in the landlord's language.
package taxyear

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/taxyear/migrations"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "taxyear"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Tax year: Anlage V, déclaration 2044, SA105, Schedule E from the books", Status: module.Ready,
		// The ledger books the compensations and keeps the cost accounts
		// the bills' categories map to; expenses and payments hold the
		// classes of the money received.
		Depends:    []string{"accounts", "properties", "translations", "printforms", "ledger", "bills", "expenses", "payments"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewStore, NewHandler),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
