package httpserver_test

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/testkit"
)

// TestRequestContextEndsSlowQuery: a query run with the request's context
// (httpserver.Context) on the real database ends at database.timeout and
// the client gets 503; the context is the same on every call within the
// request and is over once the request is done, before its deadline too. A route that never asks for it answers as before.
func TestRequestContextEndsSlowQuery(t *testing.T) {
	var db *bun.DB
	var kept context.Context
	entry := testkit.Module("slowtest", `
paths:
  /api/v1/slowtest/query:
    get:
      operationId: slowtestQuery
      responses:
        "200":
          description: never, the query outlasts the deadline
        "503": {$ref: "#/components/responses/Unavailable"}
  /api/v1/slowtest/quick:
    get:
      operationId: slowtestQuick
      responses:
        "204":
          description: asked for the context, answered at once
  /api/v1/slowtest/memory:
    get:
      operationId: slowtestMemory
      responses:
        "200":
          description: no context asked for
          content:
            application/json:
              schema: {type: object, required: [deadline], properties: {deadline: {type: boolean}}}
`, func(api fiber.Router) {
		api.Get("/slowtest/query", func(c *fiber.Ctx) error {
			ctx := httpserver.Context(c)
			if httpserver.Context(c) != ctx {
				return errors.New("a second call made a second context")
			}
			kept = ctx
			if _, ok := ctx.Deadline(); !ok {
				return errors.New("the request's context has no deadline")
			}
			// Long enough to outlast the timeout this test sets; the
			// request's deadline must end it (the cap only keeps a broken
			// build from hanging the suite).
			ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			defer cancel()
			q := `WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 2000000000) SELECT max(i) FROM r`
			if db.Dialect().Name().String() == "pg" {
				q = `SELECT pg_sleep(60)`
			}
			_, err := db.ExecContext(ctx, q)
			return err
		})
		api.Get("/slowtest/quick", func(c *fiber.Ctx) error {
			kept = httpserver.Context(c)
			return c.SendStatus(fiber.StatusNoContent)
		})
		api.Get("/slowtest/memory", func(c *fiber.Ctx) error {
			_, has := c.UserContext().Deadline()
			return c.JSON(fiber.Map{"deadline": has})
		})
	})
	app := testkit.Start(t, testkit.WithEntries(append(modules.Catalog(), entry)),
		testkit.WithConfig("database.timeout", "300ms"))
	db = app.DB

	began := time.Now()
	res := app.Get("/api/v1/slowtest/query", "")
	took := time.Since(began)
	if res.Status != http.StatusServiceUnavailable {
		t.Fatalf("slow query: %d %s, want 503", res.Status, res.Body)
	}
	if took < 300*time.Millisecond || took > 5*time.Second {
		t.Errorf("slow query answered after %v, want about the 300ms timeout", took)
	}
	if kept == nil || kept.Err() == nil {
		t.Fatalf("the request's context is not over after the request: %v", kept)
	}
	if d, ok := kept.Deadline(); !ok || d.Sub(began) > 400*time.Millisecond {
		t.Errorf("deadline %v, %v after the request began; want database.timeout", ok, d.Sub(began))
	}
	// Done well before its deadline: the request's end ends its context.
	app.Get("/api/v1/slowtest/quick", "").Expect(http.StatusNoContent)
	if err := kept.Err(); !errors.Is(err, context.Canceled) {
		t.Errorf("context of a finished request: Err = %v, want Canceled", err)
	}
	var out struct{ Deadline bool }
	app.Get("/api/v1/slowtest/memory", "").Expect(http.StatusOK).JSON(&out)
	if out.Deadline {
		t.Error("a route that never asked for the request's context had one made")
	}
}

// TestHandlersUseContext: no code outside platform/httpserver and the
// tracing middleware (which sets the parent of the request's context)
// calls c.UserContext(), which has no deadline: a query run with it could
// hang its request for good when the database stops answering.
func TestHandlersUseContext(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"platform/httpserver": true, "platform/tracing": true}
	fset := token.NewFileSet()
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || allowed[filepath.ToSlash(rel)] {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "UserContext" {
					t.Errorf("%s: UserContext() has no deadline; use httpserver.Context(c)", fset.Position(call.Pos()))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked only %d files under %s", checked, root)
	}
}
