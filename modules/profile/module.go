// Package profile is the profile module: the signed-in user's profile,
// password and roles. The rules live in the accounts module; this one is
// their HTTP surface under /user.
package profile

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "profile"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "User profile, password and roles", Status: module.Ready,
		Depends: []string{"accounts", "workspaces", "reference"},
		OpenAPI: openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(fx.Private, NewHandler),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
