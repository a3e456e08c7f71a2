// Package accounts is the accounts module: registration with an emailed code,
// login, tokens, and the user records every other module's guard relies on.
package accounts

import (
	"go.uber.org/fx"

	"github.com/propman/propman/modules/accounts/migrations"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "accounts"

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name:       Name,
		Summary:    "Registration, login and tokens",
		Status:     module.Ready,
		Migrations: migrations.FS,
		Options: fx.Module(Name,
			fx.Provide(NewStore),
			fx.Provide(fx.Annotate(func(s *Store) auth.Accounts { return principals{store: s} })),
		),
	}
}
