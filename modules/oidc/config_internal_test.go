package oidc

import (
	"os"

	"strings"
	"testing"
	"time"

	"github.com/propman/propman/platform/config"
)

func TestConfigRefusesWhatWouldFailLater(t *testing.T) {
	good := func() Config {
		return Config{
			PublicURL: "https://api.example.com/", WebURL: "https://app.example.com/in", FlowTTL: 10 * time.Minute, Timeout: 10 * time.Second,
			Providers: map[string]ProviderConfig{"google": {
				Issuer: "https://accounts.google.com", ClientID: "id", Country: "de", Scopes: []string{"email"}, Domains: []string{"@Example.com"},
			}},
		}
	}
	c := good()
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	p := c.Providers["google"]
	if c.PublicURL != "https://api.example.com" || p.Country != "DE" || p.Scopes[0] != "openid" || p.Domains[0] != "example.com" {
		t.Fatalf("normalized: %+v %+v", c, p)
	}
	for key, change := range map[string]func(*Config){
		"publicurl": func(c *Config) { c.PublicURL = "" },
		"weburl":    func(c *Config) { c.WebURL = "http://app.example.com/" },
		"flowttl":   func(c *Config) { c.FlowTTL = time.Second },
		"providers.google.issuer": func(c *Config) {
			p := c.Providers["google"]
			p.Issuer = "accounts.google.com"
			c.Providers["google"] = p
		},
		"providers.google.clientid": func(c *Config) { p := c.Providers["google"]; p.ClientID = ""; c.Providers["google"] = p },
		"providers.google.country":  func(c *Config) { p := c.Providers["google"]; p.Country = ""; c.Providers["google"] = p },
		"providers.google.domains":  func(c *Config) { p := c.Providers["google"]; p.Domains = []string{"a b"}; c.Providers["google"] = p },
		"providers.Bad_Name":        func(c *Config) { c.Providers["Bad_Name"] = c.Providers["google"] },
	} {
		c := good()
		change(&c)
		err := c.check()
		if err == nil || !strings.Contains(err.Error(), "modules.oidc."+key) {
			t.Errorf("%s: %v", key, err)
		}
	}
	// Plain http only to this machine.
	c = good()
	c.PublicURL, c.WebURL = "http://localhost:8080", "http://127.0.0.1:3000/in"
	if err := c.check(); err != nil {
		t.Error(err)
	}
	// No provider: nothing else is needed.
	if err := (&Config{FlowTTL: time.Minute, Timeout: time.Second}).check(); err != nil {
		t.Error(err)
	}
}

// The documented way: the provider in a file, its secret and a list from
// the environment.
func TestConfigFromFileAndEnvironment(t *testing.T) {
	file := t.TempDir() + "/propman.yaml"
	yaml := "modules:\n  oidc:\n    publicurl: https://api.example.com\n    weburl: https://app.example.com/in\n" +
		"    providers:\n      keycloak:\n        issuer: https://sso.example.com/realms/acme\n        clientid: propman\n        country: AT\n"
	if err := os.WriteFile(file, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(config.Options{File: file, Environ: []string{
		"PROPMAN_MODULES_OIDC_PROVIDERS_KEYCLOAK_CLIENTSECRET=s3cret",
		"PROPMAN_MODULES_OIDC_PROVIDERS_KEYCLOAK_DOMAINS=acme.example,acme.test",
	}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := c.Providers["keycloak"]
	if p.ClientSecret != "s3cret" || len(p.Domains) != 2 || p.Domains[1] != "acme.test" || p.Issuer != "https://sso.example.com/realms/acme" {
		t.Fatalf("%+v", p)
	}
}
