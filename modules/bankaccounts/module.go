// Package bankaccounts is the bankaccounts module: the bank accounts of a
// workspace that rent is paid to (LANDLORD-CORE "Where to pay"). The IBAN
// is checked (ISO 13616 mod 97 and the country's length) and kept
// normalised; one account is the workspace's default. Contracts name an
// account (PaymentAccount), and the letters print it.
package bankaccounts

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/bankaccounts/migrations"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "bankaccounts"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Bank accounts rent is paid to", Status: module.Ready,
		Depends:    []string{"accounts", "workspaces"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			// Public: contracts name an account and the letters print it.
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewStore, NewHandler),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
