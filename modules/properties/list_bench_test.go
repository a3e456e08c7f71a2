package properties_test

import (
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// BenchmarkListPage asks for the first page of a 51-property portfolio, one
// request after the other over a kept-alive connection: the latency of the
// list with its role lookup (issue 26). The same file runs on the build of
// 9970f2d (before workspaces) to compare; on PostgreSQL:
//
//	PROPMAN_TEST_DATABASE_URL=... go test -run '^$' -bench ListPage -benchtime 4000x -count 3 ./modules/properties/
func BenchmarkListPage(b *testing.B) {
	app := testkit.Start(b, testkit.WithListener())
	u := accountstest.NewUser(b, app)
	for i := 0; i < 51; i++ {
		app.Post("/api/v1/properties", u.Token, map[string]any{"name": fmt.Sprintf("Flat %d", i), "address": "Hauptstr. 1", "city": "Berlin", "postal_code": "10115", "country_code": "DE"}).Expect(201)
	}
	client := testkit.KeepAliveClient(b)
	req, _ := http.NewRequest(http.MethodGet, app.URL+"/api/v1/properties", nil)
	req.Header.Set("Authorization", "Bearer "+u.Token)
	for b.Loop() {
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			b.Fatal(res.StatusCode)
		}
	}
}
