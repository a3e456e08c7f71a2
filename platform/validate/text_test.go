package validate_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/propman/propman/platform/validate"
)

func TestText(t *testing.T) {
	for _, c := range []struct {
		in        string
		multiline bool
		want      string
	}{
		{"Flat 3, Hauptstraße 5 日本 😀 \u2028", false, ""},
		{"", false, ""},
		{"a\x00b", false, validate.ProblemControl},
		{"a\x00b", true, validate.ProblemControlMultiline},
		{"a\tb", false, validate.ProblemControl},
		{"a\nb", false, validate.ProblemControl},
		{"a\r\nb\tc", true, ""},
		{"\x1b[31m", true, validate.ProblemControlMultiline},
		{"del\x7f", false, validate.ProblemControl},
		{"c1\u0085", true, validate.ProblemControlMultiline},
		{"c1\u009f", false, validate.ProblemControl},
		{"bad\xff", false, validate.ProblemUTF8},
		{"bad\xc3", true, validate.ProblemUTF8},
		{"\xed\xa0\x80", false, validate.ProblemUTF8}, // an encoded surrogate
	} {
		if got := validate.Text(c.in, c.multiline); got != c.want {
			t.Errorf("Text(%q, %v) = %q, want %q", c.in, c.multiline, got, c.want)
		}
	}
}

type term struct {
	Code  *string         `json:"code"`
	Value json.RawMessage `json:"value" validate:"multiline"`
}

type embedded struct {
	Comment string `json:"comment" validate:"multiline"`
}

type request struct {
	embedded
	Name  *string           `json:"name" validate:"omitnil,max=200"`
	Notes *string           `json:"notes" validate:"omitnil,max=2000,multiline"`
	Terms *[]term           `json:"terms"`
	Tags  []string          `json:"tags"`
	Meta  map[string]string `json:"meta"`
	Skip  string            `json:"-"`
}

func TestJSONText(t *testing.T) {
	single, multi := validate.ProblemControl, validate.ProblemControlMultiline
	for _, c := range []struct {
		body string
		want []string
	}{
		{`{"name":"Flat","notes":"line 1\nline 2\r\n\tindented","tags":["a"],"meta":{"k":"v"},"comment":"a\nb"}`, nil},
		{`{"name":"a\u0000b"}`, []string{"name: " + single}},
		{`{"name":"a\nb"}`, []string{"name: " + single}},
		{`{"name":"a\tb","notes":"a\u0000b"}`, []string{"name: " + single, "notes: " + multi}},
		{`{"NOTES":"case\ninsensitive like encoding/json","NAME":"x\by"}`, []string{"NAME: " + single}},
		{`{"n\u006ftes":"an escaped key\nnames its field"}`, nil},
		{"{\"name\":\"raw \xff byte\"}", []string{"name: " + validate.ProblemUTF8}},
		{"{\"name\":\"raw \x7f del\"}", []string{"name: " + single}},
		{"{\"name\":\"raw \u0085 C1\"}", []string{"name: " + single}},
		{`{"name":"\ud800 lone high"}`, []string{"name: " + validate.ProblemUTF8}},
		{`{"name":"\udc00 lone low"}`, []string{"name: " + validate.ProblemUTF8}},
		{`{"name":"\ud800\u0041 high then no low"}`, []string{"name: " + validate.ProblemUTF8}},
		{`{"name":"\ud83d\ude00 a pair"}`, nil},
		{`{"name":"\u00e4\u001f"}`, []string{"name: " + single}},
		{`{"name":"\u007F"}`, []string{"name: " + single}},
		{`{"name":"escaped backslash \\u0000 is text","x":"\/\"\\"}`, nil},
		{`{"terms":[{"code":"RENT","value":"line 1\nline 2"},{"code":"a\tb","value":"x"}]}`, []string{"terms[1].code: " + single}},
		{`{"terms":[{"value":{"x":["ok\n","a\u0000"]}}]}`, []string{"terms[0].value.x[1]: " + multi}},
		{`{"tags":["ok","b\u007f"],"meta":{"k":"v\u0085"}}`, []string{"tags[1]: " + single, "meta.k: " + single}},
		{`{"a\u0000":"x"}`, []string{"body: field names " + single}},
		{`{"outer":{"b\ud800":1}}`, []string{"outer: field names " + validate.ProblemUTF8}},
		{`"\u0000"`, []string{"body: " + single}},
		{` [ "a" , "\n" ] `, []string{"[1]: " + single}},
		{`{"unknown":"x\n","n":1.5e3,"b":true,"z":null}`, []string{"unknown: " + single}},
	} {
		var v request
		if err := json.Unmarshal([]byte(c.body), &v); err != nil && !strings.HasPrefix(c.body, `"`) && !strings.HasPrefix(c.body, ` [`) {
			t.Fatalf("%s: %v", c.body, err)
		}
		if got := validate.JSONText([]byte(c.body), &v); !reflect.DeepEqual(got, c.want) {
			t.Errorf("JSONText(%s)\n got %q\nwant %q", c.body, got, c.want)
		}
	}
}

// A body full of broken strings gets a bounded answer.
func TestJSONTextBoundsDetails(t *testing.T) {
	body := "[" + strings.TrimSuffix(strings.Repeat(`"\u0000",`, 1000), ",") + "]"
	got := validate.JSONText([]byte(body), nil)
	if len(got) != 21 || !strings.HasPrefix(got[20], "body: more strings") {
		t.Fatalf("%d details, last %q", len(got), got[len(got)-1])
	}
}

// The multiline declaration is a no-op for the struct validator.
func TestMultilineTagIsAcceptedByStruct(t *testing.T) {
	s := "x"
	if d := validate.Struct(&request{Notes: &s}); d != nil {
		t.Fatal(d)
	}
}

// Whatever the body, JSONText agrees with what encoding/json makes of it: a
// body it passes decodes to strings without control characters, and a body
// whose decoded strings hold one is refused.
func FuzzJSONText(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, `{"a":"\u0000"}`, "{\"a\":\"\xff\"}", `["\ud800"]`, `{"k\n":1}`, `"x"`, `[1,{"a":[true,null,"\u0085"]}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var v any
		if json.Unmarshal(body, &v) != nil {
			return
		}
		details := validate.JSONText(body, nil)
		control := false
		var walk func(any)
		check := func(s string) {
			if strings.IndexFunc(s, unicode.IsControl) >= 0 {
				control = true
			}
		}
		walk = func(v any) {
			switch x := v.(type) {
			case string:
				check(x)
			case []any:
				for _, e := range x {
					walk(e)
				}
			case map[string]any:
				for k, e := range x {
					check(k)
					walk(e)
				}
			}
		}
		walk(v)
		if control && len(details) == 0 {
			t.Fatalf("%q decodes to a control character, yet JSONText passed it", body)
		}
		if len(details) == 0 && strings.ContainsRune(string(mustMarshal(t, v)), '\ufffd') && !strings.Contains(string(body), "\ufffd") && !strings.Contains(strings.ToLower(string(body)), `\ufffd`) {
			t.Fatalf("%q holds invalid UTF-8 or a lone surrogate, yet JSONText passed it", body)
		}
	})
}

func mustMarshal(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// BenchmarkJSONText is what the rule adds to DecodeJSON: a contract's body
// (as the reference shows it) and 64 KiB of notes.
//
//	go test -run '^$' -bench JSONText -count 5 ./platform/validate/
func BenchmarkJSONText(b *testing.B) {
	contract := []byte(`{"property_id":"019a4f3e-7c1d-7a2b-9c3d-2e4f5a6b7c8d","tenant_id":"019a4f3e-8d2e-7b3c-8d4e-3f5a6b7c8d9e",` +
		`"number":"2026/001","locale":"de","terms":[{"code":"MONTHLY_RENT_AMOUNT","value":950.00},` +
		`{"code":"CONTRACT_START_DATE","value":"2026-12-01"},{"code":"PAYMENT_DAY_OF_MONTH","value":3},` +
		`{"code":"SPECIAL_CONDITIONS","value":"Haustiere nach Absprache.\nRauchen nur auf dem Balkon."}]}`)
	notes, _ := json.Marshal(map[string]string{"name": "Anna Schmidt", "notes": strings.Repeat("Zählerstand geprüft.\n", 3200)})
	for _, c := range []struct {
		name string
		body []byte
	}{{"contract", contract}, {"notes-64KiB", notes}} {
		b.Run(c.name, func(b *testing.B) {
			var v request
			if err := json.Unmarshal(c.body, &v); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(c.body)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if d := validate.JSONText(c.body, &v); d != nil {
					b.Fatal(d)
				}
			}
		})
	}
}
