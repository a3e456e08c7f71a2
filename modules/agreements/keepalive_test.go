package agreements_test

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// TestCountryFiltersOnKeepAliveConnections: many clients, each on one
// kept-alive connection, list the blocks of many countries in a shuffled
// order; every answer must carry its own country_filter. A country code
// kept from a request (the cache of countries without rules of their own)
// that was not copied would change when Fiber reuses the buffer.
func TestCountryFiltersOnKeepAliveConnections(t *testing.T) {
	app := testkit.Start(t, testkit.WithListener())
	var list struct {
		Countries []struct {
			Code string `json:"code"`
		} `json:"countries"`
	}
	app.Get("/api/v1/countries", "").Expect(http.StatusOK).JSON(&list)
	var codes []string
	for _, c := range list.Countries {
		codes = append(codes, c.Code, strings.ToLower(c.Code))
	}
	codes = append(codes, "DE", "FR", "ES", "UA", "de", "ua")
	const clients, rounds = 8, 1
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := testkit.KeepAliveClient(t)
			for range rounds {
				order := append([]string(nil), codes...)
				rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
				for _, code := range order {
					checkCountry(t, app, client, code)
				}
			}
		}()
	}
	wg.Wait()
	client := testkit.KeepAliveClient(t)
	for _, code := range codes {
		checkCountry(t, app, client, code)
	}
}

func checkCountry(t *testing.T, app *testkit.App, client *http.Client, code string) {
	res := app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/agreement-blocks?country=" + code, Client: client})
	if res.Status != http.StatusOK {
		t.Errorf("?country=%s: status %d: %s", code, res.Status, res.Body)
		return
	}
	var out struct {
		CountryFilter *string `json:"country_filter"`
	}
	res.JSON(&out)
	if want := strings.ToUpper(code); out.CountryFilter == nil || *out.CountryFilter != want {
		t.Errorf("?country=%s: country_filter %v, want %s", code, out.CountryFilter, want)
	}
}
