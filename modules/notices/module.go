// Package notices writes tenants by itself: a rent call before a charge
// is due, reminders while it is owed, a receipt with its PDF on every
// payment, a word before the contract ends and when the rent changes. Each
// notice is a message (modules/messages) in the contract's language, sent
// once per kind, matter and step however often a job runs; each kind can
// be switched off per workspace and per contract.
package notices

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/notices/migrations"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "notices"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Automatic notices to tenants: rent calls, reminders, receipts, contract end, rent change, termination", Status: module.Ready,
		Depends:    []string{"properties", "contragents", "contracts", "expenses", "payments", "receipts", "printforms", "documents", "messages", "accounts"},
		Uses:       []string{"translations"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewHandler, newListener),
			payments.ProvideListener(newPaymentListener),
			contracts.ProvideRentListener(newRentListener),
			contracts.ProvideTerminationListener(newTerminationListener),
			module.ProvideRoutes(NewRoutes),
			fx.Invoke(bindListener, registerWorker),
			fx.Invoke(func(q *jobs.Queue, s *Service) { q.Periodic(Kind(s)) }),
		),
	}
}
