// Package opcosts is the operating-cost statement module
// (Betriebskostenabrechnung, régularisation des charges): a building's
// allocable bills of a period spread over its tenants by key and day,
// less the prepayments paid, posted once as a charge or a credit per
// contract, and a letter per tenant.
package opcosts

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/opcosts/migrations"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "opcosts"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Operating-cost statements of a building, posted once, a letter per tenant", Status: module.Ready,
		Depends: []string{"accounts", "workspaces", "properties", "contracts", "buildings", "bills", "expenses", "compensations",
			"printforms", "translations", "contragents", "counters", "documents", "messages"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewStore, NewHandler),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
