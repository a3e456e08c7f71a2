package testkit

import (
	"context"
	"fmt"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"
)

// On PostgreSQL every statement text that carries a value (an id, most of
// all) is a statement pgx prepares and caches anew, so a sweep over many
// records pays a Parse per call (database.Render). The bound guard makes
// that visible: it watches every query the app sends through its *bun.DB and
// fails the test at its end when one has a value inlined where a bind
// parameter belongs.
//
// What it flags: a UUID anywhere in the text (only values carry one), and an
// id column (id, owner_id, "p"."property_id", ...) compared with an integer
// (= 42, <> 42, IN (1, 2)) or with a literal array (= ANY('{...}')).
//
// What it leaves alone, on purpose:
//   - migrations and reference seeds: they run in boot before the guard is
//     installed, once per start, and DDL cannot take parameters;
//   - queries built by test code (a _test.go file, a ...test helper
//     package, the test kit): setting up a case is not the app's hot path;
//   - LIMIT and OFFSET: Bun writes them as numbers; LIMIT takes the few
//     per_page values clients use, and deep OFFSET pages have the keyset
//     cursor as their fast way, so they add a handful of texts, not one per
//     record;
//   - other numbers, strings and times in the text (amounts, names in an
//     INSERT): they do not make a text per record of a sweep the way ids do.
//     database.Render binds strings and times anyway; integers need
//     database.Param.
//
// boundAllowlist names the packages (module path relative) whose queries
// are not converted yet; their findings are ignored. The goal is an empty
// list: remove a package once its queries go through database.Select,
// Query, Exec, Count or Exists.
var boundAllowlist = map[string]string{}

var boundPatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`),
	regexp.MustCompile(`(?i)(?:\b|_)id"?\s*(?:=|<>|!=|<=|>=|<|>)\s*-?\d+\b`),
	regexp.MustCompile(`(?i)(?:\b|_)id"?\s+(?:NOT\s+)?IN\s*\(\s*-?\d`),
	regexp.MustCompile(`(?i)(?:\b|_)id"?\s*=\s*ANY\s*\(\s*'`),
}

// inlinedValue returns the first part of query that is a value inlined
// where a bind parameter belongs, "" when there is none.
func inlinedValue(query string) string {
	for _, p := range boundPatterns {
		if m := p.FindString(query); m != "" {
			return m
		}
	}
	return ""
}

const modulePath = "github.com/propman/propman/"

// queryOrigin names the package that built the query the hook sees: the
// first frame of this repository outside the helpers every module calls
// (platform/database, platform/listing). test is true for test code.
func queryOrigin(skip int) (pkg, at string, test bool) {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(skip, pcs)])
	for {
		f, more := frames.Next()
		if rest, ok := strings.CutPrefix(f.Function, modulePath); ok {
			// "modules/properties.(*Store).ByID" -> "modules/properties"
			slash := strings.LastIndexByte(rest, '/')
			p := rest
			if dot := strings.IndexByte(rest[slash+1:], '.'); dot >= 0 {
				p = rest[:slash+1+dot]
			}
			if p != "platform/database" && p != "platform/listing" {
				at = fmt.Sprintf("%s:%d", f.File, f.Line)
				test = strings.HasSuffix(f.File, "_test.go") || strings.HasSuffix(p, "test") ||
					p == "platform/testkit"
				return p, at, test
			}
		}
		if !more {
			return "", "", false
		}
	}
}

type boundGuard struct {
	mu    sync.Mutex
	found map[string]string // "package: literal" -> first query and place
}

func (g *boundGuard) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	lit := inlinedValue(e.Query)
	if lit == "" {
		return ctx
	}
	pkg, at, test := queryOrigin(3)
	if test {
		return ctx
	}
	if _, ok := boundAllowlist[pkg]; ok {
		return ctx
	}
	key := fmt.Sprintf("%s (%s)", pkg, at)
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, seen := g.found[key]; !seen {
		g.found[key] = fmt.Sprintf("%q inlined in: %s", lit, e.Query)
	}
	return ctx
}

func (g *boundGuard) AfterQuery(context.Context, *bun.QueryEvent) {}

func (g *boundGuard) report(t testing.TB) {
	g.mu.Lock()
	defer g.mu.Unlock()
	keys := make([]string, 0, len(g.found))
	for k := range g.found {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Errorf("testkit: bound guard: %s sent a value as SQL text, not as a bind parameter "+
			"(use database.Select/Query/Exec/Count/Exists, database.Param for integers, database.In for lists; docs/DEVELOPING.md): %s",
			k, g.found[k])
	}
}
