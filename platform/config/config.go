// Package config loads propman's configuration: the embedded defaults, then an
// optional file, then PROPMAN_* environment variables. It is the only package
// that reads the environment.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/providers/env/v2"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/providers/rawbytes"
	"github.com/knadh/koanf/v2"

	"github.com/propman/propman/configs"
)

// EnvPrefix starts every environment variable propman reads.
const EnvPrefix = "PROPMAN_"

// Config is the typed configuration of the platform. Modules read their own
// section (modules.<name>) with Module.
type Config struct {
	HTTP      HTTP      `koanf:"http"`
	Log       Log       `koanf:"log"`
	Database  Database  `koanf:"database"`
	Auth      Auth      `koanf:"auth"`
	Mail      Mail      `koanf:"mail"`
	RateLimit RateLimit `koanf:"ratelimit"`
	Metrics   Metrics   `koanf:"metrics"`
	Tracing   Tracing   `koanf:"tracing"`
	Jobs      Jobs      `koanf:"jobs"`

	k *koanf.Koanf
}

// HTTP configures the server.
type HTTP struct {
	Addr            string        `koanf:"addr"`
	Origins         []string      `koanf:"origins"`
	Proxies         []string      `koanf:"proxies"`
	BodyLimit       int           `koanf:"bodylimit"`
	ReadTimeout     time.Duration `koanf:"readtimeout"`
	WriteTimeout    time.Duration `koanf:"writetimeout"`
	IdleTimeout     time.Duration `koanf:"idletimeout"`
	ShutdownTimeout time.Duration `koanf:"shutdowntimeout"`
	// LingerBytes and LingerTime bound the drain after the server refuses a
	// request it has not read to the end (413, 431, 400): it reads and
	// discards at most LingerBytes for at most LingerTime before closing, so
	// the client still sending its body reads the answer instead of a reset.
	// Either at 0 closes at once.
	LingerBytes int64         `koanf:"lingerbytes"`
	LingerTime  time.Duration `koanf:"lingertime"`
	// PublicURL is the address people reach propman at (scheme, host,
	// optional path, no trailing slash), from which every absolute link
	// in a mail is built. Empty: each link keeps its old default
	// (localhost), and a start that really sends mail warns.
	PublicURL string `koanf:"publicurl"`
}

// DefaultPublicURL is where links point while http.publicurl is unset: the
// address a developer's own instance answers at.
const DefaultPublicURL = "http://localhost:8080"

// Link is the absolute link to path (starting with "/") under
// http.publicurl, and whether the setting is set; unset, it is under
// DefaultPublicURL.
func (h HTTP) Link(path string) (string, bool) {
	if h.PublicURL == "" {
		return DefaultPublicURL + path, false
	}
	return h.PublicURL + path, true
}

// Upper bounds of the linger settings: a drain exists to let a client read
// an answer, never to hold connections for long.
const (
	MaxLingerBytes = 1 << 30
	MaxLingerTime  = time.Minute
)

// Log configures the structured logger.
type Log struct {
	Level  string `koanf:"level"`
	Format string `koanf:"format"`
}

// Database configures the connection pool and migrations.
type Database struct {
	URL         string        `koanf:"url"`
	AutoMigrate bool          `koanf:"automigrate"`
	MaxOpen     int           `koanf:"maxopen"`
	MaxIdle     int           `koanf:"maxidle"`
	Lifetime    time.Duration `koanf:"lifetime"`
	Timeout     time.Duration `koanf:"timeout"`
}

// Auth configures token signing.
type Auth struct {
	Secret string        `koanf:"secret"`
	TTL    time.Duration `koanf:"ttl"`
	MaxAge time.Duration `koanf:"maxage"`
	Issuer string        `koanf:"issuer"`
}

// Mail configures outgoing email.
type Mail struct {
	URL  string `koanf:"url"`
	From string `koanf:"from"`
}

// RateLimit switches the per-IP limits (per-account limits always hold).
type RateLimit struct {
	Enabled bool `koanf:"enabled"`
}

// Metrics switches the Prometheus endpoint.
type Metrics struct {
	Enabled bool `koanf:"enabled"`
}

// Tracing configures OpenTelemetry tracing of requests and queries.
type Tracing struct {
	// Endpoint is the OTLP/HTTP base URL (http://127.0.0.1:4318); empty
	// switches tracing off.
	Endpoint string `koanf:"endpoint"`
	// Service is the service.name of the spans.
	Service string `koanf:"service"`
	// Ratio is the share of new traces sampled, from 0 to 1.
	Ratio float64 `koanf:"ratio"`
}

// Jobs configures the background work (platform/jobs).
type Jobs struct {
	// Work: this instance works jobs; false makes an API-only instance,
	// which still queues them for the others.
	Work bool `koanf:"work"`
	// Workers is how many jobs of the default queue this instance works at
	// once, MailWorkers how many of the mail queue.
	Workers     int `koanf:"workers"`
	MailWorkers int `koanf:"mailworkers"`
	// Poll is how often an idle instance looks for new jobs.
	Poll time.Duration `koanf:"poll"`
	// Timeout bounds one attempt of a job.
	Timeout time.Duration `koanf:"timeout"`
	// Rescue is when a job whose instance died is tried again.
	Rescue time.Duration `koanf:"rescue"`
	// Attempts is how often a failing job is tried before it is discarded.
	Attempts int `koanf:"attempts"`
	// Tick is how often the periodic runs (billing, late fees, notices)
	// look for workspaces whose local time has come.
	Tick time.Duration `koanf:"tick"`
	// UI serves River's web UI under /admin/jobs to ROLE_ADMIN users
	// (platform/jobs/jobsui); false: the path answers 404.
	UI bool `koanf:"ui"`
}

// Enabled reports whether spans are recorded and exported.
func (t Tracing) Enabled() bool { return t.Endpoint != "" }

// Options says where configuration comes from besides the embedded defaults.
type Options struct {
	// File is an optional YAML file layered over the defaults.
	File string
	// Environ is the environment (KEY=VALUE); nil reads none.
	Environ []string
	// Overrides are applied last, by dotted key; tests use them.
	Overrides map[string]any
}

// Environ returns the process environment, for Options.Environ.
func Environ() []string { return os.Environ() }

// TestDatabaseURL is the PostgreSQL URL tests run against, or "" for SQLite only.
func TestDatabaseURL() string { return os.Getenv("PROPMAN_TEST_DATABASE_URL") }

// Load builds the configuration and validates it. An error names the key.
func Load(opts Options) (*Config, error) {
	k := koanf.New(".")
	if err := k.Load(rawbytes.Provider(configs.Default), yaml.Parser()); err != nil {
		return nil, fmt.Errorf("config: embedded defaults: %w", err)
	}
	if opts.File != "" {
		if err := k.Load(file.Provider(opts.File), yaml.Parser()); err != nil {
			return nil, fmt.Errorf("config: file %s: %w", opts.File, err)
		}
	}
	if opts.Environ != nil {
		environ := opts.Environ
		if err := k.Load(env.Provider(".", env.Opt{
			Prefix:        EnvPrefix,
			TransformFunc: envKey,
			EnvironFunc:   func() []string { return environ },
		}), nil); err != nil {
			return nil, fmt.Errorf("config: environment: %w", err)
		}
	}
	if len(opts.Overrides) > 0 {
		if err := k.Load(confmap.Provider(opts.Overrides, "."), nil); err != nil {
			return nil, fmt.Errorf("config: overrides: %w", err)
		}
	}
	cfg := &Config{k: k}
	sections := []struct {
		key string
		out any
	}{
		{"http", &cfg.HTTP}, {"log", &cfg.Log}, {"database", &cfg.Database},
		{"auth", &cfg.Auth}, {"mail", &cfg.Mail}, {"ratelimit", &cfg.RateLimit},
		{"metrics", &cfg.Metrics}, {"tracing", &cfg.Tracing}, {"jobs", &cfg.Jobs},
	}
	var errs []error
	known := map[string]bool{"modules": true}
	for _, section := range sections {
		known[section.key] = true
		if err := decode(k, section.key, section.out); err != nil {
			errs = append(errs, err)
		}
		errs = append(errs, unknownKeys(k, section.key, section.out)...)
	}
	for _, key := range k.MapKeys("") {
		if !known[key] {
			errs = append(errs, &Error{Key: key, Reason: "there is no such section"})
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// decode unmarshals the section at path into out. Values from the
// environment are strings, so lists are split at commas and numbers, booleans
// and durations are parsed; an error names the full key of the bad value.
func decode(k *koanf.Koanf, path string, out any) error {
	err := k.UnmarshalWithConf(path, out, koanf.UnmarshalConf{DecoderConfig: &mapstructure.DecoderConfig{
		DecodeHook: mapstructure.ComposeDecodeHookFunc(
			splitList, mapstructure.StringToTimeDurationHookFunc(), mapstructure.TextUnmarshallerHookFunc()),
		WeaklyTypedInput: true,
	}})
	if err == nil {
		return nil
	}
	var errs []error
	var walk func(error)
	walk = func(e error) {
		// mapstructure joins one error per bad field; each names its field.
		if joined, ok := e.(interface{ Unwrap() []error }); ok { //nolint:errorlint // walking a join, not matching a type
			for _, sub := range joined.Unwrap() {
				walk(sub)
			}
			return
		}
		var de *mapstructure.DecodeError
		if errors.As(e, &de) {
			errs = append(errs, &Error{Key: path + "." + de.Name(), Reason: describe(de.Unwrap())})
		}
	}
	walk(err)
	if len(errs) == 0 {
		return &Error{Key: path, Reason: err.Error()}
	}
	return errors.Join(errs...)
}

// describe words a decoding error for an operator.
func describe(err error) string {
	var pe *mapstructure.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%q is not a valid %s", fmt.Sprint(pe.Value), pe.Expected.Type())
	}
	var ue *mapstructure.UnconvertibleTypeError
	if errors.As(err, &ue) {
		return fmt.Sprintf("a %s is needed here", ue.Expected.Type())
	}
	msg := err.Error()
	if strings.Contains(msg, "time: ") {
		return msg + " (use a duration such as 30s, 5m or 1h)"
	}
	return msg
}

// splitList turns "a, b" into [a b] for list settings: the environment can
// only give strings.
func splitList(from, to reflect.Type, data any) (any, error) {
	if from.Kind() != reflect.String || to.Kind() != reflect.Slice {
		return data, nil
	}
	var out []string
	for _, part := range strings.Split(data.(string), ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out, nil
}

// unknownKeys reports keys of a platform section that no field reads, so a
// misspelt setting (PROPMAN_HTTP_ADRR) stops the start instead of being
// silently ignored.
func unknownKeys(k *koanf.Koanf, section string, out any) []error {
	fields := map[string]bool{}
	t := reflect.TypeOf(out).Elem()
	for i := 0; i < t.NumField(); i++ {
		fields[t.Field(i).Tag.Get("koanf")] = true
	}
	var errs []error
	keys := k.MapKeys(section)
	sort.Strings(keys)
	for _, key := range keys {
		if !fields[key] {
			errs = append(errs, &Error{Key: section + "." + key, Reason: "there is no such setting"})
		}
	}
	return errs
}

// envKey maps PROPMAN_HTTP_ADDR to http.addr. Keys are single lower-case
// words, so every underscore is a level.
func envKey(k, v string) (string, any) {
	key := strings.ToLower(strings.TrimPrefix(k, EnvPrefix))
	key = strings.ReplaceAll(key, "_", ".")
	if key == "test.database.url" {
		return "", nil
	}
	return key, v
}

// Error is a configuration value that is not acceptable.
type Error struct {
	Key    string
	Reason string
}

func (e *Error) Error() string { return fmt.Sprintf("config: %s: %s", e.Key, e.Reason) }

func (c *Config) validate() error {
	var errs []error
	bad := func(key, reason string) { errs = append(errs, &Error{Key: key, Reason: reason}) }
	if _, _, err := net.SplitHostPort(c.HTTP.Addr); err != nil {
		bad("http.addr", fmt.Sprintf("%q is not host:port", c.HTTP.Addr))
	}
	if c.Jobs.MailWorkers < 1 || c.Jobs.MailWorkers > 1000 {
		bad("jobs.mailworkers", "must be between 1 and 1000")
	}
	if c.Jobs.Workers < 1 || c.Jobs.Workers > 1000 {
		bad("jobs.workers", "must be between 1 and 1000")
	}
	if c.Jobs.Attempts < 1 || c.Jobs.Attempts > 100 {
		bad("jobs.attempts", "must be between 1 and 100")
	}
	if c.Jobs.Rescue <= c.Jobs.Timeout {
		bad("jobs.rescue", "must be longer than jobs.timeout, or a job still running would be started again")
	}
	if c.HTTP.BodyLimit < 1024 {
		bad("http.bodylimit", "must be at least 1024 bytes")
	}
	if c.HTTP.LingerBytes < 0 || c.HTTP.LingerBytes > MaxLingerBytes {
		bad("http.lingerbytes", fmt.Sprintf("%d is not between 0 (no drain) and %d bytes (1 GiB)", c.HTTP.LingerBytes, MaxLingerBytes))
	}
	if c.HTTP.LingerTime < 0 || c.HTTP.LingerTime > MaxLingerTime {
		bad("http.lingertime", fmt.Sprintf("%s is not between 0 (no drain) and %s", c.HTTP.LingerTime, MaxLingerTime))
	}
	if c.HTTP.PublicURL != "" {
		u, err := url.Parse(c.HTTP.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			bad("http.publicurl", fmt.Sprintf("%q is not an absolute http(s) URL without query, fragment or user (e.g. https://propman.example.com)", c.HTTP.PublicURL))
		}
		c.HTTP.PublicURL = strings.TrimRight(c.HTTP.PublicURL, "/")
	}
	for _, p := range c.HTTP.Proxies {
		if _, err := netip.ParsePrefix(p); err != nil {
			if _, err := netip.ParseAddr(p); err != nil {
				bad("http.proxies", fmt.Sprintf("%q is neither an IP address nor a CIDR range", p))
			}
		}
	}
	for key, d := range map[string]time.Duration{
		"http.readtimeout": c.HTTP.ReadTimeout, "http.writetimeout": c.HTTP.WriteTimeout,
		"http.idletimeout": c.HTTP.IdleTimeout, "http.shutdowntimeout": c.HTTP.ShutdownTimeout,
		"database.lifetime": c.Database.Lifetime, "database.timeout": c.Database.Timeout,
		"auth.ttl": c.Auth.TTL, "auth.maxage": c.Auth.MaxAge,
		"jobs.poll": c.Jobs.Poll, "jobs.timeout": c.Jobs.Timeout, "jobs.rescue": c.Jobs.Rescue, "jobs.tick": c.Jobs.Tick,
	} {
		if d <= 0 {
			bad(key, "must be a positive duration such as 30s or 1h")
		}
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		bad("log.level", fmt.Sprintf("%q is not one of debug, info, warn, error", c.Log.Level))
	}
	switch c.Log.Format {
	case "text", "json":
	default:
		bad("log.format", fmt.Sprintf("%q is not one of text, json", c.Log.Format))
	}
	if !strings.HasPrefix(c.Database.URL, "sqlite:") && !strings.HasPrefix(c.Database.URL, "postgres://") &&
		!strings.HasPrefix(c.Database.URL, "postgresql://") {
		bad("database.url", "must start with sqlite: or postgres://")
	}
	if c.Database.MaxOpen < 0 {
		bad("database.maxopen", "must not be negative")
	}
	if c.Database.MaxIdle < 0 {
		bad("database.maxidle", "must not be negative")
	}
	if c.Auth.Secret != "" && len(c.Auth.Secret) < 32 {
		bad("auth.secret", "must be at least 32 bytes")
	}
	if c.Auth.Issuer == "" {
		bad("auth.issuer", "must not be empty")
	}
	if !strings.HasPrefix(c.Mail.URL, "log:") && !strings.HasPrefix(c.Mail.URL, "smtp://") &&
		!strings.HasPrefix(c.Mail.URL, "smtps://") {
		bad("mail.url", "must be log: or smtp://user:pass@host:port")
	}
	if !(c.Tracing.Ratio >= 0 && c.Tracing.Ratio <= 1) {
		bad("tracing.ratio", fmt.Sprintf("%v is not between 0 and 1", c.Tracing.Ratio))
	}
	if c.Tracing.Endpoint != "" {
		if u, err := url.Parse(c.Tracing.Endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("tracing.endpoint", fmt.Sprintf("%q is not an http:// or https:// URL such as http://127.0.0.1:4318", c.Tracing.Endpoint))
		}
		if c.Tracing.Service == "" {
			bad("tracing.service", "must not be empty when tracing.endpoint is set")
		}
	}
	return errors.Join(errs...)
}

// IsPostgres reports whether the database URL selects PostgreSQL.
func (d Database) IsPostgres() bool { return !strings.HasPrefix(d.URL, "sqlite:") }

// ModuleEnabled reports modules.<name>.enabled; a module is on unless switched off.
func (c *Config) ModuleEnabled(name string) (bool, error) {
	key := "modules." + name + ".enabled"
	if !c.k.Exists(key) {
		return true, nil
	}
	var v struct {
		Enabled bool `koanf:"enabled"`
	}
	if err := decode(c.k, "modules."+name, &v); err != nil {
		return false, err
	}
	return v.Enabled, nil
}

// ModuleNames lists the module names that appear under modules.
func (c *Config) ModuleNames() []string { return c.k.MapKeys("modules") }

// Module decodes the section modules.<name> into out, which holds defaults.
func (c *Config) Module(name string, out any) error {
	return decode(c.k, "modules."+name, out)
}
