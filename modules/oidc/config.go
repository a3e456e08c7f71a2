package oidc

import (
	"fmt"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/propman/propman/platform/config"
)

// Config is the section modules.oidc.
type Config struct {
	// PublicURL is the API's origin as browsers reach it
	// (https://api.example.com); each provider's redirect URI is
	// PublicURL + /api/v1/auth/oidc/<name>/callback.
	PublicURL string `koanf:"publicurl"`
	// WebURL is the page of the web client the callback sends the browser
	// to, with ?code= or ?error=.
	WebURL string `koanf:"weburl"`
	// FlowTTL is how long a started sign-in may take at the provider.
	FlowTTL time.Duration `koanf:"flowttl"`
	// Timeout bounds each request to a provider (discovery, keys, token).
	Timeout   time.Duration             `koanf:"timeout"`
	Providers map[string]ProviderConfig `koanf:"providers"`
}

// ProviderConfig is modules.oidc.providers.<name>.
type ProviderConfig struct {
	Issuer   string `koanf:"issuer"`
	ClientID string `koanf:"clientid"`
	// ClientSecret comes from the environment
	// (PROPMAN_MODULES_OIDC_PROVIDERS_<NAME>_CLIENTSECRET), never a file
	// under version control; empty for a public client (PKCE only).
	ClientSecret string   `koanf:"clientsecret"`
	Scopes       []string `koanf:"scopes"`
	// Domains are the email domains allowed to sign in; empty allows any.
	Domains []string `koanf:"domains"`
	// Country is the country code a new account gets.
	Country string `koanf:"country"`
}

// Limits of the flow.
const (
	CodeValidity   = 60 * time.Second
	defaultFlowTTL = 10 * time.Minute
	maxNameLen     = 32
)

var providerName = regexp.MustCompile(`^[a-z0-9]{1,32}$`)

// NewConfig reads modules.oidc with its defaults and checks it, so a
// misconfigured provider stops the start instead of failing a user later.
func NewConfig(cfg *config.Config) (Config, error) {
	c := Config{FlowTTL: defaultFlowTTL, Timeout: 10 * time.Second}
	if err := cfg.Module(Name, &c); err != nil {
		return Config{}, err
	}
	return c, c.check()
}

func (c *Config) check() error {
	bad := func(key, reason string) error {
		return &config.Error{Key: "modules.oidc." + key, Reason: reason}
	}
	if c.FlowTTL < time.Minute || c.FlowTTL > time.Hour {
		return bad("flowttl", "must be from 1m to 1h")
	}
	if c.Timeout <= 0 || c.Timeout > time.Minute {
		return bad("timeout", "must be more than 0 and at most 1m")
	}
	if len(c.Providers) == 0 {
		return nil
	}
	if err := checkURL(c.PublicURL); err != nil {
		return bad("publicurl", err.Error())
	}
	c.PublicURL = strings.TrimRight(c.PublicURL, "/")
	if err := checkURL(c.WebURL); err != nil {
		return bad("weburl", err.Error())
	}
	for name, p := range c.Providers {
		key := "providers." + name
		if !providerName.MatchString(name) {
			return bad(key, "a provider's name is 1 to 32 lower-case letters and digits")
		}
		if err := checkURL(p.Issuer); err != nil {
			return bad(key+".issuer", err.Error())
		}
		if p.ClientID == "" {
			return bad(key+".clientid", "is required")
		}
		if len(p.Country) != 2 {
			return bad(key+".country", "is required: the ISO country code new accounts get")
		}
		p.Country = strings.ToUpper(p.Country)
		if len(p.Scopes) == 0 {
			p.Scopes = []string{"openid", "email", "profile"}
		}
		if !slices.Contains(p.Scopes, "openid") {
			p.Scopes = append([]string{"openid"}, p.Scopes...)
		}
		domains := make([]string, 0, len(p.Domains))
		for _, d := range p.Domains {
			d = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(d), "@"))
			if d == "" || strings.ContainsAny(d, "@/ ") {
				return bad(key+".domains", fmt.Sprintf("%q is not a domain", d))
			}
			domains = append(domains, d)
		}
		p.Domains = domains
		c.Providers[name] = p
	}
	return nil
}

// checkURL accepts https, and plain http only to this machine (a provider
// or web client under development).
func checkURL(raw string) error {
	if raw == "" {
		return fmt.Errorf("is required when a provider is configured")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || u.Fragment != "" {
		return fmt.Errorf("%q is not an absolute URL", raw)
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if h := u.Hostname(); h == "localhost" || net.ParseIP(h).IsLoopback() {
			return nil
		}
	}
	return fmt.Errorf("%q must be https (http only for localhost)", raw)
}
