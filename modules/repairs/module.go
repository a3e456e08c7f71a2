// Package repairs is repairs: a tenant reports what is broken from the
// portal, or a member records it for a property; a member triages it and
// orders a service provider (a contragent with the role provider), who
// answers through the link mailed to them (accept or decline, offer
// times, mark the job done with an invoice amount); the tenant picks a
// time in the portal. Every step is a message in the contract's thread in
// the contract's language. Urgency sets the deadline, and open requests
// past it are listed.
package repairs

import (
	_ "embed"
	"time"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/repairs/migrations"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "repairs"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Repair requests and work orders to service providers", Status: module.Ready,
		Depends:    []string{"accounts", "properties", "contragents", "contracts", "documents", "messages", "translations", "calendar", "bills", "expenses", "printforms", "workspaces"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewConfig, NewStore, NewHandler),
			fx.Invoke(registerReminders),
			module.ProvideRoutes(NewRoutes),
		),
	}
}

// Config is the section modules.repairs.
type Config struct {
	// OrderURL is the provider's link, the token appended; unset, it is
	// <http.publicurl>/work-orders/.
	OrderURL string `koanf:"orderurl"`
	// OrderTTL is how long a work order's link opens it.
	OrderTTL time.Duration `koanf:"orderttl"`
	// RemindEvery is how often the sweep of overdue orders runs; each
	// order is reminded at most once a day.
	RemindEvery time.Duration `koanf:"remindevery"`
	// Link is OrderURL as used.
	Link string `koanf:"-"`
}

// NewConfig reads modules.repairs with its defaults.
func NewConfig(cfg *config.Config) (Config, error) {
	c := Config{OrderTTL: 30 * 24 * time.Hour, RemindEvery: time.Hour}
	if err := cfg.Module(Name, &c); err != nil {
		return Config{}, err
	}
	if c.OrderTTL < time.Hour || c.OrderTTL > 90*24*time.Hour {
		return Config{}, &config.Error{Key: "modules.repairs.orderttl", Reason: "must be from 1h to 2160h"}
	}
	if c.RemindEvery < time.Minute || c.RemindEvery > 24*time.Hour {
		return Config{}, &config.Error{Key: "modules.repairs.remindevery", Reason: "must be from 1m to 24h"}
	}
	c.Link = c.OrderURL
	if c.Link == "" {
		c.Link, _ = cfg.HTTP.Link("/work-orders/")
	}
	return c, nil
}
