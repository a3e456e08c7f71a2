// Package tenancy is the tenant portal: a landlord invites a contragent
// (POST /contragents/{id}/portal-invitation); the user who accepts is
// linked to it and reads their own tenancy under /api/v1/tenancy: their
// contracts, each one's charges, balance and receipts. The documents,
// counters and printforms modules serve the rest of the portal (shared
// documents, the contract's meters and readings, receipt PDFs) and ask
// this module whose contract it is (portal). Nothing else of the
// landlord's workspace is theirs: its routes answer them 404.
package tenancy

import (
	_ "embed"
	"time"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/modules/tenancy/migrations"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "tenancy"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Tenant portal: invitations and a tenant's own tenancy", Status: module.Ready,
		Depends: []string{"workspaces", "contragents", "contracts", "expenses", "payments", "receipts", "translations", "accounts", "properties"},
		// printforms: it tells the print forms which receipts a tenant may read.
		Uses:       []string{"printforms"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewConfig, NewHandler),
			// The modules that serve a tenant their documents, meters and
			// receipt PDFs ask these.
			fx.Provide(fx.Annotate(newPortal,
				fx.As(new(contracts.Tenancies)), fx.As(new(printforms.TenantReceipts)))),
			module.ProvideRoutes(NewRoutes),
		),
	}
}

// Config is the section modules.tenancy.
type Config struct {
	// InviteURL is the link the invitation mail carries, the token
	// appended: the client's page that accepts it. Deprecated: unset, it
	// is <http.publicurl>/tenancy/accept?token=, which is what to configure.
	InviteURL string `koanf:"inviteurl"`
	// InviteTTL is how long an invitation can be accepted.
	InviteTTL time.Duration `koanf:"invitettl"`
}

// NewConfig reads modules.tenancy with its defaults.
func NewConfig(cfg *config.Config) (Config, error) {
	c := Config{InviteTTL: 7 * 24 * time.Hour}
	if err := cfg.Module(Name, &c); err != nil {
		return Config{}, err
	}
	if c.InviteURL == "" {
		c.InviteURL, _ = cfg.HTTP.Link("/tenancy/accept?token=")
	}
	if c.InviteTTL < time.Hour || c.InviteTTL > 30*24*time.Hour {
		return Config{}, &config.Error{Key: "modules.tenancy.invitettl", Reason: "must be from 1h to 720h"}
	}
	if c.InviteURL == "" {
		return Config{}, &config.Error{Key: "modules.tenancy.inviteurl", Reason: "must not be empty"}
	}
	return c, nil
}
