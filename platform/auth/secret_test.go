package auth_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/config"
)

func configWith(t *testing.T, overrides map[string]any) *config.Config {
	t.Helper()
	cfg, err := config.Load(config.Options{Overrides: overrides})
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	return cfg
}

// Without a secret, SQLite generates one beside the database file, readable
// only by its owner, and the next start reuses it.
func TestGeneratedSecretOnSQLite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	cfg := configWith(t, map[string]any{"database.url": "sqlite:" + filepath.Join(dir, "propman.db")})

	first, file, err := auth.ResolveSecret(cfg)
	if err != nil {
		t.Fatalf("first start: %v", err)
	}
	if want := filepath.Join(dir, auth.SecretFileName); file != want {
		t.Errorf("generated file %q, want %q", file, want)
	}
	if len(first) < auth.MinSecretLength {
		t.Errorf("generated secret has %d bytes, want at least %d", len(first), auth.MinSecretLength)
	}
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if mode := info.Mode().Perm(); mode != 0o600 {
		t.Errorf("secret file mode %o, want 600", mode)
	}

	second, file2, err := auth.ResolveSecret(cfg)
	if err != nil {
		t.Fatalf("second start: %v", err)
	}
	if file2 != "" || string(second) != string(first) {
		t.Errorf("second start generated %q again or read another secret", file2)
	}

	other := configWith(t, map[string]any{"database.url": "sqlite:" + filepath.Join(t.TempDir(), "other.db")})
	third, _, err := auth.ResolveSecret(other)
	if err != nil || string(third) == string(first) {
		t.Errorf("another installation got the same secret (err %v)", err)
	}
}

func TestSecretRules(t *testing.T) {
	long := strings.Repeat("k", auth.MinSecretLength)
	tests := []struct {
		name      string
		overrides map[string]any
		want      string // part of the error; "" when accepted
	}{
		{"configured secret on PostgreSQL", map[string]any{
			"database.url": "postgres://u@db:5432/p", "auth.secret": long}, ""},
		{"configured secret on SQLite", map[string]any{"auth.secret": long}, ""},
		{"PostgreSQL without a secret", map[string]any{"database.url": "postgres://u@db:5432/p"}, "auth.secret: required with PostgreSQL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok := tt.overrides["database.url"]; !ok {
				tt.overrides["database.url"] = "sqlite:" + filepath.Join(t.TempDir(), "p.db")
			}
			secret, file, err := auth.ResolveSecret(configWith(t, tt.overrides))
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("error %v, want %q", err, tt.want)
				}
				return
			}
			if err != nil || string(secret) != long || file != "" {
				t.Fatalf("got %q, %q, %v; want the configured secret and no file", secret, file, err)
			}
		})
	}
}

// A short secret is refused wherever it comes from: the configuration, the
// token service, or a tampered secret file.
func TestShortSecretRefused(t *testing.T) {
	short := strings.Repeat("k", auth.MinSecretLength-1)
	if _, err := config.Load(config.Options{Overrides: map[string]any{"auth.secret": short}}); err == nil ||
		!strings.Contains(err.Error(), "auth.secret") {
		t.Errorf("config accepted a %d-byte secret: %v", len(short), err)
	}
	cfg := configWith(t, nil)
	if _, err := auth.NewTokens(cfg.Auth, []byte(short), nil); err == nil {
		t.Error("NewTokens accepted a short secret")
	}
	if _, err := auth.NewTokens(cfg.Auth, nil, nil); err == nil {
		t.Error("NewTokens accepted an empty secret")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, auth.SecretFileName), []byte(short+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fileCfg := configWith(t, map[string]any{"database.url": "sqlite:" + filepath.Join(dir, "propman.db")})
	if _, _, err := auth.ResolveSecret(fileCfg); err == nil || !strings.Contains(err.Error(), "fewer than") {
		t.Errorf("a short secret file was accepted: %v", err)
	}
}
