// Package reference is the reference-data module: countries and languages.
// Other modules validate codes through its exported Directory.
package reference

import (
	"context"
	_ "embed"
	"fmt"
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
	// Reload is how often the tables are re-read; 0 switches re-reading off.
	Reload time.Duration `koanf:"reload"`
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
	c := Config{Reload: time.Minute}
	if err := cfg.Module(Name, &c); err != nil {
		return err
	}
	if c.Reload < 0 {
		return fmt.Errorf("modules.reference.reload: must not be negative")
	}
	if c.Reload == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			go func() {
				defer close(done)
				dir.Watch(ctx, c.Reload, log)
			}()
			return nil
		},
		OnStop: func(context.Context) error {
			cancel()
			<-done
			return nil
		},
	})
	return nil
}
