// Package banking is the banking module (LANDLORD-CORE section 4): bank
// statements (CAMT.053, MT940, OFX, CSV) imported into a workspace's bank
// account, each credit line matched to a contract and posted as a payment
// when the match is sure, suggested with its reasons when not.
package banking

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/bankaccounts"
	"github.com/propman/propman/modules/banking/migrations"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "banking"

//go:embed openapi.yaml
var openapiYAML []byte

// Config is modules.banking.
type Config struct {
	// MaxBytes is the largest statement file; the upload's body may be
	// 64 KiB more (the form) and is streamed, so http.bodylimit does not
	// bound it.
	MaxBytes int64 `koanf:"maxbytes"`
}

// DefaultMaxBytes is modules.banking.maxbytes unless configured.
const DefaultMaxBytes = 1 << 20

// NewConfig reads modules.banking with its defaults.
func NewConfig(cfg *config.Config) (Config, error) {
	c := Config{MaxBytes: DefaultMaxBytes}
	if err := cfg.Module(Name, &c); err != nil {
		return Config{}, err
	}
	if c.MaxBytes < 1024 {
		return Config{}, &config.Error{Key: "modules.banking.maxbytes", Reason: "must be at least 1024 bytes"}
	}
	return c, nil
}

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Bank statements imported and matched to rent", Status: module.Ready,
		Depends:    []string{"accounts", "workspaces", "bankaccounts", "properties", "contracts", "contragents", "expenses", "payments", "receipts", "translations"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(fx.Private, NewConfig, NewStore, NewService, NewHandler),
			module.ProvideRoutes(NewRoutes),
			bankaccounts.ProvideUser(newAccountUser),
		),
	}
}
