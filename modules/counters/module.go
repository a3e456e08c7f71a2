// Package counters is the counters module: the meters of a property, their
// readings, and the charges billed from them (consumption x tariff) through
// the expenses module, in the transaction that stores a reading. It reaches
// properties only through properties.Service and contributes a
// properties.Dependent that deletes a property's counters with it.
package counters

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/counters/migrations"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "counters"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Meters, their readings and the charges billed from them", Status: module.Ready,
		Depends:    []string{"accounts", "properties", "expenses"},
		Uses:       []string{"contracts"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			// The service is public: inspections (modules/assets) record
			// meter readings through it.
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewStore, NewHandler),
			properties.ProvideDependent(newPropertyCleanup),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
