// Package compensations records what the landlord owes a tenant (a repair
// the tenant paid, a rent reduction, an overpayment, the deposit's
// refund) and how it was settled: credited to the tenant's open charges
// through the payments ledger, or paid out. It also settles a contract's
// deposit at its end: the deposit held, minus what is still owed (paid
// from the deposit) and the agreed deductions, gives the refund, recorded
// as a deposit_refund compensation, with a statement PDF and the
// country's legal deadline.
package compensations

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/compensations/migrations"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "compensations"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Compensations owed to tenants and deposit settlement", Status: module.Ready,
		Depends:    []string{"accounts", "properties", "contracts", "expenses", "payments", "documents", "assets", "printforms"},
		Uses:       []string{"contragents", "translations"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			// The service is shared: the opcosts module records a
			// statement's credit through CreateTx.
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewHandler),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
