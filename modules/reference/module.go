// Package reference is the reference-data module: countries and languages.
// Other modules validate codes through its exported Directory.
package reference

import (
	"context"
	_ "embed"
	"log/slog"
	"time"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/reference/migrations"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "reference"

//go:embed openapi.yaml
var openapiYAML []byte

// Config is the module's section, modules.reference.
type Config struct {
	// Refresh is how often the tables are re-read; 0 reads them only at start.
	Refresh time.Duration `koanf:"refresh"`
}

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name:       Name,
		Summary:    "Countries and languages",
		Status:     module.Ready,
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Seed:       Seed,
		Options: fx.Module(Name,
			fx.Provide(NewDirectory),
			fx.Provide(fx.Private, NewHandler),
			module.ProvideRoutes(NewRoutes),
			fx.Invoke(watch),
		),
	}
}

func watch(lc fx.Lifecycle, cfg *config.Config, dir *Directory, log *slog.Logger) error {
	c := Config{Refresh: time.Minute}
	if err := cfg.Module(Name, &c); err != nil {
		return err
	}
	if c.Refresh < 0 {
		return &config.Error{Key: "modules.reference.refresh", Reason: "must not be negative (0 reads the tables only at start)"}
	}
	module.Every(lc, Name, c.Refresh, func(ctx context.Context) { dir.refreshLogged(ctx, log) })
	return nil
}
