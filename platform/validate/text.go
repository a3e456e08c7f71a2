package validate

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The input rule for text (issue 25): every string a client sends, in a
// JSON body, a query parameter or a path parameter, is valid UTF-8 without
// control characters. Control characters are C0 (U+0000-U+001F), DEL
// (U+007F) and C1 (U+0080-U+009F); a field declared multi-line (a struct
// field tagged validate:"multiline") may also hold tab, line feed and
// carriage return. Nothing else reaches a handler: a NUL in a name used to
// reach SQLite (which stops reading the statement there) and PostgreSQL
// (which refuses it in text) as a 500, and invalid UTF-8 was stored as it
// came or silently replaced by U+FFFD by encoding/json.

// The problems Text reports, as the second half of a detail "field: ...".
const (
	ProblemUTF8             = "must be valid UTF-8"
	ProblemControl          = "must not contain control characters"
	ProblemControlMultiline = "must not contain control characters other than tab and line breaks"
)

// MultilineTag is the validate tag option that lets a field hold tab, line
// feed and carriage return: `validate:"omitnil,max=2000,multiline"`. It
// covers everything inside the field (the strings of an array, or of a
// json.RawMessage), unless a struct inside says otherwise for its own fields.
const MultilineTag = "multiline"

// maxTextDetails bounds the details of one body: a body full of broken
// strings gets this many lines, then one saying there are more.
const maxTextDetails = 20

// Text checks one string against the rule and returns what is wrong with
// it ("" when nothing is).
func Text(s string, multiline bool) string {
	for i := 0; i < len(s); {
		b := s[i]
		if b >= 0x20 && b < 0x7f {
			i++
			continue
		}
		r, size := rune(b), 1
		if b >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				return ProblemUTF8
			}
		}
		if p := controlProblem(r, multiline); p != "" {
			return p
		}
		i += size
	}
	return ""
}

func controlProblem(r rune, multiline bool) string {
	if !unicode.IsControl(r) {
		return ""
	}
	if !multiline {
		return ProblemControl
	}
	if r == '\t' || r == '\n' || r == '\r' {
		return ""
	}
	return ProblemControlMultiline
}

// JSONText applies the rule to every string of body, which must be valid
// JSON (it is called once the body decoded into target): object keys and
// values, at any depth. target (the decoded value, e.g. a pointer to the
// request struct) says which fields are multi-line. It returns one detail
// per broken string, named by its JSON path ("terms[2].value"), or nil.
//
// It reads the raw bytes because encoding/json does not tell: it turns
// invalid UTF-8 and lone surrogates (\ud800) into U+FFFD.
func JSONText(body []byte, target any) []string {
	w := jsonWalker{data: body}
	var t reflect.Type
	if target != nil {
		t = reflect.TypeOf(target)
	}
	w.skipSpace()
	w.value(t, false)
	return w.details
}

type jsonWalker struct {
	data    []byte
	i       int
	details []string
	more    bool
	// where the walk is; made into a string only for a detail
	path []pathStep
}

// pathStep is an object's key (raw, as quoted in the body) or an array's index.
type pathStep struct {
	key   []byte
	index int
}

func (w *jsonWalker) pathString() string {
	var b strings.Builder
	for _, p := range w.path {
		if p.key == nil {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(p.index))
			b.WriteByte(']')
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(unquoteKey(p.key))
	}
	return b.String()
}

func (w *jsonWalker) fail(problem string) {
	if len(w.details) >= maxTextDetails {
		if !w.more {
			w.more = true
			w.details = append(w.details, "body: more strings break the rule for text (valid UTF-8, no control characters)")
		}
		return
	}
	path := w.pathString()
	if path == "" {
		path = "body"
	}
	w.details = append(w.details, path+": "+problem)
}

func (w *jsonWalker) skipSpace() {
	for w.i < len(w.data) {
		switch w.data[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

// value walks the value at w.i (after spaces) of Go type t (nil: unknown);
// multiline is what the nearest declaring field said.
func (w *jsonWalker) value(t reflect.Type, multiline bool) {
	if w.i >= len(w.data) {
		return
	}
	t = deref(t)
	switch w.data[w.i] {
	case '"':
		if p := w.str(multiline); p != "" {
			w.fail(p)
		}
	case '{':
		w.i++
		for {
			w.skipSpace()
			if w.i >= len(w.data) {
				return
			}
			if w.data[w.i] == '}' {
				w.i++
				return
			}
			if w.data[w.i] == ',' {
				w.i++
				continue
			}
			start := w.i
			if p := w.str(false); p != "" {
				// The key itself is broken: it names no field, so the
				// object it is in does.
				w.fail("field names " + p)
			}
			key := w.data[start+1 : max(start+1, w.i-1)]
			w.skipSpace()
			if w.i < len(w.data) && w.data[w.i] == ':' {
				w.i++
			}
			w.skipSpace()
			name := key
			if bytes.IndexByte(key, '\\') >= 0 {
				// An escaped key ("na\u006de") names the field encoding/json
				// gives it to.
				var k string
				if json.Unmarshal(w.data[start:start+len(key)+2], &k) == nil {
					name = []byte(k)
				}
			}
			ft, fm := member(t, name, multiline)
			w.path = append(w.path, pathStep{key: key})
			w.value(ft, fm)
			w.path = w.path[:len(w.path)-1]
		}
	case '[':
		w.i++
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && !isRaw(t) {
			elem = t.Elem()
		}
		for n := 0; ; {
			w.skipSpace()
			if w.i >= len(w.data) {
				return
			}
			switch w.data[w.i] {
			case ']':
				w.i++
				return
			case ',':
				w.i++
				n++
				continue
			}
			w.path = append(w.path, pathStep{index: n})
			w.value(elem, multiline)
			w.path = w.path[:len(w.path)-1]
		}
	default:
		// A number, true, false or null.
		for w.i < len(w.data) {
			switch w.data[w.i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return
			}
			w.i++
		}
	}
}

// str reads the string at w.i (its opening quote) and returns what is wrong
// with its content, leaving w.i after the closing quote.
func (w *jsonWalker) str(multiline bool) string {
	d := w.data
	i := w.i + 1
	problem := ""
	note := func(p string) {
		if problem == "" {
			problem = p
		}
	}
	for i < len(d) {
		b := d[i]
		switch {
		case b == '"':
			w.i = i + 1
			return problem
		case b == '\\':
			if i+1 >= len(d) {
				w.i = len(d)
				return problem
			}
			switch d[i+1] {
			case 'b':
				note(controlProblem('\b', multiline))
				i += 2
			case 'f':
				note(controlProblem('\f', multiline))
				i += 2
			case 'n':
				note(controlProblem('\n', multiline))
				i += 2
			case 'r':
				note(controlProblem('\r', multiline))
				i += 2
			case 't':
				note(controlProblem('\t', multiline))
				i += 2
			case 'u':
				r, ok := hex4(d, i+2)
				i += 6
				if !ok {
					note(ProblemUTF8)
					continue
				}
				if utf16IsHigh(r) {
					lo, ok := rune(0), false
					if i+1 < len(d) && d[i] == '\\' && d[i+1] == 'u' {
						lo, ok = hex4(d, i+2)
					}
					if !ok || !utf16IsLow(lo) {
						note(ProblemUTF8) // a lone high surrogate
						continue
					}
					i += 6
					continue // a pair: a rune above U+FFFF, never a control
				}
				if utf16IsLow(r) {
					note(ProblemUTF8) // a lone low surrogate
					continue
				}
				note(controlProblem(r, multiline))
			default: // \" \\ \/
				i += 2
			}
		case b >= 0x20 && b < 0x7f:
			i++
		case b < utf8.RuneSelf:
			// DEL; raw C0 bytes are not valid JSON, so never get here.
			note(controlProblem(rune(b), multiline))
			i++
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				note(ProblemUTF8)
			} else {
				note(controlProblem(r, multiline))
			}
			i += size
		}
	}
	w.i = len(d)
	return problem
}

func hex4(d []byte, at int) (rune, bool) {
	if at+4 > len(d) {
		return 0, false
	}
	var r rune
	for _, c := range d[at : at+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

func utf16IsHigh(r rune) bool { return r >= 0xd800 && r < 0xdc00 }
func utf16IsLow(r rune) bool  { return r >= 0xdc00 && r < 0xe000 }

// unquoteKey is the text of a key as quoted in the body, for naming fields:
// escapes other than \" \\ \/ are rare in keys and left as they are.
func unquoteKey(q []byte) string {
	s := string(q)
	if strings.IndexByte(s, '\\') >= 0 {
		s = strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\/`, `/`).Replace(s)
	}
	if Text(s, false) != "" {
		// Never echo a broken key into a detail.
		return "?"
	}
	return s
}

// isRaw reports a byte slice (json.RawMessage, []byte): what it holds is
// not Go-typed.
func isRaw(t reflect.Type) bool {
	return t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8
}

func deref(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// member is the Go type of key in an object of type t and whether its
// strings may be multi-line: a struct field's own declaration, or, for a
// map or an untyped value, the enclosing field's.
func member(t reflect.Type, key []byte, multiline bool) (reflect.Type, bool) {
	if t == nil {
		return nil, multiline
	}
	switch t.Kind() {
	case reflect.Map:
		return t.Elem(), multiline
	case reflect.Struct:
		fields := structFields(t)
		if f, ok := fields.exact[string(key)]; ok {
			return f.typ, f.multiline
		}
		for name, f := range fields.exact {
			// encoding/json matches keys case-insensitively too.
			if bytes.EqualFold([]byte(name), key) {
				return f.typ, f.multiline
			}
		}
		return nil, false
	default:
		return nil, multiline
	}
}

type fieldInfo struct {
	typ       reflect.Type
	multiline bool
}

type fieldSet struct{ exact map[string]fieldInfo }

var fieldCache sync.Map // reflect.Type -> fieldSet

// structFields lists t's fields by JSON name, embedded structs' promoted
// fields included, as encoding/json sees them.
func structFields(t reflect.Type) fieldSet {
	if v, ok := fieldCache.Load(t); ok {
		return v.(fieldSet)
	}
	fs := fieldSet{exact: map[string]fieldInfo{}}
	var add func(t reflect.Type, depth int)
	add = func(t reflect.Type, depth int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			name, _, _ := strings.Cut(tag, ",")
			if name == "-" && !strings.HasPrefix(tag, "-,") {
				continue
			}
			if f.Anonymous && name == "" {
				if et := deref(f.Type); et.Kind() == reflect.Struct && depth < 8 {
					add(et, depth+1)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if _, taken := fs.exact[name]; taken && depth > 0 {
				continue // an outer field wins
			}
			fs.exact[name] = fieldInfo{typ: f.Type, multiline: hasMultiline(f.Tag.Get("validate"))}
		}
	}
	add(t, 0)
	fieldCache.Store(t, fs)
	return fs
}

func hasMultiline(tag string) bool {
	for _, opt := range strings.Split(tag, ",") {
		if strings.TrimSpace(opt) == MultilineTag {
			return true
		}
	}
	return false
}
