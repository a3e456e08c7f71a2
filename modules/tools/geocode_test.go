package tools_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/tools"
	"github.com/propman/propman/platform/testkit"
)

type place struct {
	Address     string  `json:"address"`
	Lat         float64 `json:"lat"`
	Lon         float64 `json:"lon"`
	Precision   string  `json:"precision"`
	DisplayName string  `json:"display_name"`
	City        *string `json:"city"`
	CountryCode *string `json:"country_code"`
	Source      string  `json:"source"`
	Attribution string  `json:"attribution"`
	Cached      bool    `json:"cached"`
}

func geocodePath(address string, extra ...string) string {
	p := "/api/v1/tools/geocode?address=" + url.QueryEscape(address)
	for _, e := range extra {
		p += "&" + e
	}
	return p
}

func TestGeocodeOfflineCities(t *testing.T) {
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)
	cases := []struct {
		address, extra, city, country string
		lat, lon                      float64
	}{
		{"Berlin, Germany", "", "Berlin", "DE", 52.52, 13.41},
		{"Unter den Linden 1, 10117 Berlin, Deutschland", "", "Berlin", "DE", 52.52, 13.41},
		{"München", "", "Munich", "DE", 48.14, 11.58},
		{"Lviv, UA", "", "Lviv", "UA", 49.84, 24.02},
		{"вул. Хрещатик 1, Київ, Україна", "", "Kyiv", "UA", 50.45, 30.52},
		{"paris", "", "Paris", "FR", 48.85, 2.35},
		{"Paris", "country=us", "Paris", "US", 33.66, -95.56},
		{"Paris, Etats-Unis", "", "Paris", "US", 33.66, -95.56},
		{"  Sevilla ,  España ", "", "Sevilla", "ES", 37.38, -5.97},
	}
	for _, c := range cases {
		var p place
		var extra []string
		if c.extra != "" {
			extra = append(extra, c.extra)
		}
		app.Get(geocodePath(c.address, extra...), u.Token).Expect(http.StatusOK).JSON(&p)
		if p.Precision != "city" || p.Source != "offline" || p.Cached || *p.City != c.city || *p.CountryCode != c.country ||
			math.Abs(p.Lat-c.lat) > 0.05 || math.Abs(p.Lon-c.lon) > 0.05 || !strings.Contains(p.Attribution, "GeoNames") {
			t.Errorf("%q: %+v", c.address, p)
		}
	}
	app.Get(geocodePath("Atlantis under the sea"), u.Token).Expect(http.StatusNotFound)
	app.Get(geocodePath("Berlin", "country=JP"), u.Token).Expect(http.StatusNotFound)
	for _, bad := range []string{"/api/v1/tools/geocode", geocodePath(""), geocodePath("   "), geocodePath(strings.Repeat("é", 301))} {
		res := app.Get(bad, u.Token).Expect(http.StatusUnprocessableEntity)
		if res.Map()["error"] != "invalid_address" {
			t.Errorf("%s: %s", bad, res.String())
		}
	}
	app.Get(geocodePath(strings.Repeat("é", 300)), u.Token).Expect(http.StatusNotFound)
	app.Get(geocodePath("Berlin", "country=XX"), u.Token).Expect(http.StatusBadRequest)
	app.Get(geocodePath("Berlin", "country=Germany"), u.Token).Expect(http.StatusBadRequest)
	app.Get(geocodePath("Berlin"), "").Expect(http.StatusUnauthorized)
}

// provider is a Nominatim-compatible server the test runs: it answers
// /search as Nominatim does (format=jsonv2, addressdetails=1) and records
// when each request came and with which User-Agent.
type provider struct {
	*httptest.Server
	mu    sync.Mutex
	times []time.Time
	asked []string
	agent []string
}

func startProvider(t *testing.T) *provider {
	p := &provider{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		p.mu.Lock()
		p.times = append(p.times, time.Now())
		p.asked = append(p.asked, q.Get("q"))
		p.agent = append(p.agent, r.UserAgent())
		p.mu.Unlock()
		if r.URL.Path != "/search" || q.Get("format") != "jsonv2" || q.Get("limit") != "1" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		address := q.Get("q")
		switch {
		case strings.Contains(address, "broken"):
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
			return
		case strings.Contains(address, "garbage"):
			fmt.Fprint(w, "<html>not json</html>")
			return
		case strings.Contains(address, "Nowhere"):
			fmt.Fprint(w, "[]")
			return
		}
		res := map[string]any{
			"lat": "52.5170365", "lon": "13.3888599", "place_rank": 30,
			"display_name": address + ", Mitte, Berlin, Deutschland",
			"licence":      "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
			"address":      map[string]string{"road": "Unter den Linden", "city": "Berlin", "country_code": "de"},
		}
		if strings.HasPrefix(address, "Lyon") {
			res = map[string]any{"lat": "45.7578137", "lon": "4.8320114", "place_rank": 16, "display_name": "Lyon, France",
				"address": map[string]string{"city": "Lyon", "country_code": "fr"}}
		}
		if cc := q.Get("countrycodes"); cc != "" {
			res["display_name"] = address + " (" + cc + ")"
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode([]any{res})
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *provider) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.times)
}

// gaps are the times between consecutive requests, in arrival order.
func (p *provider) gaps() []time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	ts := slices.Clone(p.times)
	slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
	var out []time.Duration
	for i := 1; i < len(ts); i++ {
		out = append(out, ts[i].Sub(ts[i-1]))
	}
	return out
}

const agent = "propman-test/1 (ops@propman.test)"

func withProvider(p *provider, interval string) []testkit.Option {
	return []testkit.Option{
		testkit.WithConfig("modules.tools.geocodeurl", p.URL),
		testkit.WithConfig("modules.tools.geocodeuseragent", agent),
		testkit.WithConfig("modules.tools.geocodeinterval", interval),
	}
}

func TestGeocodeThroughProviderIsCached(t *testing.T) {
	prov := startProvider(t)
	// The clock moves a month on: the token must outlive it.
	app := testkit.Start(t, append(withProvider(prov, "1s"), testkit.WithConfig("auth.ttl", "2000h"), testkit.WithConfig("auth.maxage", "2000h"))...)
	u := accountstest.NewUser(t, app)

	var p place
	app.Get(geocodePath("Unter den Linden 1, Berlin"), u.Token).Expect(http.StatusOK).JSON(&p)
	if p.Precision != "address" || p.Source != "provider" || p.Cached || p.Lat != 52.5170365 || *p.City != "Berlin" ||
		*p.CountryCode != "DE" || !strings.Contains(p.Attribution, "OpenStreetMap") {
		t.Fatalf("%+v", p)
	}
	// Case and spacing make no new request.
	app.Get(geocodePath("  unter den LINDEN 1,   berlin "), u.Token).Expect(http.StatusOK).JSON(&p)
	if !p.Cached || p.Lat != 52.5170365 || p.Address != "unter den LINDEN 1, berlin" {
		t.Fatalf("%+v", p)
	}
	if prov.count() != 1 {
		t.Fatalf("provider asked %d times", prov.count())
	}
	// A country filter is another question.
	app.Get(geocodePath("Unter den Linden 1, Berlin", "country=de"), u.Token).Expect(http.StatusOK).JSON(&p)
	if p.Cached || !strings.HasSuffix(p.DisplayName, "(de)") {
		t.Fatalf("%+v", p)
	}
	// A town is city precision.
	app.Get(geocodePath("Lyon"), u.Token).Expect(http.StatusOK).JSON(&p)
	if p.Precision != "city" || *p.CountryCode != "FR" || p.Attribution == "" {
		t.Fatalf("%+v", p)
	}
	// Nothing found is remembered too.
	app.Get(geocodePath("Nowhere Street 1"), u.Token).Expect(http.StatusNotFound)
	app.Get(geocodePath("Nowhere Street 1"), u.Token).Expect(http.StatusNotFound)
	if prov.count() != 4 {
		t.Fatalf("provider asked %d times, want 4", prov.count())
	}
	// A provider that fails is a 502, and nothing is cached.
	for _, addr := range []string{"broken", "garbage", "broken"} {
		res := app.Get(geocodePath(addr), u.Token).Expect(http.StatusBadGateway)
		if res.Map()["error"] != "provider_error" {
			t.Errorf("%s: %s", addr, res.String())
		}
	}
	if prov.count() != 7 {
		t.Fatalf("provider asked %d times, want 7", prov.count())
	}
	// After the cache's lifetime the provider is asked again.
	app.Clock.Advance(31 * 24 * time.Hour)
	app.Get(geocodePath("Unter den Linden 1, Berlin"), u.Token).Expect(http.StatusOK).JSON(&p)
	if p.Cached || prov.count() != 8 {
		t.Fatalf("%+v after %d requests", p, prov.count())
	}
	for _, a := range prov.agent {
		if a != agent {
			t.Errorf("User-Agent %q", a)
		}
	}
	// One request a second: eight requests, each at least a second
	// after the one before.
	for i, g := range prov.gaps() {
		if g < time.Second {
			t.Errorf("request %d came %v after the one before", i+1, g)
		}
	}
}

// Two instances on one database share the provider's pace: their
// requests, sent at once, reach it a second apart.
func TestGeocodePaceAcrossInstances(t *testing.T) {
	prov := startProvider(t)
	a := testkit.Start(t, withProvider(prov, "1s")...)
	b := testkit.Start(t, append(withProvider(prov, "1s"), testkit.WithConfig("database.url", a.Config.Database.URL))...)
	ua := accountstest.NewUser(t, a)
	var wg sync.WaitGroup
	for i := range 4 {
		app := a
		if i%2 == 1 {
			app = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			app.Get(geocodePath(fmt.Sprintf("Street %d, Berlin", i)), ua.Token).Expect(http.StatusOK)
		}()
	}
	wg.Wait()
	gaps := prov.gaps()
	if len(gaps) != 3 {
		t.Fatalf("%d requests", len(gaps)+1)
	}
	for i, g := range gaps {
		if g < time.Second {
			t.Errorf("request %d came %v after the one before", i+1, g)
		}
	}
}

// A request whose turn is further away than geocodemaxwait is refused
// with the wait, and books no slot.
func TestGeocodeTooLongAWaitIs429(t *testing.T) {
	prov := startProvider(t)
	app := testkit.Start(t, append(withProvider(prov, "10s"), testkit.WithConfig("modules.tools.geocodemaxwait", "1s"))...)
	u := accountstest.NewUser(t, app)
	app.Get(geocodePath("Street 1, Berlin"), u.Token).Expect(http.StatusOK)
	res := app.Get(geocodePath("Street 2, Berlin"), u.Token).Expect(http.StatusTooManyRequests)
	wait, _ := res.Map()["wait"].(float64)
	if res.Map()["error"] != "rate_limit" || wait < 7 || wait > 10 || res.Header.Get("Retry-After") == "" {
		t.Fatalf("%s %v", res.String(), res.Header)
	}
	// The cached answer needs no turn.
	app.Get(geocodePath("Street 1, Berlin"), u.Token).Expect(http.StatusOK)
	if prov.count() != 1 {
		t.Fatalf("provider asked %d times", prov.count())
	}
}

// More clients than the pool has connections, half of them asking the
// same addresses: every one is answered, the provider at its pace.
func TestGeocodeManyClients(t *testing.T) {
	prov := startProvider(t)
	app := testkit.Start(t, append(withProvider(prov, "50ms"), testkit.WithConfig("database.maxopen", 4))...)
	u := accountstest.NewUser(t, app)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			app.Get(geocodePath(fmt.Sprintf("Street %d, Berlin", i%8)), u.Token).Expect(http.StatusOK)
		}()
	}
	wg.Wait()
	if n := prov.count(); n < 8 || n > 16 {
		t.Fatalf("provider asked %d times", n)
	}
	for i, g := range prov.gaps() {
		if g < 50*time.Millisecond {
			t.Errorf("request %d came %v after the one before", i+1, g)
		}
	}
	// Now every address is cached.
	before := prov.count()
	for i := range 8 {
		var p place
		app.Get(geocodePath(fmt.Sprintf("Street %d, Berlin", i)), u.Token).Expect(http.StatusOK).JSON(&p)
		if !p.Cached {
			t.Errorf("street %d not cached", i)
		}
	}
	if prov.count() != before {
		t.Errorf("provider asked again")
	}
}

func TestGeocodeConfiguration(t *testing.T) {
	for _, c := range []struct {
		overrides map[string]any
		key       string
	}{
		{map[string]any{"modules.tools.geocodeurl": "https://nominatim.example"}, "modules.tools.geocodeuseragent"},
		{map[string]any{"modules.tools.geocodeurl": "ftp://nominatim.example", "modules.tools.geocodeuseragent": agent}, "modules.tools.geocodeurl"},
		{map[string]any{"modules.tools.geocodeinterval": "2m"}, "modules.tools.geocodeinterval"},
		{map[string]any{"modules.tools.helplinks": []map[string]any{{"key": "x", "title": map[string]any{"de": "X"}, "url": map[string]any{"de": "https://x.example"}}}}, "modules.tools.helplinks[0]"},
		{map[string]any{"modules.tools.helplinks": []map[string]any{{"key": "x", "title": map[string]any{"en": "X"}, "url": map[string]any{"en": "javascript:alert(1)"}}}}, "modules.tools.helplinks[0].url.en"},
	} {
		_, err := tools.NewConfig(testkit.Config(t, c.overrides))
		if err == nil || !strings.Contains(err.Error(), c.key) {
			t.Errorf("%v: %v", c.overrides, err)
		}
	}
}
