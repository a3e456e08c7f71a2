package csvcell_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEveryCSVWriterEscapes keeps the rule true as code is added: no CSV
// is written but through csvcell. Today the service writes no CSV or XLSX
// at all (the CSV routes of contragents and counters only read); this test
// finds the first writer that would not escape.
func TestEveryCSVWriterEscapes(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module's root is not two folders up: %v", err)
	}
	for _, f := range unescapedWriters(t, root) {
		t.Error(f)
	}
}

// The guard finds each kind of writer it is meant to.
func TestTheGuardFindsWriters(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a/csvout.go": `package a
import ("encoding/csv"; "os")
func f() { csv.NewWriter(os.Stdout).Write([]string{"=1"}) }`,
		"b/renamed.go": `package b
import (c "encoding/csv"; "os")
func f() { _ = c.NewWriter(os.Stdout) }`,
		"c/handler.go": `package c
type ctx interface{ Set(k, v string) }
func f(x ctx) { x.Set("Content-Type", "text/csv; charset=utf-8") }`,
		"d/sheet.go": `package d
import _ "github.com/xuri/excelize/v2"`,
		// Allowed: reading CSV, comparing a type, tests, csvcell itself,
		// and a handler that writes through csvcell.
		"e/read.go": `package e
import ("encoding/csv"; "strings")
func f(s string) bool { _ = csv.NewReader(strings.NewReader(s)); return s != "text/csv" }`,
		"e/read_test.go": `package e
import ("encoding/csv"; "os")
func g() { csv.NewWriter(os.Stdout) }`,
		"platform/csvcell/csvcell.go": `package csvcell
import ("encoding/csv"; "os")
func f() { csv.NewWriter(os.Stdout) }`,
		"f/export.go": `package f
import "github.com/propman/propman/platform/csvcell"
type ctx interface{ Set(k, v string) }
func f(x ctx) { x.Set("Content-Type", "text/csv"); _ = csvcell.NewWriter(nil) }`,
	}
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	found := unescapedWriters(t, dir)
	seen := map[string]bool{}
	for _, f := range found {
		name, _, _ := strings.Cut(f, ":")
		seen[name] = true
	}
	want := []string{"a/csvout.go", "b/renamed.go", "c/handler.go", "d/sheet.go"}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("not found: %s", w)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("found allowed files too:\n%s", strings.Join(found, "\n"))
	}
}

// spreadsheetModules write XLSX; their cells need csvcell.Escape too.
var spreadsheetModules = []string{"github.com/xuri/excelize", "github.com/360EntSecGroup-Skylar/excelize",
	"github.com/tealeg/xlsx", "github.com/plandem/xlsx"}

// spreadsheetTypes are the response types of files a spreadsheet opens.
var spreadsheetTypes = []string{"text/csv", "text/tab-separated-values", "application/vnd.ms-excel",
	"application/vnd.openxmlformats-officedocument.spreadsheetml", "application/vnd.oasis.opendocument.spreadsheet"}

const csvcellPath = "github.com/propman/propman/platform/csvcell"

// xlsxWriters are the files taught to write XLSX: each passes every text
// cell through csvcell.Escape (and imports csvcell); modules/reports'
// tests read their cells back.
var xlsxWriters = map[string]bool{"platform/export/export.go": true}

// unescapedWriters lists, as "file:line: what", each Go file under root
// (tests excepted) that makes an encoding/csv Writer outside csvcell,
// imports an XLSX writer, or answers with a spreadsheet type without
// importing csvcell.
func unescapedWriters(t *testing.T, root string) []string {
	t.Helper()
	var found []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata", "vendor":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "platform/csvcell/") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		csvName, usesCSVCell := "", false
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			switch path {
			case "encoding/csv":
				csvName = "csv"
				if imp.Name != nil {
					csvName = imp.Name.Name
				}
			case csvcellPath:
				usesCSVCell = true
			}
			for _, m := range spreadsheetModules {
				if strings.HasPrefix(path, m) && (!xlsxWriters[rel] || !importsCSVCell(f)) {
					found = append(found, rel+":"+strconv.Itoa(fset.Position(imp.Pos()).Line)+": imports "+path+
						"; escape its cells with csvcell.Escape and teach this guard the file")
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			line := strconv.Itoa(fset.Position(call.Pos()).Line)
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && csvName != "" && sel.Sel.Name == "NewWriter" {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == csvName {
					found = append(found, rel+":"+line+": encoding/csv.NewWriter; use csvcell.NewWriter")
				}
			}
			if usesCSVCell {
				return true
			}
			for _, a := range call.Args {
				lit, ok := a.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				v, _ := strconv.Unquote(lit.Value)
				for _, ct := range spreadsheetTypes {
					if strings.HasPrefix(strings.ToLower(v), ct) {
						found = append(found, rel+":"+line+": answers "+v+" without csvcell")
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

func importsCSVCell(f *ast.File) bool {
	for _, imp := range f.Imports {
		if path, _ := strconv.Unquote(imp.Path.Value); path == csvcellPath {
			return true
		}
	}
	return false
}
