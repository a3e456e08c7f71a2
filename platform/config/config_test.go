package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/platform/config"
)

func writeFile(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "propman.yaml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDefaults(t *testing.T) {
	cfg, err := config.Load(config.Options{})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"http.addr", cfg.HTTP.Addr, ":8080"},
		{"http.bodylimit", cfg.HTTP.BodyLimit, 1 << 20},
		{"http.readtimeout", cfg.HTTP.ReadTimeout, 15 * time.Second},
		{"http.shutdowntimeout", cfg.HTTP.ShutdownTimeout, 20 * time.Second},
		{"http.lingerbytes", cfg.HTTP.LingerBytes, int64(32 << 20)},
		{"http.lingertime", cfg.HTTP.LingerTime, 5 * time.Second},
		{"database.url", cfg.Database.URL, "sqlite:data/propman.db"},
		{"database.automigrate", cfg.Database.AutoMigrate, true},
		{"auth.secret", cfg.Auth.Secret, ""},
		{"auth.ttl", cfg.Auth.TTL, time.Hour},
		{"auth.maxage", cfg.Auth.MaxAge, 30 * 24 * time.Hour},
		{"mail.url", cfg.Mail.URL, "log:"},
		{"ratelimit.enabled", cfg.RateLimit.Enabled, true},
		{"log.format", cfg.Log.Format, "text"},
		{"tracing.endpoint", cfg.Tracing.Endpoint, ""},
		{"tracing.service", cfg.Tracing.Service, "propman"},
		{"tracing.ratio", cfg.Tracing.Ratio, 1.0},
		{"tracing enabled", cfg.Tracing.Enabled(), false},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if len(cfg.HTTP.Origins) != 0 || len(cfg.HTTP.Proxies) != 0 {
		t.Errorf("origins %v, proxies %v: want none by default", cfg.HTTP.Origins, cfg.HTTP.Proxies)
	}
}

// Each layer overrides the one below it: defaults < file < environment < overrides.
func TestPrecedence(t *testing.T) {
	file := writeFile(t, "http:\n  addr: \":7001\"\n  readtimeout: 7s\nlog:\n  level: debug\n  format: json\n")
	env := []string{"PROPMAN_HTTP_ADDR=:7002", "PROPMAN_LOG_LEVEL=warn", "UNRELATED=1", "PROPMAN_TEST_DATABASE_URL=postgres://ignored"}
	tests := []struct {
		name      string
		opts      config.Options
		addr      string
		read      time.Duration
		level     string
		logFormat string
	}{
		{"defaults", config.Options{}, ":8080", 15 * time.Second, "info", "text"},
		{"file over defaults", config.Options{File: file}, ":7001", 7 * time.Second, "debug", "json"},
		{"environment over file", config.Options{File: file, Environ: env}, ":7002", 7 * time.Second, "warn", "json"},
		{"overrides over environment", config.Options{File: file, Environ: env, Overrides: map[string]any{"http.addr": ":7003"}},
			":7003", 7 * time.Second, "warn", "json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := config.Load(tt.opts)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if cfg.HTTP.Addr != tt.addr || cfg.HTTP.ReadTimeout != tt.read || cfg.Log.Level != tt.level || cfg.Log.Format != tt.logFormat {
				t.Errorf("got addr %q read %v level %q format %q, want %q %v %q %q",
					cfg.HTTP.Addr, cfg.HTTP.ReadTimeout, cfg.Log.Level, cfg.Log.Format, tt.addr, tt.read, tt.level, tt.logFormat)
			}
		})
	}
}

func TestEnvironmentValues(t *testing.T) {
	cfg, err := config.Load(config.Options{Environ: []string{
		"PROPMAN_HTTP_ORIGINS=https://a.example, https://b.example",
		"PROPMAN_HTTP_PROXIES=10.0.0.0/8,192.168.1.1",
		"PROPMAN_HTTP_BODYLIMIT=2048",
		"PROPMAN_DATABASE_AUTOMIGRATE=false",
		"PROPMAN_RATELIMIT_ENABLED=0",
		"PROPMAN_AUTH_TTL=15m",
		"PROPMAN_DATABASE_URL=postgres://u:p@db:5432/propman?sslmode=disable",
		"PROPMAN_TRACING_ENDPOINT=http://collector:4318",
		"PROPMAN_TRACING_RATIO=0.25",
	}})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if cfg.Tracing.Endpoint != "http://collector:4318" || cfg.Tracing.Ratio != 0.25 || !cfg.Tracing.Enabled() {
		t.Errorf("tracing %+v", cfg.Tracing)
	}
	if want := []string{"https://a.example", "https://b.example"}; !slices.Equal(cfg.HTTP.Origins, want) {
		t.Errorf("origins %q, want %q", cfg.HTTP.Origins, want)
	}
	if want := []string{"10.0.0.0/8", "192.168.1.1"}; !slices.Equal(cfg.HTTP.Proxies, want) {
		t.Errorf("proxies %q, want %q", cfg.HTTP.Proxies, want)
	}
	if cfg.HTTP.BodyLimit != 2048 || cfg.Database.AutoMigrate || cfg.RateLimit.Enabled || cfg.Auth.TTL != 15*time.Minute {
		t.Errorf("bodylimit %d automigrate %v ratelimit %v ttl %v", cfg.HTTP.BodyLimit, cfg.Database.AutoMigrate, cfg.RateLimit.Enabled, cfg.Auth.TTL)
	}
	if !cfg.Database.IsPostgres() {
		t.Errorf("database.url %q should select PostgreSQL", cfg.Database.URL)
	}
}

func TestEmptyListFromEnvironment(t *testing.T) {
	cfg, err := config.Load(config.Options{
		File:    writeFile(t, "http:\n  origins: [https://a.example]\n"),
		Environ: []string{"PROPMAN_HTTP_ORIGINS="},
	})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(cfg.HTTP.Origins) != 0 {
		t.Errorf("origins %q, want none: an empty variable clears the list", cfg.HTTP.Origins)
	}
}

// A bad value stops the load with an error that names the key.
func TestBadValuesNameTheKey(t *testing.T) {
	tests := []struct {
		name    string
		env     []string
		file    string
		wantKey string
	}{
		{"duration", []string{"PROPMAN_HTTP_READTIMEOUT=abc"}, "", "http.readtimeout"},
		{"negative duration", []string{"PROPMAN_AUTH_TTL=-1h"}, "", "auth.ttl"},
		{"integer", []string{"PROPMAN_HTTP_BODYLIMIT=lots"}, "", "http.bodylimit"},
		{"too small", []string{"PROPMAN_HTTP_BODYLIMIT=10"}, "", "http.bodylimit"},
		{"boolean", []string{"PROPMAN_DATABASE_AUTOMIGRATE=maybe"}, "", "database.automigrate"},
		{"linger bytes negative", []string{"PROPMAN_HTTP_LINGERBYTES=-1"}, "", "http.lingerbytes"},
		{"linger bytes above 1 GiB", []string{"PROPMAN_HTTP_LINGERBYTES=2147483648"}, "", "http.lingerbytes"},
		{"linger bytes not a number", []string{"PROPMAN_HTTP_LINGERBYTES=32MiB"}, "", "http.lingerbytes"},
		{"linger time negative", []string{"PROPMAN_HTTP_LINGERTIME=-1s"}, "", "http.lingertime"},
		{"linger time forever", []string{"PROPMAN_HTTP_LINGERTIME=24h"}, "", "http.lingertime"},
		{"linger time without unit", []string{"PROPMAN_HTTP_LINGERTIME=5"}, "", "http.lingertime"},
		{"log format", []string{"PROPMAN_LOG_FORMAT=xml"}, "", "log.format"},
		{"log level", []string{"PROPMAN_LOG_LEVEL=loud"}, "", "log.level"},
		{"address", []string{"PROPMAN_HTTP_ADDR=8080"}, "", "http.addr"},
		{"proxy", []string{"PROPMAN_HTTP_PROXIES=10.0.0.0/8,not-an-ip"}, "", "http.proxies"},
		{"database url", []string{"PROPMAN_DATABASE_URL=mysql://x"}, "", "database.url"},
		{"max idle", []string{"PROPMAN_DATABASE_MAXIDLE=-1"}, "", "database.maxidle"},
		{"short secret", []string{"PROPMAN_AUTH_SECRET=short"}, "", "auth.secret"},
		{"mail url", []string{"PROPMAN_MAIL_URL=http://mail"}, "", "mail.url"},
		{"tracing ratio above 1", []string{"PROPMAN_TRACING_RATIO=1.5"}, "", "tracing.ratio"},
		{"tracing ratio negative", []string{"PROPMAN_TRACING_RATIO=-0.1"}, "", "tracing.ratio"},
		{"tracing ratio not a number", []string{"PROPMAN_TRACING_RATIO=half"}, "", "tracing.ratio"},
		{"tracing endpoint", []string{"PROPMAN_TRACING_ENDPOINT=127.0.0.1:4318"}, "", "tracing.endpoint"},
		{"no mail workers", []string{"PROPMAN_JOBS_MAILWORKERS=0"}, "", "jobs.mailworkers"},
		{"too many workers", []string{"PROPMAN_JOBS_WORKERS=5000"}, "", "jobs.workers"},
		{"misspelt setting", []string{"PROPMAN_HTTP_ADRR=:9000"}, "", "http.adrr"},
		{"unknown section", []string{"PROPMAN_SERVER_PORT=9000"}, "", "server"},
		{"bad value in file", nil, "database:\n  timeout: soon\n", "database.timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := config.Options{Environ: tt.env}
			if tt.file != "" {
				opts.File = writeFile(t, tt.file)
			}
			cfg, err := config.Load(opts)
			if err == nil {
				t.Fatalf("Load accepted it: %+v", cfg)
			}
			var ce *config.Error
			if !errors.As(err, &ce) || ce.Key != tt.wantKey {
				t.Errorf("error %q does not name key %s as a config.Error", err, tt.wantKey)
			}
			if !strings.Contains(err.Error(), tt.wantKey) {
				t.Errorf("message %q does not mention %s", err, tt.wantKey)
			}
		})
	}
}

func TestMissingFile(t *testing.T) {
	_, err := config.Load(config.Options{File: filepath.Join(t.TempDir(), "nope.yaml")})
	if err == nil || !strings.Contains(err.Error(), "nope.yaml") {
		t.Fatalf("error %v, want one naming the missing file", err)
	}
}

func TestModuleSections(t *testing.T) {
	cfg, err := config.Load(config.Options{
		File: writeFile(t, "modules:\n  agreements:\n    enabled: false\n  accounts:\n    codettl: 5m\n"),
		Environ: []string{
			"PROPMAN_MODULES_CONTRACTS_ENABLED=false",
			"PROPMAN_MODULES_ACCOUNTS_DOMAINS=a.example,b.example",
			"PROPMAN_MODULES_BILLING_ENABLED=nope",
		},
	})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	for _, c := range []struct {
		name string
		want bool
	}{{"agreements", false}, {"contracts", false}, {"reference", true}, {"accounts", true}} {
		got, err := cfg.ModuleEnabled(c.name)
		if err != nil || got != c.want {
			t.Errorf("ModuleEnabled(%s) = %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	_, err = cfg.ModuleEnabled("billing")
	var ce *config.Error
	if !errors.As(err, &ce) || ce.Key != "modules.billing.enabled" {
		t.Errorf("ModuleEnabled(billing) error %v, want one naming modules.billing.enabled", err)
	}
	names := cfg.ModuleNames()
	slices.Sort(names)
	if want := []string{"accounts", "agreements", "billing", "contracts"}; !slices.Equal(names, want) {
		t.Errorf("ModuleNames %v, want %v", names, want)
	}

	accounts := struct {
		CodeTTL time.Duration `koanf:"codettl"`
		Domains []string      `koanf:"domains"`
		Limit   int           `koanf:"limit"`
	}{CodeTTL: 10 * time.Minute, Limit: 5}
	if err := cfg.Module("accounts", &accounts); err != nil {
		t.Fatalf("Module: %v", err)
	}
	if accounts.CodeTTL != 5*time.Minute || accounts.Limit != 5 || !slices.Equal(accounts.Domains, []string{"a.example", "b.example"}) {
		t.Errorf("accounts section %+v: want codettl 5m from the file, limit 5 kept, domains from the environment", accounts)
	}
	var bad struct {
		CodeTTL int `koanf:"codettl"`
	}
	err = cfg.Module("accounts", &bad)
	if !errors.As(err, &ce) || ce.Key != "modules.accounts.codettl" {
		t.Errorf("Module with a mistyped field: error %v, want one naming modules.accounts.codettl", err)
	}
}
