// Package buildings is the buildings module: buildings that group units
// (properties) under one address, the unit data an operating-cost key
// reads (rooms, floor, share of the building, heating), and the dated
// household size of a contract.
package buildings

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/buildings/migrations"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "buildings"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Buildings: units with their share, rooms, floor and heating; household sizes", Status: module.Ready,
		Depends:    []string{"accounts", "workspaces", "properties", "contracts"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewStore, NewHandler),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
