// Package expenses is the expenses module: the expenses of a property and
// the charges they generate (refresh-all), plus manual charges. It reaches
// properties only through properties.Service and contributes a
// properties.Dependent so that a property with charges is not deleted.
package expenses

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/expenses/migrations"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "expenses"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Expenses and the charges they generate", Status: module.Ready,
		Depends:    []string{"accounts", "properties"},
		Migrations: migrations.FS, GoMigrations: migrations.Go,
		OpenAPI: openapiYAML,
		Options: fx.Module(Name,
			// The service is public: the contracts module creates a
			// contract's expenses and charges through it.
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewStore, NewHandler),
			properties.ProvideDependent(newPropertyCleanup),
			module.ProvideRoutes(NewRoutes),
			fx.Invoke(func(q *jobs.Queue, s *Service, props *properties.Service) { q.Periodic(BillingKind(s, props)) }),
		),
	}
}
