// Package analytics records how the service is used: clients send product
// events (a name, a few flat properties, a time) to POST
// /api/v1/analytics/track, signed in or not, and administrators read daily
// counts and unique users from GET /api/v1/analytics/summary.
//
// Events are accepted into a bounded buffer and written in batches off the
// request path, so a burst of clicks costs the API one memory copy per
// request, not one database round trip per event; a full buffer answers
// 429 rather than growing, and stopping the app writes what it holds.
package analytics

import (
	_ "embed"
	"time"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/analytics/migrations"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "analytics"

//go:embed openapi.yaml
var openapiYAML []byte

// Config is the section modules.analytics.
type Config struct {
	// Buffer is how many accepted events may wait in memory for their
	// write; a request that does not fit answers 429.
	Buffer int `koanf:"buffer"`
	// BufferBytes bounds the same wait in bytes (names, ids and
	// properties as stored), so large events cannot take more memory
	// than small ones would.
	BufferBytes int `koanf:"bufferbytes"`
	// Batch is how many events a write carries; a request's events are
	// never split, so a batch may hold up to 99 more.
	Batch int `koanf:"batch"`
	// Flush is the longest an accepted event waits for a batch to fill.
	Flush time.Duration `koanf:"flush"`
	// Writers write batches at once (PostgreSQL; SQLite has one writer).
	Writers int `koanf:"writers"`
	// PGWrite is how a batch goes to PostgreSQL: copy (COPY FROM STDIN,
	// binary) or insert (one INSERT ... SELECT FROM unnest of arrays).
	PGWrite string `koanf:"pgwrite"`
}

// NewConfig reads modules.analytics with its defaults.
func NewConfig(cfg *config.Config) (Config, error) {
	c := Config{Buffer: 50000, BufferBytes: 32 << 20, Batch: 2000, Flush: 500 * time.Millisecond, Writers: 2, PGWrite: "copy"}
	if err := cfg.Module(Name, &c); err != nil {
		return Config{}, err
	}
	key := func(k string) string { return "modules." + Name + "." + k }
	switch {
	case c.Buffer < MaxEvents:
		return Config{}, &config.Error{Key: key("buffer"), Reason: "must hold at least one full request (100 events)"}
	case c.BufferBytes < 1<<20:
		return Config{}, &config.Error{Key: key("bufferbytes"), Reason: "must be at least 1 MiB (one full request)"}
	case c.Batch < 1 || c.Batch > 10000:
		return Config{}, &config.Error{Key: key("batch"), Reason: "must be 1 to 10000"}
	case c.Flush <= 0 || c.Flush > time.Minute:
		return Config{}, &config.Error{Key: key("flush"), Reason: "must be above 0 and at most 1m"}
	case c.Writers < 1 || c.Writers > 16:
		return Config{}, &config.Error{Key: key("writers"), Reason: "must be 1 to 16"}
	case c.PGWrite != "copy" && c.PGWrite != "insert":
		return Config{}, &config.Error{Key: key("pgwrite"), Reason: "must be copy or insert"}
	}
	return c, nil
}

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Product analytics: events tracked by clients, daily summary for administrators", Status: module.Ready,
		Depends:    []string{"accounts"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(fx.Private, NewConfig, NewStore, NewHandler),
			fx.Provide(NewBuffer),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
