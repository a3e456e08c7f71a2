// Package properties is the properties module: a landlord's properties.
// Other modules reach a property only through Service.Authorize, and keep
// records under it by contributing a Dependent (see ProvideDependent).
package properties

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/properties/migrations"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "properties"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Properties", Status: module.Ready,
		Depends:    []string{"accounts", "workspaces", "reference"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewStore, NewHandler),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
