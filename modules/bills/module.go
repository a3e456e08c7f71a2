// Package bills is the bills module: what the landlord pays suppliers for
// a property, each bill booked in the journal (cost account of its
// category against bills payable, and bills payable against the bank
// when paid).
package bills

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/bills/migrations"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "bills"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Bills: what the landlord pays, booked in the ledger", Status: module.Ready,
		Depends:    []string{"accounts", "workspaces", "properties", "contragents", "documents"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewStore, NewHandler),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
