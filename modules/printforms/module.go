// Package printforms is the print-forms module: a contract (and, once the
// receipts module provides a ReceiptSource, a receipt) as a PDF, drawn in
// pure Go (go-pdf/fpdf with the Go fonts embedded in the binary) in the
// locale asked for, its static texts taken from the translation
// dictionaries. It reads contracts, contragents, properties, accounts and
// agreement blocks only through what those modules export.
package printforms

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "printforms"

//go:embed openapi.yaml
var openapiYAML []byte

// Config is modules.printforms.
type Config struct {
	// Cache is how many rendered PDFs are kept in memory (0: none).
	Cache int `koanf:"cache"`
	// CacheBytes bounds the bytes the cached PDFs take together.
	CacheBytes int `koanf:"cachebytes"`
}

// NewConfig reads modules.printforms with its defaults.
func NewConfig(cfg *config.Config) (Config, error) {
	c := Config{Cache: 64, CacheBytes: 32 << 20}
	if err := cfg.Module(Name, &c); err != nil {
		return Config{}, err
	}
	switch {
	case c.Cache < 0:
		return Config{}, &config.Error{Key: "modules.printforms.cache", Reason: "must not be negative (0 keeps no PDF)"}
	case c.CacheBytes < 0:
		return Config{}, &config.Error{Key: "modules.printforms.cachebytes", Reason: "must not be negative"}
	}
	return c, nil
}

func newCache(c Config) *Cache { return NewCache(c.Cache, c.CacheBytes) }

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "PDF print forms of contracts (and receipts)", Status: module.Ready,
		Depends: []string{"accounts", "reference", "translations", "agreements", "properties", "contragents", "contracts", "expenses", "bankaccounts", "documents"},
		OpenAPI: openapiYAML,
		Options: fx.Module(Name,
			// The service is public: the notices module draws receipts with it.
			fx.Provide(NewLabels, NewRenderer, NewService),
			// The expenses module names generated charges with the
			// renderer's wording, in the reader's language.
			fx.Provide(func(r *Renderer) expenses.Namer { return r }),
			fx.Provide(fx.Private, NewConfig, newCache, NewHandler, newActivationListener),
			contracts.ProvideActivationListener(asActivationListener),
			fx.Invoke(bindActivationListener),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
