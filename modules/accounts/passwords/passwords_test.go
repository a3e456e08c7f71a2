package passwords

import (
	"strings"
	"testing"
)

func TestListSize(t *testing.T) {
	if n := Count(); n < 10000 {
		t.Fatalf("list has %d entries, want at least 10000", n)
	}
}

func TestListIsNormalised(t *testing.T) {
	seen := make(map[string]bool)
	for i, line := range strings.Split(strings.TrimSuffix(commonList, "\n"), "\n") {
		if line == "" {
			t.Fatalf("line %d is empty", i+1)
		}
		if line != strings.ToLower(line) {
			t.Errorf("line %d %q is not lower-cased", i+1, line)
		}
		if seen[line] {
			t.Errorf("line %d %q is a duplicate", i+1, line)
		}
		seen[line] = true
	}
}

func TestIsCommon(t *testing.T) {
	for _, pw := range []string{"password", "123456", "qwerty123", "Password", "QWERTY123", "PaSsWoRd1"} {
		if !IsCommon(pw) {
			t.Errorf("IsCommon(%q) = false, want true", pw)
		}
	}
	for _, pw := range []string{"Xk9#fj2Lq", "", " password", "password "} {
		if IsCommon(pw) {
			t.Errorf("IsCommon(%q) = true, want false", pw)
		}
	}
}
