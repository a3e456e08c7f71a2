// Package billing is how propman charges for itself: plans from the
// configuration, one subscription per workspace, a monthly invoice run with
// gap-free numbers and VAT, payments and payment methods through Stripe,
// Stripe's webhooks, and the limits of a plan (402 plan_limit) and of an
// unpaid workspace (403 read_only).
package billing

import (
	_ "embed"
	"fmt"
	"strings"
	"time"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/billing/migrations"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/money"
)

// Name is the module's configuration key.
const Name = "billing"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Billing: plans, subscriptions, invoices, payment methods and Stripe webhooks", Status: module.Ready,
		Depends:    []string{"accounts", "workspaces", "properties"},
		Uses:       []string{"printforms"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewConfig, NewService, newPayments),
			fx.Provide(fx.Private, NewHandler, NewStore),
			properties.ProvideLimit(func(s *Service) properties.Limit { return s }),
			module.ProvideRoutes(NewRoutes),
			fx.Invoke(bindReadOnly),
			fx.Invoke(func(q *jobs.Queue, s *Service) { q.Periodic(Kind(s)) }),
		),
	}
}

// Config is the section modules.billing. Secrets (stripekey,
// webhooksecret) come from the environment
// (PROPMAN_MODULES_BILLING_STRIPEKEY, ..._WEBHOOKSECRET), never from a file
// in the repository.
type Config struct {
	// Currency of every price and invoice.
	Currency string `koanf:"currency"`
	// FreeUnits is how many active properties the free plan allows.
	FreeUnits int `koanf:"freeunits"`
	// ProPrice is the pro plan's price per active property and month, a
	// decimal such as "4.90".
	ProPrice string `koanf:"proprice"`
	// TrialDays is how long a new workspace tries the pro plan.
	TrialDays int `koanf:"trialdays"`
	// Grace is how long a workspace may stay past due before it becomes
	// read-only.
	Grace time.Duration `koanf:"grace"`
	// Reminders are the days after an invoice failed on which its owner is
	// reminded.
	Reminders []int `koanf:"reminders"`
	// Issuer is the key the invoice numbers count under (one sequence per
	// issuer and year) and the prefix of the number.
	Issuer string `koanf:"issuer"`
	// IssuerName, IssuerAddress, IssuerCountry and IssuerVATID are printed
	// on the invoice; IssuerCountry decides domestic VAT and reverse charge.
	IssuerName    string `koanf:"issuername"`
	IssuerAddress string `koanf:"issueraddress"`
	IssuerCountry string `koanf:"issuercountry"`
	IssuerVATID   string `koanf:"issuervatid"`
	// StripeKey is the secret API key (sk_test_... for test mode); empty:
	// no payment is attempted and payment methods cannot be added.
	StripeKey string `koanf:"stripekey"`
	// StripeURL is Stripe's API base URL; empty: Stripe's own. Tests point
	// it at stripe-mock.
	StripeURL string `koanf:"stripeurl"`
	// WebhookSecret is the endpoint's signing secret (whsec_...); empty:
	// every webhook is refused.
	WebhookSecret string `koanf:"webhooksecret"`
	// Tolerance is how old a webhook's signed timestamp may be.
	Tolerance time.Duration `koanf:"tolerance"`
	// Refresh is how often an instance re-reads which workspaces are
	// read-only (the instance that changes it knows at once).
	Refresh time.Duration `koanf:"refresh"`

	price money.Amount
}

// NewConfig reads modules.billing.
func NewConfig(cfg *config.Config) (Config, error) {
	c := Config{Currency: "EUR", FreeUnits: 3, ProPrice: "4.90", TrialDays: 14, Grace: 14 * 24 * time.Hour,
		Reminders: []int{1, 7}, Issuer: "PM", IssuerName: "propman", IssuerCountry: "DE",
		Tolerance: 5 * time.Minute, Refresh: 10 * time.Second}
	if err := cfg.Module(Name, &c); err != nil {
		return c, err
	}
	price, err := money.Parse([]byte(c.ProPrice))
	if err != nil || price <= 0 {
		return c, fmt.Errorf("modules.billing.proprice: %q must be a positive amount such as 4.90", c.ProPrice)
	}
	c.price = price
	c.Currency = strings.ToUpper(c.Currency)
	c.IssuerCountry = strings.ToUpper(c.IssuerCountry)
	if c.FreeUnits < 0 || c.TrialDays < 0 || c.Grace < 0 {
		return c, fmt.Errorf("modules.billing: freeunits, trialdays and grace must not be negative")
	}
	if c.Issuer == "" || len(c.Issuer) > 20 {
		return c, fmt.Errorf("modules.billing.issuer: 1 to 20 characters")
	}
	return c, nil
}
