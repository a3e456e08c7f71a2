package penalties_test

import (
	"strings"
	"testing"

	"github.com/propman/propman/modules/penalties"
	"github.com/propman/propman/platform/testkit"
)

func TestConfig(t *testing.T) {
	for _, tc := range []struct {
		name      string
		overrides map[string]any
		want      map[string]penalties.InterestRate
		err       string
	}{
		{"default", nil, map[string]penalties.InterestRate{"DE": {Base: "1.27", Points: "5"}}, ""},
		{"base only keeps the points", map[string]any{"modules.penalties.interest.de.base": "-0.88"},
			map[string]penalties.InterestRate{"DE": {Base: "-0.88", Points: "5"}}, ""},
		{"a number from YAML", map[string]any{"modules.penalties.interest.de.base": 3.62},
			map[string]penalties.InterestRate{"DE": {Base: "3.62", Points: "5"}}, ""},
		{"another country", map[string]any{"modules.penalties.interest.fr.base": "6.65", "modules.penalties.interest.fr.points": "0"},
			map[string]penalties.InterestRate{"DE": {Base: "1.27", Points: "5"}, "FR": {Base: "6.65", Points: "0"}}, ""},
		{"not a number", map[string]any{"modules.penalties.interest.de.base": "soon"}, nil, "modules.penalties.interest.de: base \"soon\""},
		{"no points", map[string]any{"modules.penalties.interest.it.base": "2"}, nil, "modules.penalties.interest.it: points"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := penalties.NewConfig(testkit.Config(t, tc.overrides))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil || len(c.Interest) != len(tc.want) {
				t.Fatalf("config %+v, error %v; want %+v", c, err, tc.want)
			}
			for k, v := range tc.want {
				if c.Interest[k] != v {
					t.Errorf("%s: %+v, want %+v", k, c.Interest[k], v)
				}
			}
		})
	}
}
