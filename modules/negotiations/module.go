// Package negotiations takes a shortlisted application of a letting
// proposal (modules/proposals) to a contract: rounds of offers
// {round, terms, message} by the landlord and by the applicant through a
// link with a token, open -> agreed (both accepted one round) | declined |
// expired (a periodic job), and a draft contract with the agreed terms and
// the applicant as a new tenant contragent.
package negotiations

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/negotiations/migrations"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "negotiations"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Negotiations of a contract's terms with an applicant, in rounds", Status: module.Ready,
		Depends:    []string{"accounts", "properties", "contragents", "contracts", "proposals"},
		Uses:       []string{"translations"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewConfig, NewHandler),
			module.ProvideRoutes(NewRoutes),
			fx.Invoke(registerWorkers),
		),
	}
}
