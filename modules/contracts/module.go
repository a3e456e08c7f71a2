// Package contracts is the contracts module: rental contracts between a
// property and a tenant, their terms (agreement blocks with values) and
// their lifecycle draft -> active -> terminated | ended. Activation creates
// the contract's rent and prepayment expenses and deposit charge through
// the expenses module, in the transaction that activates it.
package contracts

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/contracts/migrations"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "contracts"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Rental contracts and the rent they bill", Status: module.Ready,
		Depends:    []string{"accounts", "properties", "expenses", "agreements", "contragents", "bankaccounts", "reference"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewStore, NewHandler),
			contragents.ProvideUser(newTenantGuard),
			properties.ProvideDependent(newPropertyCleanup),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
