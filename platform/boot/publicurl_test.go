package boot_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/platform/boot"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/testkit"
)

// The start warns about an unset http.publicurl only when mail really goes
// out (SMTP): then mailed links would point to localhost.
func TestPublicURLWarningOnlyWhenMailIsSent(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  map[string]any
		warn bool
	}{
		{"smtp without publicurl", map[string]any{"mail.url": "smtp://127.0.0.1:2525"}, true},
		{"smtp with publicurl", map[string]any{"mail.url": "smtp://127.0.0.1:2525", "http.publicurl": "https://propman.example.com"}, false},
		{"log mailer", map[string]any{"mail.url": "log:"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs strings.Builder
			log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
			app, err := boot.New(context.Background(), boot.Options{Config: testkit.Config(t, tc.cfg), Entries: modules.Catalog(), Logger: log})
			if err != nil {
				t.Fatalf("boot.New: %v", err)
			}
			t.Cleanup(func() { _ = app.Stop(context.Background()) })
			n := strings.Count(logs.String(), "http.publicurl is not set")
			switch {
			case tc.warn && (n != 1 || !strings.Contains(logs.String(), "key=http.publicurl")):
				t.Errorf("want one warning naming http.publicurl, got:\n%s", logs.String())
			case !tc.warn && n != 0:
				t.Errorf("want no warning, got:\n%s", logs.String())
			}
		})
	}
}

// A publicurl that is not an absolute http(s) address stops the start.
func TestPublicURLIsChecked(t *testing.T) {
	for _, bad := range []string{"propman.example.com", "ftp://x.example.com", "https://x.example.com/?a=1"} {
		_, err := config.Load(config.Options{Overrides: map[string]any{"http.publicurl": bad}})
		if err == nil || !strings.Contains(err.Error(), "http.publicurl") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	cfg, err := config.Load(config.Options{Overrides: map[string]any{"http.publicurl": "https://x.example.com/pm/"}})
	if err != nil || cfg.HTTP.PublicURL != "https://x.example.com/pm" {
		t.Errorf("a trailing slash: %v %+v", err, cfg)
	}
}
