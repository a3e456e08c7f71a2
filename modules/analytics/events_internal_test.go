package analytics

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzProperties: properties scans raw bytes by hand, trusting them to be
// valid JSON; on any valid JSON it must not panic, and what it accepts
// must be the same object, compact.
func FuzzProperties(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `{"a":1}`, ` { "a" : "x" , "b":true,"c":null, "d":-1.5e3 } `, `{"a":{"b":1}}`, `{"a":[1]}`,
		`{"\u0061":"\"}"}`, `{"a":1,"a":2}`, `[1]`, `"s"`, `{"a":1e1000000}`, `{"":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		out, broken := properties(nil, raw)
		if broken != "" {
			return
		}
		var want, got any
		_ = json.Unmarshal(raw, &want)
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%q gave %q: %v", raw, out, err)
		}
		if want == nil {
			want = map[string]any{}
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("%q gave %q", raw, out)
		}
	})
}
