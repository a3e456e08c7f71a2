package testkit_test

import (
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/openapi"
	"github.com/propman/propman/platform/testkit"
)

// The routes Fiber serves and the operations doc.json describes are the same
// set: nothing served is undocumented and nothing documented is missing.
// The stubs' routes (a prefix and everything below it, 501) are not
// operations: doc.json lists their prefixes once, under x-propman-stubs.
func TestRoutesEqualDocumentedOperations(t *testing.T) {
	app := testkit.Start(t)
	stubPrefixes := map[string]bool{}
	var wantStubs []string
	for _, e := range modules.Catalog() {
		if e.Status == module.Stub {
			for _, p := range e.Prefixes {
				stubPrefixes["/api/v1"+p] = true
				stubPrefixes["/api/v1"+p+"/*"] = true
				wantStubs = append(wantStubs, "/api/v1"+openapi.FromFiberPath(p))
			}
		}
	}
	var listed []string
	for _, s := range app.Doc.Stubs() {
		listed = append(listed, s.Prefixes...)
	}
	if !slices.Equal(listed, wantStubs) {
		t.Errorf("x-propman-stubs lists %v, want %v", listed, wantStubs)
	}
	for _, p := range wantStubs {
		if app.Doc.Spec.Paths.Find(p) != nil {
			t.Errorf("the stub prefix %s is an operation of doc.json", p)
		}
	}
	var served []string
	for _, r := range app.Fiber.GetRoutes(true) {
		switch {
		case r.Method == http.MethodHead || r.Method == http.MethodOptions || r.Method == http.MethodConnect || r.Method == http.MethodTrace:
			continue
		case stubPrefixes[r.Path] || r.Path == "/api/v1/doc/*":
			continue // stubs (listed, not operations) and the reference page's assets
		}
		served = append(served, r.Method+" "+strings.TrimSuffix(openapi.FromFiberPath(r.Path), "/"))
	}
	sort.Strings(served)
	served = slices.Compact(served)
	documented := app.Doc.Operations()
	for _, op := range served {
		if !slices.Contains(documented, op) {
			t.Errorf("served but not in doc.json: %s", op)
		}
	}
	for _, op := range documented {
		if !slices.Contains(served, op) {
			t.Errorf("in doc.json but not served: %s", op)
		}
	}
}
