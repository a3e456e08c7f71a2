// Package receipts is the receipts module: every posted payment gets a
// receipt in the payment's own transaction, numbered YYYY-NNNNNN without
// gaps per owner and year, and voided with its payment. It listens to the
// payments module (payments.Listener) and touches nothing else's tables.
package receipts

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/modules/receipts/migrations"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "receipts"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Receipts of payments, numbered without gaps", Status: module.Ready,
		Depends: []string{"accounts", "properties", "payments"},
		// printforms: it gives the print forms the receipts they print.
		Uses:       []string{"contracts", "printforms"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			// Public: the print forms render receipts found with Authorize.
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewHandler),
			payments.ProvideListener(func(s *Service) *Service { return s }),
			// The print forms (modules/printforms) render receipts from it.
			fx.Provide(newPrintSource),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
