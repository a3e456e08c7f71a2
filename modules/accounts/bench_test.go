package accounts_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/accounts/pwhash"
	"github.com/propman/propman/platform/testkit"
)

// These go straight to Fiber (no doc.json validation) to measure the
// service, not the test kit.

// BenchmarkLogin pairs POST /auth/login with its bound, argon2id alone, in
// throughput (ns/op is wall time over operations): "argon2id" verifies the
// user's stored hash from parallel clients (at most GOMAXPROCS at once run,
// as pwhash allows), "login" sends the whole request through Fiber from
// 4*GOMAXPROCS clients, as a server under load has them: while one login's
// queries wait on the database, another's hash has the core. On a machine
// shared with other work those two runs, seconds apart, see different
// loads; "alternating" runs bursts of 24 hashes and 24 logins (same
// clients) one after the other, b.N times, and reports each one's wall time
// per operation and login/hash, the figure to read; "sequential" is one
// client's latency (see there):
//
//	go test -run '^$' -bench 'Login$' -benchtime 10x -count 5 ./modules/accounts/
func BenchmarkLogin(b *testing.B) {
	app := testkit.Start(b, testkit.WithConfig("ratelimit.enabled", false))
	const clientsPerCPU = 4
	clients := clientsPerCPU * runtime.GOMAXPROCS(0)
	// One user per client: the limit of 5 logins per email and address
	// counts those in flight too.
	ctx := context.Background()
	stored, err := pwhash.Hash(ctx, goodPassword)
	if err != nil {
		b.Fatal(err)
	}
	bodies := make([]string, clients)
	for i := range bodies {
		email := fmt.Sprintf("anna%d@example.com", i)
		now := app.Clock.Now()
		if err := accounts.NewStore(app.DB).Insert(ctx, app.DB, &accounts.User{
			Email: email, Name: "Anna", PasswordHash: stored, Locale: "en", CountryCode: "DE",
			Roles: accounts.RolesOf("ROLE_USER"), IsActive: true, CreatedAt: now, UpdatedAt: now,
		}); err != nil {
			b.Fatal(err)
		}
		bodies[i] = `{"email":"` + email + `","password":"` + goodPassword + `"}`
	}
	hash := func() {
		if ok, err := pwhash.Verify(ctx, goodPassword, stored); !ok || err != nil {
			b.Fatalf("verify: %v %v", ok, err)
		}
	}
	var next atomic.Int64
	client := func() int { return int(next.Add(1)-1) % clients }
	login := func(c int) {
		req := httptest.NewRequest(http.MethodPost, "/api/v1/auth/login", strings.NewReader(bodies[c]))
		req.Header.Set("Content-Type", "application/json")
		res, err := app.Fiber.Test(req, -1)
		if err != nil || res.StatusCode != 200 {
			b.Fatalf("login: %v %v", err, res.StatusCode)
		}
		res.Body.Close()
	}
	b.Run("argon2id", func(b *testing.B) {
		b.SetParallelism(clientsPerCPU)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				hash()
			}
		})
	})
	b.Run("login", func(b *testing.B) {
		b.SetParallelism(clientsPerCPU)
		b.RunParallel(func(pb *testing.PB) {
			c := client()
			for pb.Next() {
				login(c)
			}
		})
	})
	// burst runs n calls of f from the clients and returns the wall time.
	burst := func(f func(c int), n int) time.Duration {
		var left atomic.Int64
		left.Store(int64(n))
		var wg sync.WaitGroup
		start := time.Now()
		for c := range clients {
			wg.Add(1)
			go func(c int) {
				defer wg.Done()
				for left.Add(-1) >= 0 {
					f(c)
				}
			}(c)
		}
		wg.Wait()
		return time.Since(start)
	}
	b.Run("alternating", func(b *testing.B) {
		const n = 24
		var hashes, logins time.Duration
		for range b.N {
			hashes += burst(func(int) { hash() }, n)
			logins += burst(login, n)
		}
		h := float64(hashes) / float64(n*b.N)
		l := float64(logins) / float64(n*b.N)
		b.ReportMetric(h/1e6, "hash-ms/op")
		b.ReportMetric(l/1e6, "login-ms/op")
		b.ReportMetric(l/h, "login/hash")
	})
	// One client, a hash then a login, b.N times: what a login costs its
	// user beyond the hash (the database statements wait on the network
	// and, on a busy machine, on the scheduler).
	b.Run("sequential", func(b *testing.B) {
		var hashes, logins time.Duration
		for i := range b.N {
			// Each goes first every other time: the one that follows pays
			// for the garbage collection of the first's 19 MiB more often.
			start := time.Now()
			if i%2 == 0 {
				hash()
				hashes += time.Since(start)
			} else {
				login(0)
				logins += time.Since(start)
			}
			start = time.Now()
			if i%2 == 0 {
				login(0)
				logins += time.Since(start)
			} else {
				hash()
				hashes += time.Since(start)
			}
		}
		h := float64(hashes) / float64(b.N)
		l := float64(logins) / float64(b.N)
		b.ReportMetric(h/1e6, "hash-ms/op")
		b.ReportMetric(l/1e6, "login-ms/op")
		b.ReportMetric((l-h)/1e6, "extra-ms/op")
	})
}

// BenchmarkMe is one token check and /auth/me answered from the user the
// check loaded: "cachettl=0" reads the user on every request (the old
// behaviour on SQLite), "cached" keeps it (modules.accounts.cachettl 5s, the
// default); both in one run so their ratio means something.
//
//	go test -run '^$' -bench 'Me$' -count 5 ./modules/accounts/
func BenchmarkMe(b *testing.B) {
	for _, c := range []struct{ name, ttl string }{{"cachettl=0", "0s"}, {"cached", "5s"}} {
		b.Run(c.name, func(b *testing.B) {
			app := testkit.Start(b, testkit.WithConfig("modules.accounts.cachettl", c.ttl))
			u := accountstest.NewUser(b, app)
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					req := httptest.NewRequest(http.MethodGet, "/api/v1/auth/me", nil)
					req.Header.Set("Authorization", "Bearer "+u.Token)
					res, err := app.Fiber.Test(req, -1)
					if err != nil || res.StatusCode != 200 {
						b.Fatalf("me: %v %v", err, res.StatusCode)
					}
					res.Body.Close()
				}
			})
		})
	}
}
