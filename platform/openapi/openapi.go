// Package openapi merges the platform's base document and the fragments of
// the enabled modules into the one OpenAPI 3.0.3 document served as
// /api/v1/doc.json, and serves it with an offline reference page.
package openapi

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v3"
)

//go:embed base.yaml
var baseYAML []byte

// Fragment is one module's part of the document: YAML with paths and components.
type Fragment struct {
	Module string
	YAML   []byte
}

// Document is the merged, validated document.
type Document struct {
	Spec *openapi3.T
	// JSON is the document as served, computed once.
	JSON []byte
	ETag string
}

var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// Build merges the base document with the fragments, adds the error responses
// every operation can give, and validates the result.
func Build(fragments []Fragment) (*Document, error) {
	h := sha256.New()
	for _, f := range fragments {
		fmt.Fprintf(h, "%s\x00%d\x00", f.Module, len(f.YAML))
		h.Write(f.YAML)
	}
	var key [32]byte
	h.Sum(key[:0])
	built.Lock()
	d, ok := built.docs[key]
	built.Unlock()
	if ok {
		c := *d
		return &c, nil
	}
	d, err := build(fragments)
	if err != nil {
		return nil, err
	}
	built.Lock()
	if built.docs == nil || len(built.docs) >= loadedMax {
		built.docs = map[[32]byte]*Document{}
	}
	built.docs[key] = d
	built.Unlock()
	c := *d
	return &c, nil
}

// built holds Build's documents by the SHA-256 of their fragments, for
// the reason loaded holds load's.
var built struct {
	sync.Mutex
	docs map[[32]byte]*Document
}

func build(fragments []Fragment) (*Document, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(baseYAML, &doc); err != nil {
		return nil, fmt.Errorf("openapi: base: %w", err)
	}
	for _, f := range fragments {
		if len(f.YAML) == 0 {
			continue
		}
		var frag map[string]any
		if err := yaml.Unmarshal(f.YAML, &frag); err != nil {
			return nil, fmt.Errorf("openapi: fragment of %s: %w", f.Module, err)
		}
		if err := merge(doc, frag, f.Module); err != nil {
			return nil, err
		}
	}
	addStandardResponses(doc)
	describeStubs(doc)
	return load(doc)
}

// Amend changes the document in place with change, which gets it as
// decoded JSON, and loads and validates it again: the platform adds what
// only the mounted routes know (each operation's role).
func (d *Document) Amend(change func(doc map[string]any) error) error {
	return d.AmendAs(nil, change)
}

// AmendAs is Amend for a change that key describes whole (the same key
// makes the same change): the result is kept, and the next document with
// the same JSON and key is amended without decoding it again.
func (d *Document) AmendAs(key []byte, change func(doc map[string]any) error) error {
	var sum [32]byte
	if key != nil {
		h := sha256.New()
		h.Write(d.JSON)
		h.Write([]byte{0})
		h.Write(key)
		h.Sum(sum[:0])
		amended.Lock()
		next, ok := amended.docs[sum]
		amended.Unlock()
		if ok {
			*d = *next
			return nil
		}
	}
	if err := d.amend(change); err != nil {
		return err
	}
	if key != nil {
		keep := *d
		amended.Lock()
		if amended.docs == nil || len(amended.docs) >= loadedMax {
			amended.docs = map[[32]byte]*Document{}
		}
		amended.docs[sum] = &keep
		amended.Unlock()
	}
	return nil
}

// amended holds AmendAs's results by the document and the change's key.
var amended struct {
	sync.Mutex
	docs map[[32]byte]*Document
}

func (d *Document) amend(change func(doc map[string]any) error) error {
	var doc map[string]any
	if err := json.Unmarshal(d.JSON, &doc); err != nil {
		return fmt.Errorf("openapi: %w", err)
	}
	if err := change(doc); err != nil {
		return err
	}
	next, err := load(doc)
	if err != nil {
		return err
	}
	*d = *next
	return nil
}

// Operation returns the operation of doc (decoded JSON) at method and
// path, nil when it has none.
func Operation(doc map[string]any, method, path string) map[string]any {
	return asMap(asMap(asMap(doc["paths"])[path])[strings.ToLower(method)])
}

// AddResponse documents status on op by a reference to the component
// response name, unless op documents its own.
func AddResponse(op map[string]any, status, name string) {
	responses := mapAt(op, "responses")
	if _, ok := responses[status]; !ok {
		responses[status] = map[string]any{"$ref": "#/components/responses/" + name}
	}
}

// AddParameter adds a reference to the component parameter name to op.
func AddParameter(op map[string]any, name string) {
	op["parameters"] = append(asSlice(op["parameters"]), map[string]any{"$ref": "#/components/parameters/" + name})
}

// loaded holds the documents load made, by the SHA-256 of their JSON:
// loading and validating one costs a tenth of a second, and a test
// process starts the application hundreds of times with the same few
// documents. The spec is only read once loaded, so one is shared; each
// caller gets its own Document, which Amend replaces whole.
var loaded struct {
	sync.Mutex
	docs map[[32]byte]*Document
}

// loadedMax bounds loaded: a process serves one document; tests use a
// few dozen module sets.
const loadedMax = 256

func load(doc map[string]any) (*Document, error) {
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	sum := sha256.Sum256(raw)
	loaded.Lock()
	d, ok := loaded.docs[sum]
	loaded.Unlock()
	if ok {
		c := *d
		return &c, nil
	}
	d, err = loadRaw(raw, sum)
	if err != nil {
		return nil, err
	}
	loaded.Lock()
	if loaded.docs == nil || len(loaded.docs) >= loadedMax {
		loaded.docs = map[[32]byte]*Document{}
	}
	loaded.docs[sum] = d
	loaded.Unlock()
	c := *d
	return &c, nil
}

func loadRaw(raw []byte, sum [32]byte) (*Document, error) {
	loader := openapi3.NewLoader()
	spec, err := loader.LoadFromData(raw)
	if err != nil {
		return nil, fmt.Errorf("openapi: load: %w", err)
	}
	if err := spec.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("openapi: invalid document: %w", err)
	}
	return &Document{Spec: spec, JSON: raw, ETag: `"` + hex.EncodeToString(sum[:8]) + `"`}, nil
}

func merge(doc, frag map[string]any, module string) error {
	for key, val := range frag {
		switch key {
		case "paths":
			paths := mapAt(doc, "paths")
			for p, item := range asMap(val) {
				existing := asMap(paths[p])
				if existing == nil {
					paths[p] = item
					continue
				}
				for op, def := range asMap(item) {
					if _, dup := existing[op]; dup {
						return fmt.Errorf("openapi: %s %s of %s is declared twice", strings.ToUpper(op), p, module)
					}
					existing[op] = def
				}
			}
		case "components":
			comps := mapAt(doc, "components")
			for section, entries := range asMap(val) {
				target := mapAt(comps, section)
				for name, def := range asMap(entries) {
					if prev, dup := target[name]; dup && !reflect.DeepEqual(prev, def) {
						return fmt.Errorf("openapi: component %s/%s of %s differs from one already declared", section, name, module)
					}
					target[name] = def
				}
			}
		case "tags", StubsKey:
			list, _ := doc[key].([]any)
			if more, ok := val.([]any); ok {
				doc[key] = append(list, more...)
			}
		default:
			return fmt.Errorf("openapi: fragment of %s: only paths, components, tags and %s may be given, not %q", module, StubsKey, key)
		}
	}
	return nil
}

// addStandardResponses documents the errors the platform itself can answer
// on any operation, unless the operation documents its own: 500 always; 400
// on every operation under /api/ (the text rule refuses a control
// character or invalid UTF-8 in any path or query parameter, declared or
// not: httpserver.CheckInput wraps that router), elsewhere (/metrics) with
// a request body or a query parameter; 401 and 503 with security; 413 with
// a request body; 404 with a path parameter.
func addStandardResponses(doc map[string]any) {
	for path, item := range asMap(doc["paths"]) {
		for _, method := range methods {
			op := asMap(asMap(item)[method])
			if op == nil {
				continue
			}
			responses := mapAt(op, "responses")
			add := func(status, name string) {
				if _, ok := responses[status]; !ok {
					responses[status] = map[string]any{"$ref": "#/components/responses/" + name}
				}
			}
			add("500", "InternalError")
			if strings.HasPrefix(path, "/api/") || op["requestBody"] != nil || hasQueryParameter(doc, asMap(item), op) {
				add("400", "BadRequest")
			}
			if sec, ok := op["security"].([]any); ok && len(sec) > 0 {
				add("401", "Unauthorized")
				add("503", "Unavailable")
			}
			if _, ok := op["requestBody"]; ok {
				add("413", "PayloadTooLarge")
			}
			if strings.Contains(path, "{") {
				add("404", "NotFound")
			}
		}
	}
}

// hasQueryParameter reports whether op (or its path) takes a query
// parameter, which the handler checks (400 validation_failed).
func hasQueryParameter(doc, item, op map[string]any) bool {
	params := append(asSlice(item["parameters"]), asSlice(op["parameters"])...)
	for _, p := range params {
		pm := asMap(p)
		if ref, ok := pm["$ref"].(string); ok {
			name := strings.TrimPrefix(ref, "#/components/parameters/")
			pm = asMap(asMap(asMap(doc["components"])["parameters"])[name])
		}
		if pm["in"] == "query" {
			return true
		}
	}
	return false
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func mapAt(m map[string]any, key string) map[string]any {
	if sub, ok := m[key].(map[string]any); ok {
		return sub
	}
	sub := map[string]any{}
	m[key] = sub
	return sub
}

var fiberParam = regexp.MustCompile(`:([A-Za-z0-9_]+)`)

// FromFiberPath turns /a/:id into /a/{id}.
func FromFiberPath(p string) string { return fiberParam.ReplaceAllString(p, "{$1}") }

// Operations lists "METHOD /path" for every operation in the document, sorted.
func (d *Document) Operations() []string {
	var out []string
	for path, item := range d.Spec.Paths.Map() {
		for method := range item.Operations() {
			out = append(out, strings.ToUpper(method)+" "+path)
		}
	}
	sort.Strings(out)
	return out
}

// StubsKey is the top-level extension of doc.json that lists the reserved
// prefixes of stub modules: they answer 501 not_implemented and are not
// operations, so generated clients carry no method that can only fail.
const StubsKey = "x-propman-stubs"

// Stub is one stub module as doc.json lists it under StubsKey.
type Stub struct {
	Module   string   `json:"module" yaml:"module"`
	Summary  string   `json:"summary" yaml:"summary"`
	Prefixes []string `json:"prefixes" yaml:"prefixes"`
}

// StubFragment describes a stub module: no operation, only its entry in
// the list of reserved prefixes (in OpenAPI syntax, with /api/v1).
func StubFragment(module, summary string, prefixes []string) []byte {
	st := Stub{Module: module, Summary: summary}
	for _, p := range prefixes {
		st.Prefixes = append(st.Prefixes, "/api/v1"+FromFiberPath(p))
	}
	b, _ := yaml.Marshal(map[string]any{StubsKey: []Stub{st}})
	return b
}

// Stubs returns the stub modules the document lists.
func (d *Document) Stubs() []Stub {
	var out []Stub
	raw, _ := json.Marshal(d.Spec.Extensions[StubsKey])
	_ = json.Unmarshal(raw, &out)
	return out
}

// describeStubs says once, in info.description, which prefixes are reserved.
func describeStubs(doc map[string]any) {
	stubs, _ := doc[StubsKey].([]any)
	if len(stubs) == 0 {
		return
	}
	var prefixes []string
	for _, s := range stubs {
		for _, p := range asSlice(asMap(s)["prefixes"]) {
			if str, ok := p.(string); ok {
				prefixes = append(prefixes, "`"+str+"`")
			}
		}
	}
	info := mapAt(doc, "info")
	desc, _ := info["description"].(string)
	info["description"] = strings.TrimRight(desc, "\n") + "\n\n" +
		"Reserved areas, not built yet: every method on these prefixes and the paths below them answers " +
		"501 `{\"error\": \"not_implemented\", \"message\"}`, and they are not operations of this document " +
		"(`" + StubsKey + "` lists them by module): " + strings.Join(prefixes, ", ") + ".\n"
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}
