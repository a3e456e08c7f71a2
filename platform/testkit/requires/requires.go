// Package requires finds the programs some tests read propman's output
// with (pdftotext, a Python reader, a mock server). `go test ./...` must
// pass on a machine with Go alone, so a test whose program is missing
// skips, saying what to install; in CI (CI set), where .ci/run installs
// every one of them, it fails instead, so a missing install step cannot
// turn a check into a silent skip.
package requires

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// InCI reports whether the tests run in CI, where every program is there.
func InCI() bool { return os.Getenv("CI") != "" }

// missing skips t, or fails it in CI, for what is missing.
func missing(t testing.TB, what, install string) {
	t.Helper()
	msg := what + " is not installed (" + install + "; .ci/run installs it)"
	if InCI() {
		t.Fatal(msg)
	}
	t.Skip(msg + ": skipped outside CI")
}

// Program returns the path of the program name, looked up on PATH and in
// GOPATH/bin (where `go install` puts one), or skips (fails in CI) with
// install as the way to get it.
func Program(t testing.TB, name, install string) string {
	t.Helper()
	if p := lookPath(name); p != "" {
		return p
	}
	missing(t, name, install)
	return ""
}

var lookups sync.Map // name -> path ("" when missing)

func lookPath(name string) string {
	if p, ok := lookups.Load(name); ok {
		return p.(string)
	}
	p, err := exec.LookPath(name)
	if err != nil {
		p = ""
		if out, gerr := exec.Command("go", "env", "GOPATH").Output(); gerr == nil {
			for _, dir := range filepath.SplitList(strings.TrimSpace(string(out))) {
				if c := filepath.Join(dir, "bin", name); isExecutable(c) {
					p = c
					break
				}
			}
		}
	}
	lookups.Store(name, p)
	return p
}

func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// Python returns a Python interpreter that imports every one of modules:
// the first python3 on PATH, else Debian's /usr/bin/python3 (a pyenv
// python3 may shadow the one Debian's python3-* packages install into).
// Else it skips (fails in CI) with install as the way to get them.
func Python(t testing.TB, install string, modules ...string) string {
	t.Helper()
	key := "python:" + strings.Join(modules, ",")
	if p, ok := lookups.Load(key); ok && p.(string) != "" {
		return p.(string)
	}
	imports := "import " + strings.Join(modules, ", ")
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-c", imports).Run() == nil {
			lookups.Store(key, py)
			return py
		}
	}
	missing(t, "Python with "+strings.Join(modules, ", "), install)
	return ""
}

// Has reports whether the program name is installed, for a test that reads
// with it when it can and goes on without it.
func Has(name string) bool { return lookPath(name) != "" }

// Optional returns the path of the program name for a test that checks
// more with it but has checks of its own without it: outside CI a missing
// program is logged and "" returned, in CI it fails the test.
func Optional(t testing.TB, name, install string) string {
	t.Helper()
	if p := lookPath(name); p != "" {
		return p
	}
	if InCI() {
		t.Fatal(name + " is not installed (" + install + "; .ci/run installs it)")
	}
	t.Log(name + " is not installed (" + install + "): the checks that need it are left out outside CI")
	return ""
}

// OptionalPython is Python for a test that checks more with it but has
// its own checks without it: outside CI, without an interpreter that
// imports modules, it logs and returns ""; in CI it fails the test.
func OptionalPython(t testing.TB, install string, modules ...string) string {
	t.Helper()
	if InCI() {
		return Python(t, install, modules...)
	}
	imports := "import " + strings.Join(modules, ", ")
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-c", imports).Run() == nil {
			return py
		}
	}
	t.Log("no Python with " + strings.Join(modules, ", ") + " (" + install + "): the checks that need it are left out outside CI")
	return ""
}

// RunPython runs script with the interpreter py (from Python or
// OptionalPython) and args, and returns what it printed; it fails the test
// when the script fails.
func RunPython(t testing.TB, py, script string, args ...string) []byte {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := exec.Command(py, append([]string{"-c", script}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("python: %v\n%s", err, errOut.String())
	}
	return out.Bytes()
}
