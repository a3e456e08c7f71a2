package database_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// Every transaction of the modules and the platform goes through
// database.RunInTx: bun's own RunInTx and BeginTx do not mark the context,
// so the guard could not see a query that leaves such a transaction for
// the pool. The test reads the source, so a new call fails it before any
// request runs.
func TestTransactionsGoThroughTheHelper(t *testing.T) {
	fset := token.NewFileSet()
	var found []string
	for _, root := range []string{"../../modules", "../../platform", "../../cmd"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			if filepath.ToSlash(filepath.Dir(path)) == "../../platform/database" {
				return nil // the helper itself
			}
			file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(file, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || (sel.Sel.Name != "RunInTx" && sel.Sel.Name != "BeginTx" && sel.Sel.Name != "Begin") {
					return true
				}
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "database" {
					return true
				}
				found = append(found, fset.Position(call.Pos()).String()+": ."+sel.Sel.Name+"(")
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range found {
		t.Errorf("%s: open transactions with database.RunInTx, which the pool guard can see", f)
	}
}
