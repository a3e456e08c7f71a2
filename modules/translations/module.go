// Package translations is the translations module: the web client's
// dictionaries per locale, with English as the per-key fallback.
package translations

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "translations"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Translations of the web client", Status: module.Ready,
		Depends: []string{"accounts", "reference"},
		OpenAPI: openapiYAML,
		Options: fx.Module(Name,
			// The dictionaries are shared, one catalogue per process
			// (Shared): other modules word what they render with them.
			fx.Provide(Shared),
			fx.Provide(fx.Private, NewHandler),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
