package accounts_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/testkit"
)

type meView struct {
	Name  string   `json:"name"`
	Roles []string `json:"roles"`
}

// TestTokenCheckSeesChangesAtOnce: the user a token check read is kept, so
// each change must reach the very next request: a password change retires
// older tokens, a profile change shows in /auth/me, a role or deactivation
// made by hand in the database (as an operator would) counts at once.
func TestTokenCheckSeesChangesAtOnce(t *testing.T) {
	app := testkit.Start(t)
	register(t, app, "Anna Landlord", "anna@example.com")
	token := login(t, app, "anna@example.com", goodPassword)

	var me meView
	for range 3 { // read (and keep) the user
		app.Get("/api/v1/auth/me", token).Expect(200).JSON(&me)
	}
	app.Put("/api/v1/user/profile", token, map[string]any{"name": "Anna Renamed"}).Expect(200)
	app.Get("/api/v1/auth/me", token).Expect(200).JSON(&me)
	if me.Name != "Anna Renamed" {
		t.Fatalf("after a profile change /auth/me says name %q", me.Name)
	}

	app.Put("/api/v1/user/password", token, map[string]any{"current_password": goodPassword, "new_password": "Other-Ledger-2027"}).Expect(200)
	app.Get("/api/v1/auth/me", token).Expect(401)
	app.Get("/api/v1/auth/me", login(t, app, "anna@example.com", "Other-Ledger-2027")).Expect(200)
}

// TestTwoInstancesSeeEachOthersChanges runs two instances on one PostgreSQL
// database: a change through one (or by hand) is refused or shown by the
// other on the very next request. SQLite is served by one process.
func TestTwoInstancesSeeEachOthersChanges(t *testing.T) {
	if testkit.Engine() != "postgres" {
		t.Skip("two instances share a database on PostgreSQL only (SQLite is served by one process)")
	}
	a := testkit.Start(t)
	b := testkit.Start(t, testkit.WithConfig("database.url", a.Config.Database.URL))
	register(t, a, "Anna Landlord", "anna@example.com")
	token := login(t, a, "anna@example.com", goodPassword)
	ctx := context.Background()

	for round := range 5 {
		for range 3 {
			b.Get("/api/v1/auth/me", token).Expect(200)
		}
		switch round % 3 {
		case 0: // a role granted by hand
			if _, err := a.DB.ExecContext(ctx, "UPDATE users SET roles = 'ROLE_USER,ROLE_ADMIN' WHERE email = 'anna@example.com'"); err != nil {
				t.Fatal(err)
			}
			eventually(t, "instance b sees the new role", func() bool {
				var me meView
				b.Get("/api/v1/auth/me", token).Expect(200).JSON(&me)
				return len(me.Roles) == 2
			})
			if _, err := a.DB.ExecContext(ctx, "UPDATE users SET roles = 'ROLE_USER' WHERE email = 'anna@example.com'"); err != nil {
				t.Fatal(err)
			}
		case 1: // deactivated by hand, then back
			if _, err := a.DB.ExecContext(ctx, "UPDATE users SET is_active = FALSE WHERE email = 'anna@example.com'"); err != nil {
				t.Fatal(err)
			}
			eventually(t, "instance b refuses the deactivated user", func() bool {
				return b.Get("/api/v1/auth/me", token).Status == 401
			})
			if _, err := a.DB.ExecContext(ctx, "UPDATE users SET is_active = TRUE WHERE email = 'anna@example.com'"); err != nil {
				t.Fatal(err)
			}
		case 2: // a password change through instance a
			next := "Next-Ledger-2027"
			if round > 2 {
				next = "Last-Ledger-2028"
			}
			current := goodPassword
			if round > 2 {
				current = "Next-Ledger-2027"
			}
			a.Put("/api/v1/user/password", token, map[string]any{"current_password": current, "new_password": next}).Expect(200)
			b.Get("/api/v1/auth/me", token).Expect(401)
			token = login(t, b, "anna@example.com", next)
		}
	}
}

// eventually polls ok for at most 2 s: a change made by hand in the
// database reaches an instance when its notification does, a moment after
// the commit (a change through an instance waits for it before answering,
// so it needs no such grace). Without the notification it would take the
// cache's 5 s lifetime.
func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("not after 2 s: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestTokenChecksUnderConcurrentPasswordChange: requests race a password
// change; once it has answered, no request with the old token passes.
func TestTokenChecksUnderConcurrentPasswordChange(t *testing.T) {
	app := testkit.Start(t)
	register(t, app, "Anna Landlord", "anna@example.com")
	token := login(t, app, "anna@example.com", goodPassword)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				r := app.Get("/api/v1/auth/me", token)
				if r.Status != 200 && r.Status != 401 {
					t.Errorf("status %d during the change", r.Status)
					return
				}
			}
		}()
	}
	app.Put("/api/v1/user/password", token, map[string]any{"current_password": goodPassword, "new_password": "Other-Ledger-2027"}).Expect(200)
	for range 50 {
		app.Get("/api/v1/auth/me", token).Expect(401)
	}
	close(stop)
	wg.Wait()
}

// TestSQLiteTokenRefusedAfterChange: the token check keeps the users it read
// (on SQLite in the serving process, on PostgreSQL with notifications), and
// every change the service makes counts from the very next request: a
// password change retires older tokens, and a role change through the
// Store's SetRoles (what `propman user role` runs; no route or command
// deactivates or deletes a user) is granted and withdrawn at once. The
// cache lives 1 h here, so nothing below passes because an entry expired.
func TestSQLiteTokenRefusedAfterChange(t *testing.T) {
	var store *accounts.Store
	app := testkit.Start(t, testkit.WithConfig("modules.accounts.cachettl", "1h"), testkit.WithPopulate(&store))
	ctx := context.Background()
	id := register(t, app, "Anna Landlord", "anna@example.com")
	token := login(t, app, "anna@example.com", goodPassword)
	var me meView
	for range 3 {
		app.Get("/api/v1/auth/me", token).Expect(200).JSON(&me)
	}
	if app.Engine == "sqlite" {
		// The checks are answered from memory: an edit by hand, which the
		// process does not make, is not seen (within the 1 h lifetime).
		if _, err := app.DB.ExecContext(ctx, "UPDATE users SET name = 'Edited By Hand' WHERE id = ?", id); err != nil {
			t.Fatal(err)
		}
		app.Get("/api/v1/auth/me", token).Expect(200).JSON(&me)
		if me.Name != "Anna Landlord" {
			t.Fatalf("token check read the row again (name %q): the cache is not in use", me.Name)
		}
	}

	// Password change: the old token is refused on the very next request.
	app.Put("/api/v1/user/password", token, map[string]any{"current_password": goodPassword, "new_password": "Other-Ledger-2027"}).Expect(200)
	app.Get("/api/v1/auth/me", token).Expect(401)
	token = login(t, app, "anna@example.com", "Other-Ledger-2027")

	// Role change: another user's property is readable with ROLE_ADMIN from
	// the next request on, and refused again from the one after revoking.
	owner := accountstest.NewUser(t, app)
	var prop struct {
		ID string `json:"id"`
	}
	app.Post("/api/v1/properties", owner.Token, map[string]any{"name": "Flat", "country_code": "DE"}).Expect(201).JSON(&prop)
	other := "/api/v1/properties/" + prop.ID
	for range 3 {
		app.Get(other, token).Expect(403)
	}
	setRoles := func(roles ...string) {
		t.Helper()
		u, err := store.ByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		u.Roles = accounts.RolesOf(roles...)
		if err := store.SetRoles(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	setRoles("ROLE_USER", "ROLE_ADMIN")
	app.Get(other, token).Expect(200)
	app.Get("/api/v1/auth/me", token).Expect(200).JSON(&me)
	if len(me.Roles) != 2 {
		t.Fatalf("roles after the grant: %v", me.Roles)
	}
	setRoles("ROLE_USER")
	app.Get(other, token).Expect(403)
	app.Get("/api/v1/auth/me", token).Expect(200).JSON(&me)
	if len(me.Roles) != 1 {
		t.Fatalf("roles after the revocation: %v", me.Roles)
	}
}

// slowListener is an instance whose listening goroutine runs late: it
// forgets a changed user only after delay (a loaded machine's scheduler).
type slowListener struct {
	*accounts.Cache
	delay time.Duration
}

func (s slowListener) Notified(payload string) {
	if !strings.HasPrefix(payload, "ack:") {
		time.Sleep(s.delay)
	}
	s.Cache.Notified(payload)
}

// TestChangeWaitsForTheSlowestInstance: a password change through one
// instance is answered only once every listening instance has forgotten
// the user, however late its listener runs; the slow instance refuses the
// old token on the very next request. (Before the acknowledgements, the
// change waited for its own instance only, and the slow one still had the
// old token version here.)
func TestChangeWaitsForTheSlowestInstance(t *testing.T) {
	if testkit.Engine() != "postgres" {
		t.Skip("instances share a database on PostgreSQL only")
	}
	a := testkit.Start(t)
	id := register(t, a, "Anna Landlord", "anna@example.com")
	token := login(t, a, "anna@example.com", goodPassword)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	slow := slowListener{Cache: accounts.NewCache(a.DB, time.Minute), delay: 300 * time.Millisecond}
	listening := make(chan struct{})
	var once sync.Once
	go database.Listen(ctx, a.Config.Database.URL, accounts.Channel, onListening{slow, func() { once.Do(func() { close(listening) }) }},
		slog.New(slog.DiscardHandler))
	select {
	case <-listening:
	case <-time.After(10 * time.Second):
		t.Fatal("the slow instance does not listen")
	}
	before, err := slow.Principal(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	a.Put("/api/v1/user/password", token, map[string]any{"current_password": goodPassword, "new_password": "Next-Ledger-2027"}).Expect(200)
	took := time.Since(started)
	after, err := slow.Principal(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version == before.Version {
		t.Fatalf("after the change was answered (in %s) the slow instance still keeps token version %d", took, after.Version)
	}
	if took < slow.delay {
		t.Fatalf("the change was answered in %s, before the slow instance could forget (%s)", took, slow.delay)
	}
}

// onListening tells listening when the subscriber starts to listen.
type onListening struct {
	slowListener
	listening func()
}

func (o onListening) Listening() {
	o.slowListener.Listening()
	o.listening()
}
