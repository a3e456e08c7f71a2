package validate_test

import (
	"encoding/json"
	"flag"
	"hash/fnv"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/validate"
)

// How FuzzJSONRoutes puts its string into a request.
const (
	modeString  = iota // one field of the body's example set to the string
	modeNumber         // that field a number instead (a wrong type, mostly)
	modeBool           // ... a boolean
	modeNull           // ... null
	modeObject         // ... an object holding the string
	modeArray          // ... an array holding the string
	modeRawBody        // the whole body is the string's bytes
	modeHuge           // the field is the string repeated (64 KiB, or past the 1 MiB body limit)
	modePath           // one path parameter is the string
	modeQuery          // one query parameter is the string
	modeCount
)

// operation is one operation of the served doc.json, as the fuzz target
// fills it.
type operation struct {
	key         string // "POST /api/v1/properties/{propertyId}/payments"
	method      string
	path        string
	pathParams  []string
	queryParams []string
	jsonBody    bool
	example     any      // the request body's example, when it has one
	fields      []string // paths of the example's leaves and the schema's other properties
}

// operations lists every operation of the document, in a fixed order.
func operations(doc *openapi3.T) []operation {
	var out []operation
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			o := operation{key: method + " " + path, method: method, path: path}
			for _, p := range append(append(openapi3.Parameters{}, item.Parameters...), op.Parameters...) {
				switch p.Value.In {
				case openapi3.ParameterInPath:
					o.pathParams = append(o.pathParams, p.Value.Name)
				case openapi3.ParameterInQuery:
					o.queryParams = append(o.queryParams, p.Value.Name)
				}
			}
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				if media := op.RequestBody.Value.Content.Get("application/json"); media != nil {
					o.jsonBody = true
					o.example = media.Example
					if o.example == nil {
						for _, name := range sortedKeys(media.Examples) {
							if ex := media.Examples[name]; ex.Value != nil && ex.Value.Value != nil {
								o.example = ex.Value.Value
								break
							}
						}
					}
					if o.example == nil {
						o.example = map[string]any{}
					}
					o.fields = leaves(o.example, "")
					if m, ok := o.example.(map[string]any); ok && media.Schema != nil && media.Schema.Value != nil {
						for _, name := range sortedKeys(media.Schema.Value.Properties) {
							if _, given := m[name]; !given {
								o.fields = append(o.fields, name)
							}
						}
					}
				}
			}
			sort.Strings(o.pathParams)
			sort.Strings(o.queryParams)
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// leaves are the paths of v's scalar values: "name", "terms.0.value".
func leaves(v any, prefix string) []string {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch x := v.(type) {
	case map[string]any:
		var out []string
		for _, k := range sortedKeys(x) {
			out = append(out, leaves(x[k], join(k))...)
		}
		return out
	case []any:
		var out []string
		for i, e := range x {
			out = append(out, leaves(e, join(strconv.Itoa(i)))...)
		}
		return out
	default:
		if prefix == "" {
			return nil
		}
		return []string{prefix}
	}
}

// set puts value at path in a copy of v.
func set(v any, path []string, value any) any {
	if len(path) == 0 {
		return value
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x)+1)
		for k, e := range x {
			out[k] = e
		}
		out[path[0]] = set(x[path[0]], path[1:], value)
		return out
	case []any:
		out := append([]any{}, x...)
		if i, err := strconv.Atoi(path[0]); err == nil && i >= 0 && i < len(out) {
			out[i] = set(out[i], path[1:], value)
		}
		return out
	default:
		return map[string]any{path[0]: set(nil, path[1:], value)}
	}
}

// rawString is s as a JSON string literal with its bytes kept: json.Marshal
// would turn invalid UTF-8 into U+FFFD, which is not what a client may send.
func rawString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[c>>4])
			b.WriteByte("0123456789abcdef"[c&15])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func pick(name string, from []string) string {
	for _, f := range from {
		if f == name {
			return f
		}
	}
	if len(from) == 0 {
		return ""
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	return from[int(h.Sum32()%uint32(len(from)))]
}

// fuzzWorld is a user who owns one of each record, so that a request gets
// past the guard and the owner checks to the handler's own reading.
type fuzzWorld struct {
	token  string
	params map[string]string // path parameter -> a record's id
}

func newFuzzWorld(t *testing.T, app *testkit.App) fuzzWorld {
	u := accountstest.NewUser(t, app)
	w := fuzzWorld{token: u.Token, params: map[string]string{}}
	create := func(param, path string, body any) {
		var rec struct {
			ID string `json:"id"`
		}
		res := app.Post(path, u.Token, body)
		if res.Status/100 == 2 && json.Unmarshal(res.Body, &rec) == nil && rec.ID != "" {
			w.params[param] = rec.ID
		} else {
			t.Logf("fixture %s: %d %s", param, res.Status, res.Body)
			w.params[param] = uuid.NewString()
		}
	}
	create("propertyId", "/api/v1/properties", map[string]any{"name": "Flat", "country_code": "DE"})
	prop := "/api/v1/properties/" + w.params["propertyId"]
	create("contragentId", "/api/v1/contragents", map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Anna"})
	create("bankAccountId", "/api/v1/bank-accounts", map[string]any{"holder": "Anna", "iban": "DE89370400440532013000"})
	create("contractId", "/api/v1/contracts", map[string]any{"property_id": w.params["propertyId"], "tenant_id": w.params["contragentId"],
		"number": "F-1", "terms": []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 950},
			{"code": "CONTRACT_START_DATE", "value": "2026-11-01"}, {"code": "PAYMENT_DAY_OF_MONTH", "value": 3}}})
	app.Post("/api/v1/contracts/"+w.params["contractId"]+"/activate", u.Token, nil)
	create("expenseId", prop+"/expenses", map[string]any{"name": "Water", "amount": 20, "type": "MONTHLY", "start_date": "2026-11-01", "due_day": 5})
	create("chargeId", prop+"/charges", map[string]any{"name": "Repair", "amount": 10, "due_date": "2026-11-01"})
	create("paymentId", prop+"/payments", map[string]any{"amount": 5, "method": "cash"})
	create("counterId", prop+"/counters", map[string]any{"kind": "electricity", "name": "Meter"})
	create("readingId", prop+"/counters/"+w.params["counterId"]+"/readings", map[string]any{"read_on": "2026-11-20", "value": 1})
	w.params["documentId"] = uuid.NewString() // uploads are multipart, not this target's
	var receipts struct {
		Receipts []struct {
			ID string `json:"id"`
		} `json:"receipts"`
	}
	w.params["receiptId"] = uuid.NewString()
	if res := app.Get(prop+"/receipts", u.Token); res.Status == http.StatusOK && json.Unmarshal(res.Body, &receipts) == nil && len(receipts.Receipts) > 0 {
		w.params["receiptId"] = receipts.Receipts[0].ID
	}
	return w
}

// param is the value of a path parameter of path that names a record.
func (w fuzzWorld) param(path, name string) string {
	switch {
	case name == "code" && strings.Contains(path, "/countries/"):
		return "DE"
	case name == "code" && strings.Contains(path, "/languages/"):
		return "de"
	case name == "code":
		return "MONTHLY_RENT_AMOUNT"
	case name == "dataType":
		return "MONEY"
	case name == "locale":
		return "en"
	}
	if v, ok := w.params[name]; ok {
		return v
	}
	return uuid.NewString()
}

// Every operation of the served doc.json, each request carrying one fuzzed
// string (NUL and other control characters, invalid UTF-8, huge strings,
// values of the wrong type, bodies that are not JSON) in a body field, a path
// parameter or a query parameter, by a user who owns every record the
// request names. It fails on any 5xx, on an answer doc.json does not allow
// (the test kit checks each), and on a 2xx to a request whose string breaks
// the text rule: such a string is never stored.
func FuzzJSONRoutes(f *testing.F) {
	app := testkit.Start(f, testkit.WithConfig("ratelimit.enabled", false))
	ops := operations(app.Doc.Spec)
	if len(ops) < 50 {
		f.Fatalf("doc.json has %d operations; the walk found too few", len(ops))
	}
	// The five 500s of issue 25, and the same as invalid UTF-8.
	for _, s := range []string{"a\x00b", "a\xffb"} {
		f.Add("POST /api/v1/properties", "name", s, uint8(modeString))
		f.Add("POST /api/v1/properties/{propertyId}/payments", "reference", s, uint8(modeString))
		f.Add("POST /api/v1/properties/{propertyId}/charges", "name", s, uint8(modeString))
		f.Add("POST /api/v1/properties/{propertyId}/payments/{paymentId}/reverse", "reason", s, uint8(modeString))
		f.Add("POST /api/v1/auth/login", "email", "ada"+s+"@example.com", uint8(modeString))
	}
	f.Add("GET /api/v1/contragents", "q", "\x00", uint8(modeQuery))
	f.Add("GET /api/v1/agreement-blocks/{code}", "code", "RENT\x00", uint8(modePath))
	f.Add("POST /api/v1/contracts", "terms.0.value", "\u0085\x7f\ud7ff\U0010ffff", uint8(modeString))
	// Every operation with each kind of input, so that `go test` walks them
	// all on both engines. Not when fuzzing: the engine replays every seed
	// first, instrumented (a hundred take seconds: each is a request through
	// the whole app), and scripts/fuzz gives a target 5 s in CI; the fuzzer
	// reaches every operation anyway (an unknown key picks one by its hash).
	for i, o := range ops {
		if fuzzing() {
			break
		}
		f.Add(o.key, "", "\x00\x1b[31m\xed\xa0\x80", uint8(i%modeCount))
		f.Add(o.key, "", "x\u2028\t\n\r", uint8((i+3)%modeCount))
		f.Add(o.key, "", `{"a":[1,"\u0000"]}`, uint8((i+6)%modeCount))
	}
	var w *fuzzWorld
	f.Fuzz(func(t *testing.T, opKey, field, s string, mode uint8) {
		a := *app
		a.T = t
		app := &a
		if w == nil {
			nw := newFuzzWorld(t, app)
			w = &nw
		}
		o := ops[0]
		for _, op := range ops {
			if op.key == opKey {
				o = op
			}
		}
		if o.key != opKey {
			o = ops[int(hash(opKey)%uint32(len(ops)))]
		}
		m := int(mode) % modeCount
		if m < modePath && !o.jsonBody {
			m = modePath
		}
		if m == modePath && len(o.pathParams) == 0 {
			m = modeQuery
		}

		path := o.path
		pathParam := ""
		if m == modePath {
			pathParam = pick(field, o.pathParams)
			if e := url.PathEscape(s); e == "" || e == "." || e == ".." {
				// Another route, or a path the client itself resolves.
				t.Skip()
			}
		}
		for _, p := range o.pathParams {
			v := url.PathEscape(w.param(o.path, p))
			if p == pathParam {
				v = url.PathEscape(s)
			}
			path = strings.Replace(path, "{"+p+"}", v, 1)
		}
		if m == modeQuery {
			name := pick(field, o.queryParams)
			if name == "" {
				name = "x" // undeclared: the rule covers it too
			}
			path += "?" + url.QueryEscape(name) + "=" + url.QueryEscape(s)
		}

		req := testkit.Request{Method: o.method, Path: path, Token: w.token}
		if o.jsonBody {
			body := withIDs(o.example, w)
			var target []string
			if fieldPath := pick(field, o.fields); fieldPath != "" {
				target = strings.Split(fieldPath, ".")
			}
			const marker = "\u0001fuzz\u0001"
			var value any
			raw := rawString(s)
			switch m {
			case modeNumber:
				value = len(s)
				if n, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil && len(s) < 30 {
					value = json.Number(strconv.FormatFloat(n, 'g', -1, 64))
				}
			case modeBool:
				value = len(s)%2 == 0
			case modeNull:
				value = nil
			case modeObject:
				value = map[string]any{"x": marker}
			case modeArray:
				value = []any{marker}
			case modeHuge:
				size := 64 << 10
				if len(s)%4 == 0 {
					size = 1<<20 + 1
				}
				value = marker
				raw = rawString(strings.Repeat(s+"x", size/(len(s)+1)+1))
			default:
				value = marker
			}
			b, err := json.Marshal(set(body, target, value))
			if err != nil {
				t.Fatal(err)
			}
			req.Body = strings.Replace(string(b), rawString(marker), raw, 1)
			if m == modeRawBody {
				req.Body = s
			}
		}
		res := app.Do(req)
		if res.Status >= 500 {
			t.Fatalf("%s %q: %d %s", o.method, path, res.Status, res.Body)
		}
		breaks := validate.Text(s, true) != "" && strings.HasPrefix(o.path, "/api/v1")
		if breaks && res.Status/100 == 2 && m != modeRawBody && m != modeNumber && m != modeBool && m != modeNull {
			t.Fatalf("%s %q accepted (%d) a string that breaks the text rule: %q\n%s", o.method, path, res.Status, s, res.Body)
		}
		if res.Status/100 == 2 && o.method != http.MethodGet {
			// The write may have used a record up (deleted, archived,
			// reversed): the next input gets a fresh world.
			w = nil
		}
	})
}

// fuzzing reports a run with -fuzz, as opposed to go test replaying seeds.
func fuzzing() bool {
	fl := flag.Lookup("test.fuzz")
	return fl != nil && fl.Value.String() != ""
}

func hash(s string) uint32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(s))
	return h.Sum32()
}

// withIDs is the example with the ids it names replaced by the world's.
func withIDs(v any, w *fuzzWorld) any {
	ids := map[string]string{"property_id": "propertyId", "tenant_id": "contragentId", "payer_id": "contragentId",
		"contract_id": "contractId", "charge_id": "chargeId"}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if p, ok := ids[k]; ok {
				if _, isString := e.(string); isString {
					out[k] = w.params[p]
					continue
				}
			}
			out[k] = withIDs(e, w)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = withIDs(e, w)
		}
		return out
	default:
		return v
	}
}
