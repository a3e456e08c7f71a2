// Package ledger is the ledger module: a chart of accounts per workspace
// and a double-entry journal under every money event (LANDLORD-CORE
// section 2). Money modules never import it: they post through
// platform/journal, and this module adds the poster that writes the
// entries, in the event's own transaction. Switched off, nothing is
// booked and nothing else changes.
package ledger

import (
	"context"
	_ "embed"
	"log/slog"
	"time"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/bankaccounts"
	"github.com/propman/propman/modules/ledger/migrations"
	"github.com/propman/propman/platform/config"
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
		// A bank account's sub-account of the bank is made with it.
		Depends:      []string{"accounts", "workspaces", "properties", "translations", "expenses", "payments", "bankaccounts"},
		Migrations:   migrations.FS,
		GoMigrations: goMigrations,
		OpenAPI:      openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewStore, NewHandler),
			journal.ProvidePoster(asPoster),
			journal.ProvideReader(asPoster),
			bankaccounts.ProvideListener(newBankListener),
			module.ProvideRoutes(NewRoutes),
			fx.Invoke(compactEvery),
		),
	}
}

// Config is the section modules.ledger.
type Config struct {
	// Compact is how often the lines' deltas are added into the daily
	// totals the trial balance reads; 0 never (the balances stay exact,
	// reading the deltas, only slower as they pile up).
	Compact time.Duration `koanf:"compact"`
}

// compactEvery moves the deltas into the totals every
// modules.ledger.compact (default 5 s) for the life of the app.
func compactEvery(lc fx.Lifecycle, cfg *config.Config, svc *Service, log *slog.Logger) error {
	c := Config{Compact: 5 * time.Second}
	if err := cfg.Module(Name, &c); err != nil {
		return err
	}
	if c.Compact < 0 {
		return &config.Error{Key: "modules.ledger.compact", Reason: "must not be negative (0 never compacts)"}
	}
	module.Every(lc, "ledger totals", c.Compact, func(ctx context.Context) {
		for {
			n, err := svc.Compact(ctx)
			if err != nil {
				log.Warn("ledger: compacting the totals", "error", err)
				return
			}
			if n < compactBatch {
				return
			}
		}
	})
	return nil
}
