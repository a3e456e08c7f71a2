package boot

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/jobs/jobsui"
	"github.com/propman/propman/platform/metrics"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/openapi"
)

// Document builds the doc.json a server with cfg and entries would serve,
// without opening the database (`propman openapi` prints it).
func Document(cfg *config.Config, entries []module.Entry) (*openapi.Document, error) {
	states, err := Plan(cfg, entries)
	if err != nil {
		return nil, err
	}
	return buildDocument(entries, states, cfg.Metrics.Enabled, cfg.Jobs.UI)
}

// buildDocument merges the fragments of the enabled modules; a stub adds no
// operation, only its entry in the list of reserved prefixes.
func buildDocument(entries []module.Entry, states []ModuleState, withMetrics, withJobsUI bool) (*openapi.Document, error) {
	var fragments []openapi.Fragment
	if withMetrics {
		fragments = append(fragments, openapi.Fragment{Module: "metrics", YAML: metrics.OpenAPI})
	}
	if withJobsUI {
		fragments = append(fragments, openapi.Fragment{Module: "jobsui", YAML: jobsui.OpenAPI})
	}
	for i, e := range entries {
		if !states[i].Enabled {
			continue
		}
		switch e.Status {
		case module.Stub:
			fragments = append(fragments, openapi.Fragment{Module: e.Name, YAML: openapi.StubFragment(e.Name, e.Summary, e.Prefixes)})
		default:
			fragments = append(fragments, openapi.Fragment{Module: e.Name, YAML: e.OpenAPI})
		}
	}
	return openapi.Build(fragments)
}

// ServedDocument is the document a server of cfg serves, with what only
// the mounted routes add (each operation's role, its workspace header and
// answers): it builds the application on a scratch SQLite database, which
// it removes, so it needs no database of its own and opens none of cfg's.
func ServedDocument(ctx context.Context, cfg *config.Config, entries []module.Entry) (*openapi.Document, error) {
	dir, err := os.MkdirTemp("", "propman-doc-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	scratch := *cfg
	scratch.Database.URL = "sqlite:" + filepath.Join(dir, "doc.db")
	scratch.Database.AutoMigrate = true
	scratch.Auth.Secret = strings.Repeat("d", 32) // signs nothing: no server starts
	scratch.Tracing = config.Tracing{}
	var doc *openapi.Document
	var db *bun.DB
	app, err := New(ctx, Options{Config: &scratch, Entries: entries, Logger: slog.New(slog.DiscardHandler),
		Extra: []fx.Option{fx.Populate(&doc, &db)}})
	if err != nil {
		return nil, err
	}
	_ = app // built, not started: its mounting amended doc
	if db != nil {
		_ = db.Close()
	}
	return doc, nil
}
