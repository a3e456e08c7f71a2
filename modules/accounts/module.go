// Package accounts is the accounts module: registration with an emailed code,
// login, tokens, and the user records every other module's guard relies on.
package accounts

import (
	"context"
	_ "embed"
	"log/slog"
	"time"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/accounts/migrations"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/ratelimit"
)

// Name is the module's configuration key.
const Name = "accounts"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name:       Name,
		Summary:    "Registration, login and tokens",
		Status:     module.Ready,
		Depends:    []string{"reference"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Commands:   []module.Command{userCommand()},
		Options: fx.Module(Name,
			fx.Provide(NewStore, NewService),
			fx.Provide(fx.Private, ratelimit.New, NewHandler),
			fx.Provide(fx.Private, NewConfig),
			fx.Provide(providePrincipals),
			module.ProvideRoutes(NewRoutes),
		),
	}
}

// Config is the section modules.accounts.
type Config struct {
	// CacheTTL is how long a user read for a token check is kept at most
	// (0: every check reads the database). On PostgreSQL every change is
	// heard at its commit whatever made it (see principals); the TTL bounds
	// what a lost notification could leave. On SQLite the serving process
	// forgets a user at each change it makes itself; the TTL bounds how
	// long a change made outside it (`propman user role`, an edit by hand)
	// goes unseen.
	CacheTTL time.Duration `koanf:"cachettl"`
}

// NewConfig reads modules.accounts with its defaults.
func NewConfig(cfg *config.Config) (Config, error) {
	c := Config{CacheTTL: 5 * time.Second}
	if err := cfg.Module(Name, &c); err != nil {
		return Config{}, err
	}
	if c.CacheTTL < 0 || c.CacheTTL > time.Hour {
		return Config{}, &config.Error{Key: "modules.accounts.cachettl", Reason: "must be from 0 (no cache) to 1h"}
	}
	return c, nil
}

// providePrincipals gives the guard its user lookup. On PostgreSQL the cache
// is trusted only while this instance listens for changes of users; on
// SQLite, served by one process, from the start.
func providePrincipals(lc fx.Lifecycle, store *Store, mc Config, cfg *config.Config, log *slog.Logger) auth.Accounts {
	pg := cfg.Database.IsPostgres()
	p := newPrincipals(store, mc.CacheTTL, pg && mc.CacheTTL > 0)
	if !pg {
		p.trusted.Store(mc.CacheTTL > 0)
		return p
	}
	if mc.CacheTTL == 0 {
		return p
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			go func() {
				defer close(done)
				database.Listen(ctx, cfg.Database.URL, usersChannel, p, log)
			}()
			return nil
		},
		OnStop: func(stop context.Context) error {
			cancel()
			select {
			case <-done:
			case <-stop.Done():
			}
			return nil
		},
	})
	return p
}
