// Package payments is the payments module: what tenants paid for a
// property's charges, how each payment is spread over the charges
// (allocations), credit kept for charges created later, reversals, and a
// property's balance. It is the expenses module's Ledger, so every
// transaction that creates charges uses the property's credit on them.
// Other modules keep records of payments through a Listener (receipts).
package payments

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/payments/migrations"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "payments"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Payments, their allocation to charges, credit and balances", Status: module.Ready,
		Depends: []string{"accounts", "properties", "expenses"},
		// contracts: the allocation order and the tenant of a contract,
		// read from its tables (migrated whether or not it is enabled).
		// bankaccounts: the bank account a payment names, checked when
		// that module is on.
		Uses:       []string{"contragents", "contracts", "bankaccounts"},
		Migrations: migrations.FS, GoMigrations: migrations.Go,
		OpenAPI: openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewStore, NewHandler),
			fx.Provide(func(s *Service) expenses.Ledger { return s }),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
