// Package tools is the toolbox of /api/v1/tools: help links in the user's
// language (from configuration), the carrier and tracking page of a postal
// tracking number (tracking), and the coordinates of an address, through a
// Nominatim-compatible provider when one is configured, else of a city from
// an embedded GeoNames extract (cities).
package tools

import (
	_ "embed"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"go.uber.org/fx"
	"go.yaml.in/yaml/v3"

	"github.com/propman/propman/modules/tools/migrations"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "tools"

//go:embed openapi.yaml
var openapiYAML []byte

// defaultsYAML is the module's default configuration: the help links an
// operator gets until they configure their own.
//
//go:embed defaults.yaml
var defaultsYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Tools: help links, postal tracking numbers, geocoding", Status: module.Ready,
		Depends:    []string{"reference", "accounts"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewConfig, NewGeocoder),
			fx.Provide(fx.Private, NewHandlerFx),
			module.ProvideRoutes(NewRoutes),
		),
	}
}

// HelpLink is one entry of GET /tools/help-links. Title and URL are keyed
// by locale; "en" is required and answers for every locale that lacks its
// own.
type HelpLink struct {
	Key   string            `koanf:"key" yaml:"key"`
	Title map[string]string `koanf:"title" yaml:"title"`
	URL   map[string]string `koanf:"url" yaml:"url"`
}

// Config is the section modules.tools.
type Config struct {
	// HelpLinks replaces the shipped links (defaults.yaml) when set.
	HelpLinks []HelpLink `koanf:"helplinks"`
	// GeocodeURL is the base URL of a Nominatim-compatible service
	// (its /search is called). Empty: cities only, from the embedded data.
	GeocodeURL string `koanf:"geocodeurl"`
	// GeocodeUserAgent identifies this installation to the provider, as
	// Nominatim's usage policy asks (an application name and a contact).
	// Required with GeocodeURL.
	GeocodeUserAgent string `koanf:"geocodeuseragent"`
	// GeocodeInterval is the least time between two requests to the
	// provider, counted across every instance on the database.
	GeocodeInterval time.Duration `koanf:"geocodeinterval"`
	// GeocodeMaxWait is how long a request may queue for its turn; beyond
	// it the client gets 429 with the wait.
	GeocodeMaxWait time.Duration `koanf:"geocodemaxwait"`
	// GeocodeTimeout bounds one provider request.
	GeocodeTimeout time.Duration `koanf:"geocodetimeout"`
	// GeocodeCacheTTL is how long a provider's answer is reused.
	GeocodeCacheTTL time.Duration `koanf:"geocodecachettl"`
}

var (
	linkKey    = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)
	localeCode = regexp.MustCompile(`^[a-z]{2}$`)
)

// NewConfig reads modules.tools with its defaults and checks it.
func NewConfig(cfg *config.Config) (Config, error) {
	c := Config{GeocodeInterval: time.Second, GeocodeMaxWait: 5 * time.Second, GeocodeTimeout: 10 * time.Second,
		GeocodeCacheTTL: 30 * 24 * time.Hour}
	if err := cfg.Module(Name, &c); err != nil {
		return Config{}, err
	}
	if c.HelpLinks == nil {
		var d struct {
			HelpLinks []HelpLink `yaml:"helplinks"`
		}
		if err := yaml.Unmarshal(defaultsYAML, &d); err != nil {
			return Config{}, fmt.Errorf("tools: defaults.yaml: %w", err)
		}
		c.HelpLinks = d.HelpLinks
	}
	key := func(k string) string { return "modules.tools." + k }
	seen := map[string]bool{}
	for i, l := range c.HelpLinks {
		at := fmt.Sprintf("helplinks[%d]", i)
		switch {
		case !linkKey.MatchString(l.Key) || seen[l.Key]:
			return Config{}, &config.Error{Key: key(at + ".key"), Reason: "must be a unique lower-case word (letters, digits, dashes)"}
		case l.Title["en"] == "" || l.URL["en"] == "":
			return Config{}, &config.Error{Key: key(at), Reason: "needs a title and a url for en, the fallback of every locale"}
		}
		seen[l.Key] = true
		for loc, u := range l.URL {
			if !localeCode.MatchString(loc) || !linkURL(u) {
				return Config{}, &config.Error{Key: key(at + ".url." + loc), Reason: "must be an http(s) URL or a path starting with /, under a two-letter locale"}
			}
		}
		for loc, t := range l.Title {
			if !localeCode.MatchString(loc) || strings.TrimSpace(t) == "" || len(t) > 200 {
				return Config{}, &config.Error{Key: key(at + ".title." + loc), Reason: "must be 1 to 200 characters under a two-letter locale"}
			}
		}
	}
	if c.GeocodeURL != "" {
		u, err := url.Parse(c.GeocodeURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return Config{}, &config.Error{Key: key("geocodeurl"), Reason: "must be an http(s) URL such as https://nominatim.openstreetmap.org"}
		}
		if strings.TrimSpace(c.GeocodeUserAgent) == "" {
			return Config{}, &config.Error{Key: key("geocodeuseragent"), Reason: "is required with geocodeurl: name this installation and a contact, e.g. \"propman at example.com (ops@example.com)\""}
		}
	}
	switch {
	case c.GeocodeInterval < 0 || c.GeocodeInterval > time.Minute:
		return Config{}, &config.Error{Key: key("geocodeinterval"), Reason: "must be from 0 to 1m"}
	case c.GeocodeMaxWait < 0 || c.GeocodeMaxWait > time.Minute:
		return Config{}, &config.Error{Key: key("geocodemaxwait"), Reason: "must be from 0 to 1m"}
	case c.GeocodeTimeout <= 0 || c.GeocodeTimeout > time.Minute:
		return Config{}, &config.Error{Key: key("geocodetimeout"), Reason: "must be from 1ms to 1m"}
	case c.GeocodeCacheTTL < 0:
		return Config{}, &config.Error{Key: key("geocodecachettl"), Reason: "must not be negative"}
	}
	return c, nil
}

func linkURL(s string) bool {
	if strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//") {
		return true
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
