package agreements_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/propman/propman/modules/agreements/catalog"
	"github.com/propman/propman/platform/testkit"
)

// block mirrors the Agreement block resource for decoding answers.
type block struct {
	ID       int64  `json:"id"`
	Code     string `json:"code"`
	DataType string `json:"data_type"`
	Country  *struct {
		Code string            `json:"code"`
		Name map[string]string `json:"name"`
	} `json:"country"`
	Name        map[string]string `json:"name"`
	Description map[string]string `json:"description"`
	ImageURL    *string           `json:"image_url"`
	IsSystem    bool              `json:"is_system"`
	SortOrder   int               `json:"sort_order"`
}

type list struct {
	AgreementBlocks []block `json:"agreement_blocks"`
	CountryFilter   *string `json:"country_filter"`
	Total           int     `json:"total"`
}

type byType struct {
	AgreementBlocks []block `json:"agreement_blocks"`
	DataType        string  `json:"data_type"`
	Total           int     `json:"total"`
}

func shipped(t *testing.T) map[string]catalog.Block {
	t.Helper()
	bs, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	m := make(map[string]catalog.Block, len(bs))
	for _, b := range bs {
		m[b.Code] = b
	}
	return m
}

// countryNames are the localized names the reference data gives.
var countryNames = map[string]map[string]string{
	"DE": {"en": "Germany", "de": "Deutschland", "fr": "Allemagne", "es": "Alemania", "uk": "Німеччина"},
	"FR": {"en": "France", "de": "Frankreich", "fr": "France", "es": "Francia", "uk": "Франція"},
}

// checkShipped compares a served block with the shipped catalogue entry.
func checkShipped(t *testing.T, got block, want catalog.Block) {
	t.Helper()
	if got.ID <= 0 {
		t.Errorf("%s: id %d", got.Code, got.ID)
	}
	if got.DataType != want.DataType || got.SortOrder != want.SortOrder || !got.IsSystem || got.ImageURL != nil {
		t.Errorf("%s: data_type %q sort_order %d is_system %v image_url %v; want %q %d true nil",
			got.Code, got.DataType, got.SortOrder, got.IsSystem, got.ImageURL, want.DataType, want.SortOrder)
	}
	if !reflect.DeepEqual(got.Name, want.Name) || !reflect.DeepEqual(got.Description, want.Description) {
		t.Errorf("%s: name/description differ from the catalogue", got.Code)
	}
	switch {
	case want.Country == nil && got.Country != nil:
		t.Errorf("%s: country %+v, want null", got.Code, got.Country)
	case want.Country != nil && (got.Country == nil || got.Country.Code != *want.Country):
		t.Errorf("%s: country %+v, want %s", got.Code, got.Country, *want.Country)
	case want.Country != nil:
		if names, ok := countryNames[*want.Country]; ok && !reflect.DeepEqual(got.Country.Name, names) {
			t.Errorf("%s: country name %v, want %v", got.Code, got.Country.Name, names)
		}
		if got.Country.Name["en"] == "" {
			t.Errorf("%s: country name lacks en: %v", got.Code, got.Country.Name)
		}
	}
}

func sorted(t *testing.T, bs []block) {
	t.Helper()
	ok := slices.IsSortedFunc(bs, func(a, b block) int {
		if a.SortOrder != b.SortOrder {
			return a.SortOrder - b.SortOrder
		}
		return strings.Compare(a.Code, b.Code)
	})
	if !ok {
		t.Errorf("blocks not ordered by sort_order, code")
	}
}

func TestListAll(t *testing.T) {
	app := testkit.Start(t)
	want := shipped(t)
	res := app.Get("/api/v1/agreement-blocks", "").Expect(http.StatusOK)
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	var got list
	res.JSON(&got)
	if got.CountryFilter != nil {
		t.Errorf("country_filter %q, want null", *got.CountryFilter)
	}
	if got.Total != len(want) || len(got.AgreementBlocks) != len(want) {
		t.Fatalf("total %d, %d blocks; want %d", got.Total, len(got.AgreementBlocks), len(want))
	}
	sorted(t, got.AgreementBlocks)
	ids := map[int64]bool{}
	for _, b := range got.AgreementBlocks {
		w, ok := want[b.Code]
		if !ok {
			t.Errorf("unexpected block %s", b.Code)
			continue
		}
		checkShipped(t, b, w)
		if ids[b.ID] {
			t.Errorf("%s: id %d used twice", b.Code, b.ID)
		}
		ids[b.ID] = true
	}

	// The JSON types of every field, as a client without our structs sees them.
	var raw struct {
		AgreementBlocks []map[string]any `json:"agreement_blocks"`
		CountryFilter   any              `json:"country_filter"`
		Total           any              `json:"total"`
	}
	res.JSON(&raw)
	if _, ok := raw.Total.(float64); !ok || raw.CountryFilter != nil {
		t.Errorf("total %T, country_filter %v", raw.Total, raw.CountryFilter)
	}
	for _, b := range raw.AgreementBlocks {
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range b {
				if !yield(k) {
					return
				}
			}
		})
		wantKeys := []string{"code", "country", "data_type", "description", "id", "image_url", "is_system", "name", "sort_order"}
		if !slices.Equal(keys, wantKeys) {
			t.Fatalf("keys %v, want %v", keys, wantKeys)
		}
		id, _ := b["id"].(float64)
		_, code := b["code"].(string)
		_, dt := b["data_type"].(string)
		_, name := b["name"].(map[string]any)
		_, desc := b["description"].(map[string]any)
		_, sys := b["is_system"].(bool)
		so, isNum := b["sort_order"].(float64)
		country, isObj := b["country"].(map[string]any)
		if id < 1 || id != float64(int64(id)) || !code || !dt || !name || !desc || !sys || !isNum || so != float64(int(so)) ||
			b["image_url"] != nil || (b["country"] != nil && !isObj) {
			t.Errorf("field types of %v", b)
		}
		if isObj {
			_, cc := country["code"].(string)
			_, cn := country["name"].(map[string]any)
			if !cc || !cn || len(country) != 2 {
				t.Errorf("country of %v", b["code"])
			}
		}
	}
}

func TestListCountryFilter(t *testing.T) {
	app := testkit.Start(t)
	want := shipped(t)
	generic := 0
	perCountry := map[string]int{}
	for _, b := range want {
		if b.Country == nil {
			generic++
		} else {
			perCountry[*b.Country]++
		}
	}
	for _, tc := range []struct{ query, filter string }{
		{"DE", "DE"}, {"de", "DE"}, {"Fr", "FR"}, {"ES", "ES"}, {"UA", "UA"}, {"%20de%20", "DE"},
		{"IT", "IT"}, // active, no blocks of its own: the generic ones
	} {
		t.Run(tc.query, func(t *testing.T) {
			var got list
			app.Get("/api/v1/agreement-blocks?country="+tc.query, "").Expect(http.StatusOK).JSON(&got)
			if got.CountryFilter == nil || *got.CountryFilter != tc.filter {
				t.Fatalf("country_filter %v, want %s", got.CountryFilter, tc.filter)
			}
			n := generic + perCountry[tc.filter]
			if got.Total != n || len(got.AgreementBlocks) != n {
				t.Fatalf("total %d, %d blocks; want %d", got.Total, len(got.AgreementBlocks), n)
			}
			sorted(t, got.AgreementBlocks)
			own := 0
			for _, b := range got.AgreementBlocks {
				if b.Country != nil {
					if b.Country.Code != tc.filter {
						t.Errorf("%s of %s in the %s list", b.Code, b.Country.Code, tc.filter)
					}
					own++
				}
				checkShipped(t, b, want[b.Code])
			}
			if own != perCountry[tc.filter] {
				t.Errorf("%d blocks of %s, want %d", own, tc.filter, perCountry[tc.filter])
			}
		})
	}
	if perCountry["DE"] == 0 || perCountry["FR"] == 0 {
		t.Fatalf("catalogue lacks DE or FR blocks: %v", perCountry)
	}

	t.Run("empty is no filter", func(t *testing.T) {
		var got list
		app.Get("/api/v1/agreement-blocks?country=", "").Expect(http.StatusOK).JSON(&got)
		if got.CountryFilter != nil || got.Total != len(want) {
			t.Errorf("country_filter %v total %d", got.CountryFilter, got.Total)
		}
	})

	for _, tc := range []struct{ query, detail string }{
		{"DEU", `"DEU" is not a two-letter`},
		{"D", `"D" is not a two-letter`},
		{"D1", `"D1" is not a two-letter`},
		{"%C3%9Cx", `"Üx" is not a two-letter`},
		{strings.Repeat("x", 60), `"xxxxxxxxxxxxxxxx..." is not a two-letter`},
		{"ZZ", "ZZ is not an active country"},
		{"xx", "XX is not an active country"},
	} {
		t.Run("bad "+tc.query, func(t *testing.T) {
			m := app.Get("/api/v1/agreement-blocks?country="+tc.query, "").Expect(http.StatusBadRequest).Map()
			details, _ := m["details"].([]any)
			if m["error"] != "validation_failed" || len(details) != 1 || !strings.Contains(fmt.Sprint(details[0]), tc.detail) {
				t.Errorf("body %v, want a detail with %s", m, tc.detail)
			}
		})
	}
}

func TestByCode(t *testing.T) {
	app := testkit.Start(t)
	want := shipped(t)
	var all list
	app.Get("/api/v1/agreement-blocks", "").Expect(http.StatusOK).JSON(&all)
	for _, b := range all.AgreementBlocks {
		var got block
		app.Get("/api/v1/agreement-blocks/"+b.Code, "").Expect(http.StatusOK).JSON(&got)
		if !reflect.DeepEqual(got, b) {
			t.Errorf("%s: %+v, want the list's %+v", b.Code, got, b)
		}
		checkShipped(t, got, want[b.Code])
	}
	for _, code := range []string{"monthly_rent_amount", "Monthly_Rent_Amount", "de_Kaution_Months"} {
		var got block
		app.Get("/api/v1/agreement-blocks/"+code, "").Expect(http.StatusOK).JSON(&got)
		if got.Code != strings.ToUpper(code) {
			t.Errorf("%s answered %s", code, got.Code)
		}
	}
	for _, code := range []string{"NO_SUCH_BLOCK", "by-type", "%20", strings.Repeat("A", 300)} {
		res := app.Get("/api/v1/agreement-blocks/"+code, "").Expect(http.StatusNotFound)
		if res.String() != `{"error":"Agreement block not found"}` {
			t.Errorf("%s: body %s", code, res.Body)
		}
	}
	// A control character is refused by the platform's text rule (issue 25).
	app.Get("/api/v1/agreement-blocks/MONTHLY_RENT_AMOUNT%00", "").Expect(http.StatusBadRequest)
}

func TestByType(t *testing.T) {
	app := testkit.Start(t)
	want := shipped(t)
	seen := 0
	for _, dt := range catalog.DataTypes {
		for _, asked := range []string{dt, strings.ToUpper(dt)} {
			var got byType
			app.Get("/api/v1/agreement-blocks/by-type/"+asked, "").Expect(http.StatusOK).JSON(&got)
			n := 0
			for _, b := range want {
				if b.DataType == dt {
					n++
				}
			}
			if got.DataType != dt || got.Total != n || len(got.AgreementBlocks) != n || n == 0 {
				t.Fatalf("%s: data_type %q total %d, %d blocks; want %s %d", asked, got.DataType, got.Total, len(got.AgreementBlocks), dt, n)
			}
			sorted(t, got.AgreementBlocks)
			for _, b := range got.AgreementBlocks {
				checkShipped(t, b, want[b.Code])
				if b.DataType != dt {
					t.Errorf("%s in the %s list", b.Code, dt)
				}
			}
			if asked == dt {
				seen += n
			}
		}
	}
	if seen != len(want) {
		t.Errorf("the five types hold %d blocks, want %d", seen, len(want))
	}
	for _, tc := range []struct{ asked, named string }{
		{"string", `"string"`},
		{"integer", `"integer"`},
		{"%20", `" "`},
		{strings.Repeat("y", 100), `"` + strings.Repeat("y", 32) + `..."`},
	} {
		res := app.Get("/api/v1/agreement-blocks/by-type/"+tc.asked, "").Expect(http.StatusBadRequest)
		var body map[string]string
		res.JSON(&body)
		msg := body["error"]
		if len(body) != 1 || !strings.Contains(msg, tc.named) || !strings.Contains(msg, "int, float, bool, text, date") {
			t.Errorf("%s: body %s", tc.asked, res.Body)
		}
	}
}

func TestETag(t *testing.T) {
	app := testkit.Start(t)
	paths := []string{
		"/api/v1/agreement-blocks",
		"/api/v1/agreement-blocks?country=DE",
		"/api/v1/agreement-blocks?country=IT",
		"/api/v1/agreement-blocks/MONTHLY_RENT_AMOUNT",
		"/api/v1/agreement-blocks/by-type/int",
	}
	etags := map[string]string{}
	for _, p := range paths {
		first := app.Get(p, "").Expect(http.StatusOK)
		tag := first.Header.Get("ETag")
		if !strings.HasPrefix(tag, `"`) || len(tag) < 10 {
			t.Fatalf("%s: ETag %q", p, tag)
		}
		if other, dup := etags[tag]; dup {
			t.Errorf("%s and %s share ETag %s", p, other, tag)
		}
		etags[tag] = p
		if again := app.Get(p, "").Expect(http.StatusOK); again.Header.Get("ETag") != tag || string(again.Body) != string(first.Body) {
			t.Errorf("%s: second answer differs", p)
		}
		for _, inm := range []string{tag, "W/" + tag, `"other", ` + tag, "*"} {
			res := app.Do(testkit.Request{Method: http.MethodGet, Path: p, Headers: map[string]string{"If-None-Match": inm}}).Expect(http.StatusNotModified)
			if len(res.Body) != 0 || res.Header.Get("ETag") != tag {
				t.Errorf("%s If-None-Match %s: body %q ETag %q", p, inm, res.Body, res.Header.Get("ETag"))
			}
		}
		res := app.Do(testkit.Request{Method: http.MethodGet, Path: p, Headers: map[string]string{"If-None-Match": `"stale"`}}).Expect(http.StatusOK)
		if string(res.Body) != string(first.Body) {
			t.Errorf("%s: stale ETag did not get the full body", p)
		}
		var v any
		if err := json.Unmarshal(res.Body, &v); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}
