package modules_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/propman/propman/platform/testkit/golden"
)

const modulePath = "github.com/propman/propman/modules/"

// apierrorPath is the package of HTTP errors: only a module's handler
// files and routes.go turn the domain's errors into them.
const apierrorPath = "github.com/propman/propman/platform/apierror"

// The shapes the architecture test reads in source: a query built or run
// (bun's builders, the raw helpers of platform/database, database/sql's
// calls), a handler reaching into its service's unexported fields, and a
// store made by another module.
var (
	sqlCall      = regexp.MustCompile(`\.New(Select|Insert|Update|Delete|Raw|Merge|Values)\(|\bdatabase\.(Select|Query|QueryRow|Exec)\(|\.(ExecContext|QueryContext|QueryRowContext)\(`)
	pastService  = regexp.MustCompile(`\bh\.(svc|service)\.[a-z]\w*|\bh\.(db|store)\b`)
	foreignStore = regexp.MustCompile(`\b([a-z]+)\.NewStore\(`)
)

// TestArchitecture holds every module to one shape (docs/DEVELOPING.md,
// "Module shape"): SQL only in a store file (store.go, store_*.go), a
// handler only through its service's exported methods, another module
// only through its top-level package (never its internals or its store),
// every module the package imports listed in Entry.Depends, and HTTP
// errors (platform/apierror) only in the handler files and routes.go:
// below them the service returns domain errors (errors.go).
//
// testdata/architecture.txt lists what the tree held when the test was
// written: those findings are being removed (issue 42) and may only
// shrink. A finding that is not on the list fails the test; so does one
// on the list that is gone (rewrite the list with -update, which also
// prints the counts).
func TestArchitecture(t *testing.T) {
	dirs, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var findings []string
	for _, d := range dirs {
		if d.IsDir() && d.Name() != "testdata" {
			findings = append(findings, moduleFindings(t, d.Name())...)
		}
	}
	sort.Strings(findings)
	path := filepath.Join("testdata", "architecture.txt")
	if golden.Updating() {
		if err := os.WriteFile(path, []byte(strings.Join(findings, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		counts := map[string]int{}
		for _, f := range findings {
			counts[strings.Fields(f)[0]]++
		}
		t.Logf("%d findings: %v", len(findings), counts)
		return
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		if l != "" {
			known[l] = true
		}
	}
	for _, f := range findings {
		if !known[f] {
			t.Errorf("new: %s", f)
		}
		delete(known, f)
	}
	for f := range known {
		t.Errorf("gone (well done: take it off %s with -update): %s", path, f)
	}
}

// moduleFindings reads the module in dir (its package's non-test files).
func moduleFindings(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	imported := map[string]bool{}
	var depends []string
	declared := false
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		code := withoutComments(string(src), f, fset)
		isStore := name == "store.go" || strings.HasPrefix(name, "store_")
		if !isStore && sqlCall.MatchString(code) {
			out = append(out, "sql-outside-store "+path)
		}
		if strings.HasPrefix(name, "handler") {
			for _, m := range unique(pastService.FindAllString(code, -1)) {
				out = append(out, fmt.Sprintf("handler-past-service %s %s", path, m))
			}
		}
		for _, m := range foreignStore.FindAllStringSubmatch(code, -1) {
			if m[1] != dir {
				out = append(out, fmt.Sprintf("foreign-store %s %s.NewStore", path, m[1]))
			}
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == apierrorPath && !strings.HasPrefix(name, "handler") && name != "routes.go" {
				out = append(out, "http-below-handler "+path)
			}
			rest, ok := strings.CutPrefix(p, modulePath)
			if !ok {
				continue
			}
			other, sub, _ := strings.Cut(rest, "/")
			if other == dir {
				continue
			}
			if sub != "" {
				out = append(out, fmt.Sprintf("internals %s imports %s", path, p))
			}
			imported[other] = true
		}
		if name == "module.go" {
			depends, declared = dependsOf(f, "Depends")
			uses, _ := dependsOf(f, "Uses")
			depends = append(depends, uses...)
		}
	}
	if !declared {
		return out
	}
	// Depends may list more than the imports: a module can need another's
	// tables (a foreign key to users) without its Go package. An import
	// neither Depends nor Uses lists is a module switched off under a
	// running one.
	listed := map[string]bool{}
	for _, d := range depends {
		listed[d] = true
	}
	for d := range imported {
		if !listed[d] {
			out = append(out, fmt.Sprintf("depends %s imports %s, which Depends does not list", dir, d))
		}
	}
	return out
}

// dependsOf is the list under key (Depends or Uses) of the module.Entry
// in f, if f builds one.
func dependsOf(f *ast.File, key string) (deps []string, found bool) {
	ast.Inspect(f, func(n ast.Node) bool {
		kv, ok := n.(*ast.KeyValueExpr)
		if !ok {
			return true
		}
		if id, ok := kv.Key.(*ast.Ident); !ok || id.Name != key {
			return true
		}
		found = true
		if list, ok := kv.Value.(*ast.CompositeLit); ok {
			for _, e := range list.Elts {
				if lit, ok := e.(*ast.BasicLit); ok {
					s, _ := strconv.Unquote(lit.Value)
					deps = append(deps, s)
				}
			}
		}
		return false
	})
	if !found {
		// An Entry without Depends depends on nothing.
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Entry" {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "module" {
					found = true
				}
			}
			return !found
		})
	}
	return deps, found
}

// withoutComments is src with its comments blanked, so that a comment
// naming a query is not one.
func withoutComments(src string, f *ast.File, fset *token.FileSet) string {
	b := []byte(src)
	for _, cg := range f.Comments {
		start, end := fset.Position(cg.Pos()).Offset, fset.Position(cg.End()).Offset
		for i := start; i < end && i < len(b); i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	return string(b)
}

func unique(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
