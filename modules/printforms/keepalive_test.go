package printforms_test

import (
	"bytes"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// TestFormsOnKeepAliveConnections: many clients, each on one kept-alive
// connection, ask for two contracts in every locale (upper and lower case)
// in shuffled orders, through a cache of three PDFs, so PDFs are drawn,
// kept, evicted and drawn again while the connections' buffers are reused
// by the next request. Every answer must be the very bytes and filename of
// its own contract and locale.
func TestFormsOnKeepAliveConnections(t *testing.T) {
	f := start(t, testkit.WithListener(), testkit.WithConfig("modules.printforms.cache", 3))
	second := f.newContract(t, f.user.Token, "K-2", "de", fullTerms[:3])
	type want struct {
		body        []byte
		disposition string
	}
	wants := map[string]want{}
	var paths []string
	for _, id := range []string{f.contract, second} {
		for _, loc := range []string{"en", "de", "fr", "es", "uk"} {
			res := f.print(id, "locale="+loc, f.user.Token, nil).Expect(http.StatusOK)
			w := want{body: res.Body, disposition: res.Header.Get("Content-Disposition")}
			for _, l := range []string{loc, strings.ToUpper(loc)} {
				path := formPath(id) + "?locale=" + l
				wants[path] = w
				paths = append(paths, path)
			}
		}
	}
	if bytes.Equal(wants[paths[0]].body, wants[paths[2]].body) {
		t.Fatal("en and de gave the same PDF")
	}
	const clients, rounds = 8, 2
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := testkit.KeepAliveClient(t)
			for range rounds {
				order := append([]string(nil), paths...)
				rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
				for _, p := range order {
					res := f.app.Do(testkit.Request{Method: http.MethodGet, Path: p, Token: f.user.Token, Client: client})
					w := wants[p]
					if res.Status != http.StatusOK || !bytes.Equal(res.Body, w.body) || res.Header.Get("Content-Disposition") != w.disposition {
						t.Errorf("%s: status %d, %d bytes (want %d), disposition %q (want %q)",
							p, res.Status, len(res.Body), len(w.body), res.Header.Get("Content-Disposition"), w.disposition)
					}
				}
			}
		}()
	}
	wg.Wait()
}
