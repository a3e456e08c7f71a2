// Package accounts is the accounts module: registration with an emailed code,
// login, tokens, and the user records every other module's guard relies on.
package accounts

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/accounts/migrations"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/ratelimit"
)

// Name is the module's configuration key.
const Name = "accounts"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name:       Name,
		Summary:    "Registration, login and tokens",
		Status:     module.Ready,
		Depends:    []string{"reference"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Commands:   []module.Command{userCommand()},
		Options: fx.Module(Name,
			fx.Provide(NewStore, NewService),
			fx.Provide(fx.Private, ratelimit.New, NewHandler),
			fx.Provide(fx.Annotate(func(s *Store) auth.Accounts { return principals{store: s} })),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
