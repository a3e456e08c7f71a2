// Package assets is the inventory of a property (its furniture,
// appliances and fittings, with their condition, value and photos) and
// the inspections of a contract: the check-in when the tenant moves in and
// the check-out when they leave, each asset's condition that day, the
// meter readings of the day (recorded through the counters module), notes
// and photos, and the PDF both parties sign. The deposit settlement
// (modules/compensations) asks it whether the check-out matches the
// check-in.
package assets

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/assets/migrations"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "assets"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Property assets and inventory, check-in and check-out inspections", Status: module.Ready,
		Depends:    []string{"accounts", "properties", "contracts", "documents", "counters", "printforms"},
		Uses:       []string{"contragents", "translations"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(fx.Private, NewStore),
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewHandler),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
