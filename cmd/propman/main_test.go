package main

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestVersionAndHelp(t *testing.T) {
	if code, out, _ := runCmd(t, "version"); code != 0 || out != "propman 1.0.0\n" {
		t.Errorf("version: %d %q", code, out)
	}
	if code, out, _ := runCmd(t, "help"); code != 0 || !strings.Contains(out, "migrate up|down|status") {
		t.Errorf("help: %d %q", code, out)
	}
	if code, _, errOut := runCmd(t, "frobnicate"); code != 2 || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Errorf("unknown command: %d %q", code, errOut)
	}
	if code, _, errOut := runCmd(t, "--config"); code != 2 || !strings.Contains(errOut, "--config needs a file") {
		t.Errorf("--config without file: %d %q", code, errOut)
	}
}

func TestBadConfigurationNamesTheKey(t *testing.T) {
	t.Setenv("PROPMAN_HTTP_READTIMEOUT", "abc")
	code, _, errOut := runCmd(t, "migrate", "status")
	if code != 1 || !strings.Contains(errOut, "http.readtimeout") {
		t.Errorf("exit %d, stderr %q; want 1 and a message naming http.readtimeout", code, errOut)
	}
}

func TestMigrateCommands(t *testing.T) {
	t.Setenv("PROPMAN_DATABASE_URL", testkit.FreshDatabase(t))
	t.Setenv("PROPMAN_LOG_LEVEL", "error")
	code, out, errOut := runCmd(t, "migrate", "status")
	if code != 0 || !strings.Contains(out, "platform_baseline") || !strings.Contains(out, "pending") || strings.Contains(out, "applied") {
		t.Fatalf("status on a fresh database: %d %q %q", code, out, errOut)
	}
	code, out, errOut = runCmd(t, "migrate", "up")
	if code != 0 || !strings.Contains(out, "applied ") || !strings.Contains(out, "up   20261122000000_platform_baseline") {
		t.Fatalf("up: %d %q %q", code, out, errOut)
	}
	code, out, _ = runCmd(t, "migrate", "status")
	if code != 0 || strings.Contains(out, "pending") || !strings.Contains(out, "applied (group 1)") {
		t.Errorf("status after up: %d %q", code, out)
	}
	code, out, _ = runCmd(t, "migrate", "down")
	if code != 0 || !strings.Contains(out, "down 20261122000000_platform_baseline") {
		t.Errorf("down: %d %q", code, out)
	}
	if code, _, errOut := runCmd(t, "migrate", "sideways"); code != 1 || !strings.Contains(errOut, "use up, down or status") {
		t.Errorf("bad migrate command: %d %q", code, errOut)
	}
}

// propman openapi prints the document the server serves, with no database:
// the same operations as the served doc.json, stubs only listed.
func TestOpenAPICommand(t *testing.T) {
	t.Setenv("PROPMAN_DATABASE_URL", "postgres://nobody@127.0.0.1:1/none?sslmode=disable") // never opened
	// expenses off, and every module that needs it (directly or through
	// another one switched off here).
	off := []string{"expenses", "contracts", "counters", "payments", "receipts", "printforms", "penalties", "tenancy",
		"messages", "notices", "assets", "violations", "compensations", "calendar", "proposals", "negotiations",
		"ledger", "banking", "repairs", "buildings", "opcosts", "taxyear", "dashboard"}
	opts := make([]testkit.Option, 0, len(off))
	for _, m := range off {
		t.Setenv("PROPMAN_MODULES_"+strings.ToUpper(m)+"_ENABLED", "false")
		opts = append(opts, testkit.WithConfig("modules."+m+".enabled", false))
	}
	code, out, errOut := runCmd(t, "openapi")
	if code != 0 {
		t.Fatalf("openapi: %d %q", code, errOut)
	}
	var doc struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if doc.OpenAPI != "3.0.3" || doc.Paths["/api/v1/properties"] == nil {
		t.Errorf("openapi %q, %d paths", doc.OpenAPI, len(doc.Paths))
	}
	// What the routes declare is in it, as served.
	if get, _ := doc.Paths["/api/v1/properties"]["get"].(map[string]any); get["x-propman-role"] != "viewer" {
		t.Errorf("GET /api/v1/properties has x-propman-role %v, want viewer", get["x-propman-role"])
	}
	if doc.Paths["/api/v1/properties/{propertyId}/expenses"] != nil {
		t.Error("a disabled module's paths are printed")
	}
	served := testkit.Start(t, opts...).Doc.Operations()
	var printed []string
	for p, item := range doc.Paths {
		for m := range item {
			if m != "parameters" {
				printed = append(printed, strings.ToUpper(m)+" "+p)
			}
		}
	}
	sort.Strings(printed)
	if strings.Join(printed, "\n") != strings.Join(served, "\n") {
		t.Errorf("printed operations differ from served ones:\n%v\n%v", printed, served)
	}
}

// A module's bad setting is named by its key and rule alone, not by the
// constructors fx went through to find it.
func TestBadModuleSettingIsNamed(t *testing.T) {
	t.Setenv("PROPMAN_MODULES_TENANCY_INVITETTL", "1m")
	code, _, errOut := runCmd(t, "openapi")
	if code != 1 || strings.TrimSpace(errOut) != "propman: config: modules.tenancy.invitettl: must be from 1h to 720h" {
		t.Fatalf("%d %q", code, errOut)
	}
}
