// Package partners is propman's referral programme: a user invites by
// email or shares a code, a registration with the code links the new
// account to the partner, and the first paid invoice of the new
// workspace credits the partner's next invoice once.
package partners

import (
	_ "embed"
	"fmt"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/billing"
	"github.com/propman/propman/modules/partners/migrations"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/money"
)

// Name is the module's configuration key.
const Name = "partners"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Partner invitations (referral programme)", Status: module.Ready,
		Depends:    []string{"accounts", "workspaces", "billing", "translations"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewConfig, NewService),
			fx.Provide(fx.Private, NewHandler),
			billing.ProvidePaidListener(func(s *Service) billing.PaidListener { return s }),
			module.ProvideRoutes(NewRoutes),
			fx.Invoke(func(a *accounts.Service, s *Service) { a.SetReferrals(s) }),
		),
	}
}

// Config is the section modules.partners.
type Config struct {
	// Reward is what a partner is credited for each converted invitation
	// (taken off their next invoice), a decimal such as "10.00".
	Reward string `koanf:"reward"`
	// Limit bounds the invitations one workspace may have waiting (sent).
	Limit int `koanf:"limit"`

	reward money.Amount
}

// NewConfig reads modules.partners.
func NewConfig(cfg *config.Config) (Config, error) {
	c := Config{Reward: "10.00", Limit: 100}
	if err := cfg.Module(Name, &c); err != nil {
		return c, err
	}
	r, err := money.Parse([]byte(c.Reward))
	if err != nil || r <= 0 {
		return c, fmt.Errorf("modules.partners.reward: %q must be a positive amount such as 10.00", c.Reward)
	}
	c.reward = r
	if c.Limit < 1 {
		return c, fmt.Errorf("modules.partners.limit: must be at least 1")
	}
	return c, nil
}
