// Package contragents is the contragents module: a landlord's
// counterparties (tenants, guarantors, service providers). Other modules
// reach a contragent only through Service.Authorize, and protect the ones
// their records refer to by contributing a User (see ProvideUser).
package contragents

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/contragents/migrations"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "contragents"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Contragents: tenants, guarantors and service providers", Status: module.Ready,
		Depends:    []string{"accounts", "workspaces"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewStore, NewHandler),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
