// Package agreements is the agreements module: the catalogue of contract
// conditions (agreement blocks), served from precomputed JSON.
package agreements

import (
	"context"
	_ "embed"
	"log/slog"
	"time"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/agreements/migrations"
	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "agreements"

//go:embed openapi.yaml
var openapiYAML []byte

// Config is the section modules.agreements.
type Config struct {
	// Refresh is how often a running instance checks the catalogue's
	// version for an import; 0 checks only at start.
	Refresh time.Duration `koanf:"refresh"`
}

// NewConfig reads modules.agreements with its defaults.
func NewConfig(cfg *config.Config) (Config, error) {
	c := Config{Refresh: 30 * time.Second}
	if err := cfg.Module(Name, &c); err != nil {
		return Config{}, err
	}
	if c.Refresh < 0 {
		return Config{}, &config.Error{Key: "modules.agreements.refresh", Reason: "must not be negative (0 checks only at start)"}
	}
	return c, nil
}

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Agreement blocks: the catalogue of contract conditions", Status: module.Ready,
		Depends:    []string{"reference"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Seed:       Seed,
		Commands:   []module.Command{importCommand()},
		Options: fx.Module(Name,
			fx.Provide(fx.Private, NewConfig, NewStore, NewHandler, provideResponses),
			fx.Provide(newBlocks),
			module.ProvideRoutes(NewRoutes),
		),
	}
}

// provideResponses loads the catalogue and, when configured, checks its
// version every modules.agreements.refresh for the life of the app.
func provideResponses(lc fx.Lifecycle, cfg Config, store *Store, dir *reference.Directory, log *slog.Logger) (*Responses, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := OpenResponses(ctx, store, dir)
	if err != nil {
		return nil, err
	}
	module.Every(lc, "agreements", cfg.Refresh, func(ctx context.Context) { r.refreshLogged(ctx, log) })
	return r, nil
}
