package translations_test

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// TestLocalesOnKeepAliveConnections: many clients, each on one kept-alive
// connection, ask for every locale in a shuffled order. Every answer must
// be its own locale's: Fiber reuses a connection's buffers for its next
// request, so a locale kept from a request (a cache key) that was not
// copied would change under the cache and answer another locale's
// dictionary, or corrupt the map. Then every locale once more, in order.
func TestLocalesOnKeepAliveConnections(t *testing.T) {
	app := testkit.Start(t, testkit.WithListener(), testkit.WithConfig("modules.reference.refresh", "50ms"))
	user := accountstest.NewUser(t, app)
	// Every language active, as an operator may make them (those without a
	// dictionary are served English under their own code): many locales
	// make a cache whose keys change under it fail at once.
	if _, err := app.DB.ExecContext(context.Background(), "UPDATE languages SET is_active = TRUE"); err != nil {
		t.Fatal(err)
	}
	var langs struct {
		Languages []struct {
			Code string `json:"code"`
		} `json:"languages"`
		Total int `json:"total"`
	}
	for deadline := time.Now().Add(10 * time.Second); langs.Total < 100; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the activated languages did not show after 10 s (%d)", langs.Total)
		}
		app.Get("/api/v1/languages", "").Expect(http.StatusOK).JSON(&langs)
	}
	var locales []string
	for _, l := range langs.Languages {
		// Lower case is what Fiber hands over untouched; upper case makes
		// ToLower allocate. Both, so both paths fill the cache.
		locales = append(locales, l.Code, strings.ToUpper(l.Code))
	}
	const clients, rounds = 8, 2
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := testkit.KeepAliveClient(t)
			for range rounds {
				order := append([]string(nil), locales...)
				rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
				// Whole dictionaries one after another, so that a kept
				// locale is overwritten by the next one at the same place.
				for _, loc := range order {
					checkLocale(t, app, client, user.Token, loc, true)
				}
				for _, loc := range order[:4] {
					checkLocale(t, app, client, user.Token, loc, false)
				}
			}
		}()
	}
	wg.Wait()
	client := testkit.KeepAliveClient(t)
	for _, loc := range locales {
		checkLocale(t, app, client, user.Token, loc, true)
	}
}

// checkLocale asks for loc's whole dictionary (GET) or some keys (POST)
// and fails the test unless the answer is loc's.
func checkLocale(t *testing.T, app *testkit.App, client *http.Client, token, loc string, whole bool) {
	req := testkit.Request{Method: http.MethodGet, Path: "/api/v1/translations/" + loc, Token: token, Client: client}
	if !whole {
		req = testkit.Request{Method: http.MethodPost, Path: "/api/v1/translations", Token: token, Client: client,
			Body: map[string]any{"locale": loc, "keys": []string{"nav.properties", "no.such.key"}}}
	}
	res := app.Do(req)
	if res.Status != http.StatusOK {
		t.Errorf("%s %s: status %d: %s", req.Method, req.Path, res.Status, res.Body)
		return
	}
	var out struct {
		Locale string `json:"locale"`
	}
	res.JSON(&out)
	if want := strings.ToLower(loc); out.Locale != want {
		t.Errorf("%s %s (%s): answered locale %q, want %q", req.Method, req.Path, loc, out.Locale, want)
	}
}
