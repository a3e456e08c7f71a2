// Package ledger is the ledger module: a chart of accounts per workspace
// and a double-entry journal under every money event (LANDLORD-CORE
// section 2). Money modules never import it: they post through
// platform/journal, and this module adds the poster that writes the
// entries, in the event's own transaction. Switched off, nothing is
// booked and nothing else changes.
package ledger

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/ledger/migrations"
	"github.com/propman/propman/platform/journal"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "ledger"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Chart of accounts, double-entry journal and trial balance", Status: module.Ready,
		// The history migration reads the charges and payments.
		Depends:      []string{"accounts", "workspaces", "properties", "translations", "expenses", "payments"},
		Migrations:   migrations.FS,
		GoMigrations: goMigrations,
		OpenAPI:      openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewStore, NewHandler),
			journal.ProvidePoster(asPoster),
			journal.ProvideReader(asPoster),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
