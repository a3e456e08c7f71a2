package boot

import (
	"github.com/propman/propman/platform/config"
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
	return buildDocument(entries, states, cfg.Metrics.Enabled)
}

// buildDocument merges the fragments of the enabled modules; a stub adds no
// operation, only its entry in the list of reserved prefixes.
func buildDocument(entries []module.Entry, states []ModuleState, withMetrics bool) (*openapi.Document, error) {
	var fragments []openapi.Fragment
	if withMetrics {
		fragments = append(fragments, openapi.Fragment{Module: "metrics", YAML: metrics.OpenAPI})
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
