package agreements_test

import (
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/agreements"
	"github.com/propman/propman/platform/testkit"
)

func TestConfig(t *testing.T) {
	for _, tc := range []struct {
		name  string
		value any
		want  time.Duration
		err   string
	}{
		{"default", nil, 30 * time.Second, ""},
		{"duration", "5m", 5 * time.Minute, ""},
		{"off", "0s", 0, ""},
		{"negative", "-1s", 0, "modules.agreements.refresh: must not be negative"},
		{"not a duration", "soon", 0, "modules.agreements.refresh"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			overrides := map[string]any{}
			if tc.value != nil {
				overrides["modules.agreements.refresh"] = tc.value
			}
			c, err := agreements.NewConfig(testkit.Config(t, overrides))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil || c.Refresh != tc.want {
				t.Fatalf("refresh %v, error %v; want %v", c.Refresh, err, tc.want)
			}
		})
	}
}
