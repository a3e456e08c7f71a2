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
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	loader := openapi3.NewLoader()
	spec, err := loader.LoadFromData(raw)
	if err != nil {
		return nil, fmt.Errorf("openapi: load: %w", err)
	}
	if err := spec.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("openapi: invalid document: %w", err)
	}
	sum := sha256.Sum256(raw)
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
		case "tags":
			tags, _ := doc["tags"].([]any)
			if list, ok := val.([]any); ok {
				doc["tags"] = append(tags, list...)
			}
		default:
			return fmt.Errorf("openapi: fragment of %s: only paths, components and tags may be given, not %q", module, key)
		}
	}
	return nil
}

// addStandardResponses documents the errors the platform itself can answer
// on any operation, unless the operation documents its own.
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
			if sec, ok := op["security"].([]any); ok && len(sec) > 0 {
				add("401", "Unauthorized")
				add("503", "Unavailable")
			}
			if _, ok := op["requestBody"]; ok {
				add("400", "BadRequest")
				add("413", "PayloadTooLarge")
			}
			if strings.Contains(path, "{") {
				add("404", "NotFound")
			}
		}
	}
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

// StubFragment documents a stub module: every method on each prefix answers
// 501 not_implemented (the subpaths below the prefix answer the same).
func StubFragment(module, summary string, prefixes []string) []byte {
	paths := map[string]any{}
	for _, prefix := range prefixes {
		path := "/api/v1" + FromFiberPath(prefix)
		item := map[string]any{}
		var params []any
		for _, m := range fiberParam.FindAllStringSubmatch(prefix, -1) {
			params = append(params, map[string]any{
				"name": m[1], "in": "path", "required": true, "schema": map[string]any{"type": "string"},
			})
		}
		if params != nil {
			item["parameters"] = params
		}
		for _, method := range []string{"get", "post", "put", "patch", "delete"} {
			item[method] = map[string]any{
				"operationId": fmt.Sprintf("%s%s%s", module, strings.ToUpper(method[:1])+method[1:], opSuffix(prefix)),
				"tags":        []any{module},
				"summary":     summary + " (not built yet: every path below answers 501)",
				"responses": map[string]any{
					"501": map[string]any{"$ref": "#/components/responses/NotImplemented"},
				},
			}
		}
		paths[path] = item
	}
	b, _ := yaml.Marshal(map[string]any{"paths": paths})
	return b
}

func opSuffix(prefix string) string {
	var b strings.Builder
	for _, part := range strings.Split(prefix, "/") {
		if part == "" || strings.HasPrefix(part, ":") {
			continue
		}
		for _, w := range strings.Split(part, "-") {
			if w != "" {
				b.WriteString(strings.ToUpper(w[:1]) + w[1:])
			}
		}
	}
	return b.String()
}
