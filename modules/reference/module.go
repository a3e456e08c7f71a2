// Package reference is the reference-data module: countries and languages.
package reference

import (
	"go.uber.org/fx"

	"github.com/propman/propman/modules/reference/migrations"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "reference"

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name:       Name,
		Summary:    "Countries and languages",
		Status:     module.Ready,
		Migrations: migrations.FS,
		Seed:       Seed,
		Options: fx.Module(Name,
			fx.Provide(NewDirectory),
		),
	}
}
