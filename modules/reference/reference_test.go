package reference_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/platform/testkit"
)

type country struct {
	ID        int64             `json:"id"`
	Code      string            `json:"code"`
	Name      map[string]string `json:"name"`
	PhoneCode string            `json:"phone_code"`
	Currency  string            `json:"currency"`
}

type language struct {
	ID         int64  `json:"id"`
	Code       string `json:"code"`
	Name       string `json:"name"`
	NativeName string `json:"native_name"`
}

func TestCountriesListsAllISOCountriesSorted(t *testing.T) {
	app := testkit.Start(t)
	var out struct {
		Countries []country `json:"countries"`
		Total     int       `json:"total"`
	}
	res := app.Get("/api/v1/countries", "").Expect(http.StatusOK)
	res.JSON(&out)
	if out.Total != 249 || len(out.Countries) != 249 {
		t.Fatalf("total %d, %d items; want 249", out.Total, len(out.Countries))
	}
	for i, c := range out.Countries {
		if i > 0 && out.Countries[i-1].Code >= c.Code {
			t.Fatalf("not sorted by code at %d: %s then %s", i, out.Countries[i-1].Code, c.Code)
		}
		if c.ID == 0 || c.PhoneCode == "" || len(c.Currency) != 3 {
			t.Errorf("incomplete country %+v", c)
		}
		for _, loc := range []string{"en", "de", "fr", "es", "uk"} {
			if c.Name[loc] == "" {
				t.Errorf("%s has no %s name", c.Code, loc)
			}
		}
	}
	if res.Header.Get("ETag") == "" {
		t.Error("no ETag")
	}
}

func TestCountryByCode(t *testing.T) {
	app := testkit.Start(t)
	for _, code := range []string{"DE", "de", "dE"} {
		var c country
		app.Get("/api/v1/countries/"+code, "").Expect(http.StatusOK).JSON(&c)
		if c.Code != "DE" || c.Name["de"] != "Deutschland" || c.PhoneCode != "+49" || c.Currency != "EUR" {
			t.Errorf("GET %s = %+v", code, c)
		}
	}
	for _, code := range []string{"XX", "DEU", "1", "%E2%82%AC"} {
		m := app.Get("/api/v1/countries/"+code, "").Expect(http.StatusNotFound).Map()
		if m["error"] != "not_found" {
			t.Errorf("GET %s: %v", code, m)
		}
	}
}

func TestLanguages(t *testing.T) {
	app := testkit.Start(t)
	var out struct {
		Languages []language `json:"languages"`
		Total     int        `json:"total"`
	}
	app.Get("/api/v1/languages", "").Expect(http.StatusOK).JSON(&out)
	var codes []string
	for _, l := range out.Languages {
		codes = append(codes, l.Code)
	}
	want := []string{"de", "en", "es", "fr", "uk"}
	if out.Total != len(want) || len(codes) != len(want) {
		t.Fatalf("languages %v (total %d), want %v", codes, out.Total, want)
	}
	for i := range want {
		if codes[i] != want[i] {
			t.Fatalf("languages %v, want %v", codes, want)
		}
	}
	var l language
	app.Get("/api/v1/languages/UK", "").Expect(http.StatusOK).JSON(&l)
	if l.Code != "uk" || l.Name != "Ukrainian" || l.NativeName == "" {
		t.Errorf("GET uk = %+v", l)
	}
	// Known to ISO 639-1 but not active: no translations exist for it.
	if m := app.Get("/api/v1/languages/it", "").Expect(http.StatusNotFound).Map(); m["error"] != "not_found" {
		t.Errorf("inactive language: %v", m)
	}
}

func TestETagGivesNotModified(t *testing.T) {
	app := testkit.Start(t)
	for _, path := range []string{"/api/v1/countries", "/api/v1/countries/fr", "/api/v1/languages", "/api/v1/languages/en"} {
		etag := app.Get(path, "").Expect(http.StatusOK).Header.Get("ETag")
		res := app.Do(testkit.Request{Method: http.MethodGet, Path: path, Headers: map[string]string{"If-None-Match": etag}})
		if res.Status != http.StatusNotModified || len(res.Body) != 0 {
			t.Errorf("%s with its ETag: %d %q, want 304 and no body", path, res.Status, res.Body)
		}
		app.Do(testkit.Request{Method: http.MethodGet, Path: path, Headers: map[string]string{"If-None-Match": `"stale"`}}).Expect(http.StatusOK)
	}
	// Lists, weak tags and "*" match as RFC 9110 has it; If-Modified-Since
	// alone does not (a payload has no Last-Modified to compare with).
	etag := app.Get("/api/v1/countries/DE", "").Expect(http.StatusOK).Header.Get("ETag")
	for _, tt := range []struct {
		headers map[string]string
		status  int
	}{
		{map[string]string{"If-None-Match": `"stale", ` + etag}, http.StatusNotModified},
		{map[string]string{"If-None-Match": `W/` + etag}, http.StatusNotModified},
		{map[string]string{"If-None-Match": `*`}, http.StatusNotModified},
		{map[string]string{"If-None-Match": `"stale",W/"other"`}, http.StatusOK},
		{map[string]string{"If-None-Match": etag + "x"}, http.StatusOK},
		{map[string]string{"If-Modified-Since": "Mon, 23 Nov 2026 10:00:00 GMT"}, http.StatusOK},
		{map[string]string{"If-None-Match": `"stale"`, "If-Modified-Since": "Mon, 23 Nov 2026 10:00:00 GMT"}, http.StatusOK},
	} {
		res := app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/countries/DE", Headers: tt.headers})
		if res.Status != tt.status {
			t.Errorf("%v: %d, want %d", tt.headers, res.Status, tt.status)
		}
	}
}

// An operator's deactivation survives the seed that runs at every start,
// and reaches the running instance at its next reload.
func TestDeactivationSurvivesSeedAndReachesRunningInstance(t *testing.T) {
	app := testkit.Start(t, testkit.WithConfig("modules.reference.refresh", "50ms"))
	etag := app.Get("/api/v1/countries", "").Expect(http.StatusOK).Header.Get("ETag")
	ctx := context.Background()
	if _, err := app.DB.NewUpdate().Table("countries").Set("is_active = ?", false).Where("code = ?", "AQ").Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if err := reference.Seed(ctx, app.DB); err != nil {
		t.Fatal(err)
	}
	var active bool
	if err := app.DB.NewSelect().Table("countries").Column("is_active").Where("code = ?", "AQ").Scan(ctx, &active); err != nil {
		t.Fatal(err)
	}
	if active {
		t.Fatal("the seed re-activated a country the operator deactivated")
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		res := app.Get("/api/v1/countries/AQ", "")
		if res.Status == http.StatusNotFound {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the running instance still serves AQ: %d", res.Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
	var out struct {
		Total int `json:"total"`
	}
	res := app.Get("/api/v1/countries", "").Expect(http.StatusOK)
	res.JSON(&out)
	if out.Total != 248 || res.Header.Get("ETag") == etag {
		t.Errorf("after deactivation: total %d, ETag changed %v", out.Total, res.Header.Get("ETag") != etag)
	}
}

func TestSeedIsIdempotent(t *testing.T) {
	app := testkit.Start(t)
	ctx := context.Background()
	count := func(table string) int {
		n, err := app.DB.NewSelect().Table(table).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return int(n)
	}
	before := [2]int{count("countries"), count("languages")}
	if err := reference.Seed(ctx, app.DB); err != nil {
		t.Fatal(err)
	}
	if after := [2]int{count("countries"), count("languages")}; after != before {
		t.Errorf("rows before %v, after a second seed %v", before, after)
	}
}

// A 404 names what was asked, but never echoes more than a few characters of
// a client's value.
func TestNotFoundEchoesBoundedCode(t *testing.T) {
	app := testkit.Start(t)
	long := strings.Repeat("x", 300)
	for _, path := range []string{"/api/v1/countries/", "/api/v1/languages/"} {
		m := app.Get(path+long, "").Expect(http.StatusNotFound).Map()
		msg, _ := m["message"].(string)
		if m["error"] != "not_found" || !strings.Contains(msg, `"xxxxxxxxxxxxxxxx..."`) || len(msg) > 80 {
			t.Errorf("%s<300 x>: %v", path, m)
		}
	}
	if m := app.Get("/api/v1/languages/zz", "").Expect(http.StatusNotFound).Map(); m["message"] != `No active language has the code "zz".` {
		t.Errorf("unknown language: %v", m)
	}
}
