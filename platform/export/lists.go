package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/openapi"
	"github.com/propman/propman/platform/period"
)

// Every list of the API (platform/listing) gains ?format=csv|xlsx here,
// without a line in the module that serves it: Lists answers such a
// request by reading the list itself, page after page by cursor, through
// the app's own handler (in process, as the client: same headers, so the
// same guard, workspace and filters), and streams each page's items as
// rows while it reads the next. Memory is one page (200 items) at a time
// whatever the length of the list. Which routes are lists, and the type
// of each column, comes from doc.json: a GET whose 200 body has a "next"
// cursor, and its items' schema (Money, date, date-time, integer, ...).

// ListPerPage is the page size the export reads a list in.
const ListPerPage = 200

// list is one list operation of the document.
type list struct {
	path  *regexp.Regexp
	name  string
	items string
	kinds map[string]Kind
	enums map[string]bool
	order []string
}

// Lists is the middleware; see the package comment above.
type Lists struct {
	app   *fiber.App
	lists []list
	// words gives a language's words; nil: every file as in English.
	words func(locale string) Words
}

// WithWords makes the files of a language other than English speak it:
// headers and codes from words (see SendIn). The language is ?locale=,
// else Accept-Language, else the caller's profile language.
func (l *Lists) WithWords(words func(locale string) Words) *Lists {
	l.words = words
	return l
}

// NewLists reads the list operations of doc; app answers the pages.
func NewLists(app *fiber.App, doc *openapi.Document) *Lists {
	l := &Lists{app: app}
	if doc == nil || doc.Spec == nil || doc.Spec.Paths == nil {
		return l
	}
	for path, item := range doc.Spec.Paths.Map() {
		if item.Get == nil {
			continue
		}
		schema := listSchema(item.Get)
		if schema == nil {
			continue
		}
		for name, prop := range schema.Properties {
			if prop.Value == nil || !prop.Value.Type.Is("array") || prop.Value.Items == nil || prop.Value.Items.Value == nil {
				continue
			}
			kinds, enums := map[string]Kind{}, map[string]bool{}
			var order []string
			for field, fs := range prop.Value.Items.Value.Properties {
				kinds[field] = kindOf(fs)
				enums[field] = fs.Value != nil && len(fs.Value.Enum) > 0
				order = append(order, field)
			}
			sort.Strings(order)
			segs := strings.Split(strings.Trim(path, "/"), "/")
			l.lists = append(l.lists, list{path: pathPattern(path), name: segs[len(segs)-1], items: name, kinds: kinds, enums: enums, order: order})
		}
	}
	// Literal paths before parameterised ones that could match them too.
	params := func(i int) int { return strings.Count(l.lists[i].path.String(), "[^/]+") }
	sort.SliceStable(l.lists, func(i, j int) bool {
		if params(i) != params(j) {
			return params(i) < params(j)
		}
		return l.lists[i].path.String() < l.lists[j].path.String()
	})
	return l
}

// listSchema is the 200 JSON body schema of op when it is a list (has a
// "next" cursor), else nil.
func listSchema(op *openapi3.Operation) *openapi3.Schema {
	if op.Responses == nil {
		return nil
	}
	ok := op.Responses.Status(200)
	if ok == nil || ok.Value == nil {
		return nil
	}
	mt := ok.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return nil
	}
	s := mt.Schema.Value
	if _, has := s.Properties["next"]; !has {
		return nil
	}
	return s
}

func kindOf(ref *openapi3.SchemaRef) Kind {
	if ref == nil {
		return Text
	}
	if strings.Contains(ref.Ref, "Money") || strings.Contains(ref.Ref, "Amount") {
		return Money
	}
	s := ref.Value
	if s == nil {
		return Text
	}
	for _, sub := range append(append([]*openapi3.SchemaRef{}, s.AllOf...), s.OneOf...) {
		if k := kindOf(sub); k != Text {
			return k
		}
	}
	switch {
	case s.Type.Is("string") && s.Format == "date":
		return Date
	case s.Type.Is("string") && s.Format == "date-time":
		return Time
	case s.Type.Is("integer"):
		return Int
	case s.Type.Is("number"):
		return Number
	case s.Type.Is("boolean"):
		return Bool
	}
	return Text
}

var templateParam = regexp.MustCompile(`\\\{[^}]+\\\}`)

func pathPattern(path string) *regexp.Regexp {
	return regexp.MustCompile("^" + templateParam.ReplaceAllString(regexp.QuoteMeta(path), `[^/]+`) + "/?$")
}

// Document adds the CSV and XLSX answers and the format parameter to
// every list operation of doc (decoded JSON, for openapi.Document.Amend).
func Document(doc map[string]any) error {
	paths, _ := doc["paths"].(map[string]any)
	for _, raw := range paths {
		item, _ := raw.(map[string]any)
		op, _ := item["get"].(map[string]any)
		responses, _ := op["responses"].(map[string]any)
		ok, _ := responses["200"].(map[string]any)
		content, _ := ok["content"].(map[string]any)
		js, _ := content["application/json"].(map[string]any)
		schema := resolve(doc, js["schema"])
		props, _ := schema["properties"].(map[string]any)
		if _, isList := props["next"]; !isList {
			// A report that writes files of its own takes the locale too.
			params, _ := op["parameters"].([]any)
			for _, p := range params {
				if pm := resolveParam(doc, p); pm["name"] == "format" && pm["in"] == "query" {
					op["parameters"] = append(params, map[string]any{"$ref": "#/components/parameters/FileLocale"})
					break
				}
			}
			continue
		}
		content["text/csv"] = map[string]any{"schema": map[string]any{"type": "string",
			"description": "The whole list (every page), one row per item, the item's fields as columns."}}
		content[XLSXType] = map[string]any{"schema": map[string]any{"type": "string", "format": "binary"}}
		params, _ := op["parameters"].([]any)
		op["parameters"] = append(params, map[string]any{"$ref": "#/components/parameters/ListFormat"},
			map[string]any{"$ref": "#/components/parameters/FileLocale"})
		op["x-propman-export"] = true
	}
	comps, _ := doc["components"].(map[string]any)
	if comps == nil {
		return fmt.Errorf("export: the document has no components")
	}
	params, _ := comps["parameters"].(map[string]any)
	if params == nil {
		params = map[string]any{}
		comps["parameters"] = params
	}
	params["ListFormat"] = map[string]any{"name": "format", "in": "query", "required": false,
		"description": "`json` (default) answers one page; `csv` or `xlsx` (or the `Accept` header `text/csv` or " +
			"`" + XLSXType + "`) answers the whole list, every page, as one file streamed row by row; `page`, `after` and `per_page` are ignored then.",
		"schema": map[string]any{"type": "string", "enum": []any{JSON, CSV, XLSX}}}
	params["FileLocale"] = map[string]any{"name": "locale", "in": "query", "required": false,
		"description": "The reader of a CSV or XLSX file (else the first language of `Accept-Language` the service has, else " +
			"the caller's profile language): in `de`, `fr`, `es` and `uk` the headers and the codes of enumerated columns " +
			"(statuses, methods, kinds) are words of that language, and CSV cells are separated by `;` and decimals written " +
			"with a comma, as spreadsheets there read them; in `en` the headers are the JSON's field names and the codes as " +
			"the JSON has them, separated by `,` with a decimal point. Every CSV starts with a UTF-8 byte order mark. An unknown locale is a 400.",
		"schema": map[string]any{"type": "string", "enum": toAny(locales)}}
	return nil
}

// resolveParam is a parameter of an operation, its $ref followed.
func resolveParam(doc map[string]any, v any) map[string]any {
	m, _ := v.(map[string]any)
	ref, _ := m["$ref"].(string)
	name, ok := strings.CutPrefix(ref, "#/components/parameters/")
	if !ok {
		return m
	}
	comps, _ := doc["components"].(map[string]any)
	params, _ := comps["parameters"].(map[string]any)
	out, _ := params[name].(map[string]any)
	return out
}

func toAny(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

func resolve(doc map[string]any, v any) map[string]any {
	m, _ := v.(map[string]any)
	ref, _ := m["$ref"].(string)
	if !strings.HasPrefix(ref, "#/components/schemas/") {
		return m
	}
	comps, _ := doc["components"].(map[string]any)
	schemas, _ := comps["schemas"].(map[string]any)
	out, _ := schemas[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
	return out
}

// Handler is the middleware: a GET of a list asking for CSV or XLSX is
// answered here, anything else goes on.
func (l *Lists) Handler(c *fiber.Ctx) error {
	if c.Method() != fiber.MethodGet || !mayAsk(c) {
		return c.Next()
	}
	// Only lists: other routes read ?format= their own way (the income
	// report takes svg).
	var ls *list
	path := c.Path()
	for i := range l.lists {
		if l.lists[i].path.MatchString(path) {
			ls = &l.lists[i]
			break
		}
	}
	if ls == nil {
		return c.Next()
	}
	format, err := Negotiate(c)
	if err != nil {
		return err
	}
	if format == JSON {
		return c.Next()
	}
	// Everything the pages need is copied now: Fiber reuses the request's
	// buffers once this handler returns, and the pages are read after.
	var headers [][2]string
	c.Request().Header.VisitAll(func(k, v []byte) {
		switch strings.ToLower(string(k)) {
		case "accept", "accept-encoding", "content-length", "connection":
			return
		}
		headers = append(headers, [2]string{string(k), string(v)})
	})
	headers = append(headers, [2]string{"Accept", "application/json"})
	query := url.Values{}
	c.Request().URI().QueryArgs().VisitAll(func(k, v []byte) {
		switch string(k) {
		case "format", "page", "after", "per_page", "locale":
			return
		}
		query.Add(string(k), string(v))
	})
	query.Set("per_page", fmt.Sprint(ListPerPage))
	p := &pager{app: l.app, path: strings.Clone(path), query: query, headers: headers, remote: c.Context().RemoteAddr()}
	status, ctype, body := p.fetch("")
	if status != fiber.StatusOK {
		// The list's own answer (400, 403, 404, ...), as JSON.
		c.Status(status)
		c.Set(fiber.HeaderContentType, ctype)
		return c.Send(body)
	}
	items, next, err := page(body, ls.items)
	if err != nil {
		return err
	}
	cols := ls.columns(items)
	var words Words
	locale := LocaleOf(c)
	if l.words != nil {
		if locale == "" {
			locale = p.profileLocale()
		}
		if locale != "" && locale != "en" {
			words = l.words(locale)
		}
	}
	SendIn(c, format, ls.name, cols, locale, words, func(w Writer) error {
		for {
			for _, raw := range items {
				if err := ls.row(w, cols, raw); err != nil {
					return err
				}
			}
			if next == "" {
				return nil
			}
			status, _, body := p.fetch(next)
			if status != fiber.StatusOK {
				return fmt.Errorf("export: page after %s answered %d", next, status)
			}
			if items, next, err = page(body, ls.items); err != nil {
				return err
			}
		}
	})
	return nil
}

// mayAsk is a cheap first look: does the request name a format or an
// Accept that could be CSV or XLSX?
func mayAsk(c *fiber.Ctx) bool {
	if len(c.Request().URI().QueryArgs().Peek("format")) > 0 {
		return true
	}
	accept := c.Request().Header.Peek(fiber.HeaderAccept)
	return bytes.Contains(accept, []byte("csv")) || bytes.Contains(accept, []byte("spreadsheetml"))
}

// pager reads the pages of one list through the app.
type pager struct {
	app     *fiber.App
	path    string
	query   url.Values
	headers [][2]string
	remote  net.Addr
}

func (p *pager) fetch(after string) (int, string, []byte) {
	q := p.query
	if after != "" {
		q = url.Values{}
		for k, v := range p.query {
			q[k] = v
		}
		q.Set("after", after)
	}
	var ctx fasthttp.RequestCtx
	req := fasthttp.AcquireRequest()
	defer fasthttp.ReleaseRequest(req)
	req.Header.SetMethod(fiber.MethodGet)
	req.SetRequestURI(p.path + "?" + q.Encode())
	for _, h := range p.headers {
		req.Header.Set(h[0], h[1])
	}
	ctx.Init(req, p.remote, nil)
	p.app.Handler()(&ctx)
	return ctx.Response.StatusCode(), string(ctx.Response.Header.ContentType()), append([]byte(nil), ctx.Response.Body()...)
}

// profileLocale is the language of the caller's profile, read through the
// app as the caller (same token); "" when there is none.
func (p *pager) profileLocale() string {
	var ctx fasthttp.RequestCtx
	req := fasthttp.AcquireRequest()
	defer fasthttp.ReleaseRequest(req)
	req.Header.SetMethod(fiber.MethodGet)
	req.SetRequestURI("/api/v1/user/profile")
	for _, h := range p.headers {
		req.Header.Set(h[0], h[1])
	}
	ctx.Init(req, p.remote, nil)
	p.app.Handler()(&ctx)
	var profile struct {
		Locale string `json:"locale"`
	}
	if ctx.Response.StatusCode() != fiber.StatusOK || json.Unmarshal(ctx.Response.Body(), &profile) != nil {
		return ""
	}
	return profile.Locale
}

// page splits a list body into its items and next cursor.
func page(body []byte, key string) ([]json.RawMessage, string, error) {
	var doc struct {
		Next *string `json:"next"`
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(body, &all); err != nil {
		return nil, "", fmt.Errorf("export: list body: %w", err)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(all[key], &items); err != nil {
		return nil, "", fmt.Errorf("export: list items %s: %w", key, err)
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, "", err
	}
	next := ""
	if doc.Next != nil {
		next = *doc.Next
	}
	return items, next, nil
}

// columns are the fields of the list's items in the order the first item
// has them (the order of the module's JSON), else as the schema names them.
func (ls *list) columns(items []json.RawMessage) []Column {
	names := ls.order
	if len(items) > 0 {
		if keys, err := objectKeys(items[0]); err == nil {
			names = keys
		}
	}
	cols := make([]Column, len(names))
	for i, n := range names {
		cols[i] = Column{Name: n, Kind: ls.kinds[n], Enum: ls.enums[n]}
	}
	return cols
}

// objectKeys lists the keys of a JSON object in their order.
func objectKeys(raw json.RawMessage) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// row writes one item as typed cells.
func (ls *list) row(w Writer, cols []Column, raw json.RawMessage) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return err
	}
	var currency string
	_ = json.Unmarshal(fields["currency"], &currency)
	values := make([]any, len(cols))
	for i, c := range cols {
		v := fields[c.Name]
		if len(v) == 0 || string(v) == "null" {
			continue
		}
		values[i] = cellOf(c.Kind, v, currency)
	}
	return w.Row(values...)
}

func cellOf(kind Kind, v json.RawMessage, currency string) any {
	var s string
	isString := v[0] == '"' && json.Unmarshal(v, &s) == nil
	switch kind {
	case Money:
		if a, err := money.Parse(v); err == nil && !isString {
			return Amount{Value: a, Currency: currency}
		}
	case Date:
		if d, err := period.ParseDate(s); err == nil && isString {
			return d
		}
	case Time:
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil && isString {
			return t
		}
	case Int:
		var n int64
		if json.Unmarshal(v, &n) == nil {
			return n
		}
	case Number:
		var f float64
		if json.Unmarshal(v, &f) == nil {
			return f
		}
	case Bool:
		var b bool
		if json.Unmarshal(v, &b) == nil {
			return b
		}
	}
	if isString {
		return s
	}
	// Objects and arrays (a contract's terms, say) as their JSON text.
	return string(v)
}
