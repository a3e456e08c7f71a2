// Package proposals lets a vacant property: a proposal (rent, deposit,
// availability, minimum term, terms, photos) goes draft -> published ->
// closed; a published one has a public page and takes applications from
// people without an account, who confirm their email with a code. The
// landlord lists, shortlists and declines them; modules/negotiations takes
// a shortlisted one to a contract.
package proposals

import (
	"context"
	_ "embed"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/proposals/migrations"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "proposals"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Letting proposals: public listing pages and applications", Status: module.Ready,
		Depends:    []string{"accounts", "properties", "agreements", "contragents", "contracts", "documents", "reference"},
		Uses:       []string{"translations"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewConfig, NewHandler),
			properties.ProvideDependent(newPropertyCleanup),
			module.ProvideRoutes(NewRoutes),
			fx.Invoke(registerWorker),
		),
	}
}

type propertyCleanup struct{}

func newPropertyCleanup() propertyCleanup { return propertyCleanup{} }

// PropertyDeleting removes the property's proposals with their
// applications (and, by the negotiations' foreign key, their
// negotiations) in the deletion's transaction.
func (propertyCleanup) PropertyDeleting(ctx context.Context, tx bun.Tx, propertyID uuid.UUID) error {
	return deleteProposalsOf(ctx, tx, propertyID)
}
