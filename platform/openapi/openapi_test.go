package openapi_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/openapi"
	"github.com/propman/propman/platform/testkit"
)

// The served document loads and validates with kin-openapi on its own, as a
// client generator would read it.
func TestServedDocumentIsValid(t *testing.T) {
	// An area not built yet, as modules/stubs declares one.
	sample := module.Entry{Name: "sample", Summary: "An area not built yet", Status: module.Stub, Prefixes: []string{"/samples"}}
	app := testkit.Start(t, testkit.WithEntries(append(modules.Catalog(), sample)))
	res := app.Get("/api/v1/doc.json", "").Expect(http.StatusOK)
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q", ct)
	}
	doc, err := openapi3.NewLoader().LoadFromData(res.Body)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	if doc.OpenAPI != "3.0.3" || doc.Info.Version != "1.0.0" {
		t.Errorf("openapi %q info.version %q, want 3.0.3 and 1.0.0", doc.OpenAPI, doc.Info.Version)
	}
	if doc.Components.SecuritySchemes["bearerAuth"] == nil {
		t.Error("no bearerAuth security scheme")
	}
	for _, p := range []string{"/api/v1", "/api/v1/health", "/api/v1/doc.json", "/api/v1/doc"} {
		if doc.Paths.Find(p) == nil {
			t.Errorf("path %s missing", p)
		}
	}
	// Stubs are listed once, not as operations.
	if doc.Paths.Find("/api/v1/samples") != nil {
		t.Error("the stub prefix /api/v1/samples is an operation")
	}
	if _, ok := doc.Extensions[openapi.StubsKey]; !ok {
		t.Errorf("no %s list", openapi.StubsKey)
	}
	if !strings.Contains(doc.Info.Description, "`/api/v1/samples`") {
		t.Errorf("info.description does not name the reserved prefixes: %q", doc.Info.Description)
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.Responses.Value("500") == nil {
				t.Errorf("%s %s documents no 500", method, path)
			}
		}
	}

	// The ETag lets clients skip an unchanged document.
	etag := res.Header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	again := app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/doc.json", Headers: map[string]string{"If-None-Match": etag}})
	if again.Status != http.StatusNotModified || len(again.Body) != 0 {
		t.Errorf("If-None-Match: status %d with %d bytes, want 304 and none", again.Status, len(again.Body))
	}
}

// The reference page and its assets come from the binary: nothing is
// loaded from another host.
func TestReferencePageIsEmbedded(t *testing.T) {
	app := testkit.Start(t)
	res := app.Get("/api/v1/doc", "").Expect(http.StatusOK)
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("Content-Type %q, want text/html", ct)
	}
	page := res.String()
	if !strings.Contains(page, "/api/v1/doc.json") {
		t.Error("the page does not point at /api/v1/doc.json")
	}
	refs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(refs) == 0 {
		t.Fatal("the page references no assets")
	}
	for _, m := range refs {
		ref := m[1]
		if strings.HasPrefix(ref, "http:") || strings.HasPrefix(ref, "https:") || strings.HasPrefix(ref, "//") {
			t.Errorf("the page loads %s from the network", ref)
			continue
		}
		if !strings.HasPrefix(ref, "/") {
			ref = "/api/v1/doc/" + strings.TrimPrefix(ref, "./")
		}
		hres, err := app.Fiber.Test(mustRequest(t, ref), -1)
		if err != nil {
			t.Fatal(err)
		}
		hres.Body.Close()
		if hres.StatusCode != http.StatusOK {
			t.Errorf("asset %s: status %d", ref, hres.StatusCode)
		}
	}
}

func mustRequest(t *testing.T, path string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func TestBuildRejectsConflicts(t *testing.T) {
	op := func(id string) string {
		return "paths:\n  /api/v1/x:\n    get:\n      operationId: " + id + "\n      responses:\n        \"200\": {description: ok}\n"
	}
	tests := []struct {
		name      string
		fragments []openapi.Fragment
		want      string
	}{
		{"same operation twice", []openapi.Fragment{{Module: "a", YAML: []byte(op("a"))}, {Module: "b", YAML: []byte(op("b"))}},
			"GET /api/v1/x of b is declared twice"},
		{"differing component", []openapi.Fragment{
			{Module: "a", YAML: []byte("components:\n  schemas:\n    Thing: {type: string}\n")},
			{Module: "b", YAML: []byte("components:\n  schemas:\n    Thing: {type: integer}\n")},
		}, "component schemas/Thing of b differs"},
		{"unknown top-level key", []openapi.Fragment{{Module: "a", YAML: []byte("info: {title: x}\n")}}, `not "info"`},
		{"invalid YAML", []openapi.Fragment{{Module: "a", YAML: []byte("paths: [")}}, "fragment of a"},
		{"dangling reference", []openapi.Fragment{{Module: "a", YAML: []byte(
			"paths:\n  /api/v1/x:\n    get:\n      operationId: x\n      responses:\n        \"200\": {$ref: \"#/components/responses/Nope\"}\n")}},
			"openapi: load"},
		{"invalid schema", []openapi.Fragment{{Module: "a", YAML: []byte(
			"components:\n  schemas:\n    Bad: {type: strange}\n")}}, "openapi: invalid document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := openapi.Build(tt.fragments)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Build error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// Every operation of the served document (all modules enabled) follows the
// conventions of docs/DEVELOPING.md, so a new module cannot regress them:
// an operationId, a summary and a description, explicit security (public
// operations say security: []), a documented 4xx wherever the platform can
// give one, named request schemas distinct between create and update, and
// an example of every request body.
func TestOperationsFollowConventions(t *testing.T) {
	app := testkit.Start(t)
	ids := map[string]string{}
	for path, item := range app.Doc.Spec.Paths.Map() {
		for method, op := range item.Operations() {
			name := method + " " + path
			if op.OperationID == "" {
				t.Errorf("%s: no operationId", name)
			} else if prev, dup := ids[op.OperationID]; dup {
				t.Errorf("%s: operationId %s also used by %s", name, op.OperationID, prev)
			}
			ids[op.OperationID] = name
			if strings.TrimSpace(op.Summary) == "" {
				t.Errorf("%s: no summary", name)
			}
			if strings.TrimSpace(op.Description) == "" {
				t.Errorf("%s: no description", name)
			}
			if op.Security == nil {
				t.Errorf("%s: no security: say security: [] when it is public, [{bearerAuth: []}] otherwise", name)
			}
			if len(op.Tags) == 0 {
				t.Errorf("%s: no tag", name)
			}
			if op.RequestBody != nil {
				for status := range map[string]bool{"400": true, "413": true} {
					if op.Responses.Value(status) == nil {
						t.Errorf("%s: takes a body but documents no %s", name, status)
					}
				}
				if rb := op.RequestBody.Value; rb != nil {
					for ct, media := range rb.Content {
						if media.Example == nil && len(media.Examples) == 0 {
							t.Errorf("%s: the %s body has no example: web clients and the reference page show it", name, ct)
						}
					}
				}
				if rb := op.RequestBody.Value; rb != nil && rb.Content.Get("application/json") != nil {
					sch := rb.Content.Get("application/json").Schema
					if method == http.MethodPost && sch != nil && sch.Value != nil && len(sch.Value.Required) == 0 {
						t.Errorf("%s: a POST body without a required list", name)
					}
					if sch != nil && strings.HasSuffix(sch.Ref, "Input") {
						t.Errorf("%s: one %s for create and update; use <Thing>Create and <Thing>Update", name, sch.Ref)
					}
				}
			}
			if strings.Contains(path, "{") && op.Responses.Value("404") == nil {
				t.Errorf("%s: has a path parameter but documents no 404", name)
			}
			if op.Security != nil && len(*op.Security) > 0 && op.Responses.Value("401") == nil {
				t.Errorf("%s: needs a token but documents no 401", name)
			}
		}
	}
	if len(ids) == 0 {
		t.Fatal("no operations")
	}
	for name := range app.Doc.Spec.Components.Schemas {
		if strings.HasSuffix(name, "Input") {
			t.Errorf("schema %s: name request schemas <Thing>Create / <Thing>Update", name)
		}
	}
}

// A stub adds no operation; the document lists its prefixes once.
func TestStubsAreListedNotDocumented(t *testing.T) {
	doc, err := openapi.Build([]openapi.Fragment{
		{Module: "contracts", YAML: openapi.StubFragment("contracts", "Rental contracts", []string{"/contracts"})},
		{Module: "documents", YAML: openapi.StubFragment("documents", "Documents", []string{"/properties/:propertyId/documents"})},
	})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if ops := doc.Operations(); len(ops) != 4 { // the platform's own four
		t.Errorf("operations %v, want only the platform's", ops)
	}
	stubs := doc.Stubs()
	if len(stubs) != 2 || stubs[0].Module != "contracts" || stubs[1].Prefixes[0] != "/api/v1/properties/{propertyId}/documents" {
		t.Errorf("stubs %+v", stubs)
	}
	if d := doc.Spec.Info.Description; !strings.Contains(d, "`/api/v1/contracts`, `/api/v1/properties/{propertyId}/documents`") || !strings.Contains(d, "501") {
		t.Errorf("info.description %q does not name the reserved prefixes", d)
	}
	none, err := openapi.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(none.Spec.Info.Description, "Reserved") || len(none.Stubs()) != 0 {
		t.Error("a document without stubs mentions reserved prefixes")
	}
}

// The platform documents the errors it can give on every operation.
func TestStandardResponsesAdded(t *testing.T) {
	doc, err := openapi.Build([]openapi.Fragment{{Module: "a", YAML: []byte(`
paths:
  /api/v1/things/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
    put:
      operationId: putThing
      security: [{bearerAuth: []}]
      requestBody:
        content:
          application/json:
            schema: {type: object}
      responses:
        "200": {description: ok}
        "404": {description: my own 404}
  /api/v1/things:
    get:
      operationId: listThings
      parameters:
        - {$ref: "#/components/parameters/ThingPage"}
      responses:
        "200": {description: ok}
  /api/v1/plain:
    get:
      operationId: plainThing
      responses:
        "200": {description: ok}
  /outside:
    get:
      operationId: outsideThing
      responses:
        "200": {description: ok}
components:
  parameters:
    ThingPage: {name: page, in: query, schema: {type: integer}}
`)}})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	op := doc.Spec.Paths.Find("/api/v1/things/{id}").Put
	for _, status := range []string{"200", "400", "401", "404", "413", "500", "503"} {
		if op.Responses.Value(status) == nil {
			t.Errorf("response %s missing", status)
		}
	}
	if d := op.Responses.Value("404").Value.Description; d == nil || *d != "my own 404" {
		t.Errorf("the operation's own 404 was replaced")
	}
	list := doc.Spec.Paths.Find("/api/v1/things").Get
	for status, want := range map[string]bool{"400": true, "500": true, "401": false, "404": false, "413": false} {
		if got := list.Responses.Value(status) != nil; got != want {
			t.Errorf("GET /api/v1/things: response %s documented %v, want %v", status, got, want)
		}
	}
	// No parameter, no body: still a 400, for a query the text rule refuses.
	plain := doc.Spec.Paths.Find("/api/v1/plain").Get
	for status, want := range map[string]bool{"400": true, "500": true, "404": false, "413": false} {
		if got := plain.Responses.Value(status) != nil; got != want {
			t.Errorf("GET /api/v1/plain: response %s documented %v, want %v", status, got, want)
		}
	}
	// Outside /api/ (no text rule there), only a body or a query gets one.
	if doc.Spec.Paths.Find("/outside").Get.Responses.Value("400") != nil {
		t.Error("GET /outside: 400 documented")
	}
	if got := doc.Operations(); len(got) != 8 || !strings.Contains(strings.Join(got, ","), "PUT /api/v1/things/{id}") {
		t.Errorf("Operations %v", got)
	}
}
