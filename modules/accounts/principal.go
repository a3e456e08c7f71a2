package accounts

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
)

// usersChannel is the PostgreSQL channel a trigger on users notifies, with
// the user's id, in the transaction of every update or delete of a row
// (migration accounts_users_notify): a change made by any instance, by a
// `propman user` command or by hand reaches every instance at its commit.
const usersChannel = "propman_users"

// maxCachedPrincipals bounds the cache; past it the cache starts empty again.
const maxCachedPrincipals = 100_000

// principals answers the token guard: the current roles, token version and
// state of a token's user. It keeps the users it read for at most ttl, so a
// request with a token costs no query, and forgets one the moment it
// changes.
//
// On PostgreSQL, where several instances may share the database:
//
//   - a trigger on users notifies usersChannel with the id at the commit of
//     every update or delete, whoever made it (an instance, a `propman
//     user` command, an operator by hand); every instance listens and
//     forgets the user;
//   - a change through the Store also forgets it here at once, and waits
//     until every listening instance has acknowledged forgetting it before
//     it is answered (changing);
//   - while the listening connection is down nothing is kept, so nothing
//     stale is believed; ttl bounds how long a user is kept at all.
//
// On SQLite one process serves a database file (docs/OPERATIONS.md), so
// every change the service makes goes through this process's Store, which
// forgets the user after the commit and before the change is answered
// (changing): the very next request reads the new row. What this process
// does not make is not heard: a `propman user role` run against the file of
// a running server (it only adds a role) or an edit by hand counts after at
// most ttl (modules.accounts.cachettl, 5 s by default; 0 reads the row on
// every check).
//
// A read that started before a change must not store what it read after
// the change was forgotten: every forget raises gen, and a read stores its
// result only when gen did not move meanwhile.
type principals struct {
	store *Store
	ttl   time.Duration
	// trusted is true while this instance hears of every change: on
	// PostgreSQL while it listens, on SQLite always (one process makes the
	// changes), and never with ttl 0.
	trusted atomic.Bool
	gen     atomic.Uint64

	mu    sync.RWMutex
	users map[int64]cachedUser

	// listening is true on PostgreSQL: a change through this instance then
	// waits for every instance's acknowledgement before it answers (see
	// changing).
	listening bool
	wmu       sync.Mutex
	waiters   map[string]*waiter // by nonce
	// ack sends "ack:<nonce>" on usersChannel (through the pool, off the
	// listening goroutine); a field so a test can count or drop acks.
	ack func(nonce string)
}

// waiter is a change through this instance waiting until every listening
// instance has forgotten the user: need acknowledgements of its nonce.
type waiter struct {
	need, got int
	done      chan struct{}
}

// settleWait bounds how long a change waits for the acknowledgements (an
// instance that died without closing its connection never sends one).
const settleWait = 2 * time.Second

type cachedUser struct {
	user    User
	expires time.Time
}

func newPrincipals(store *Store, ttl time.Duration, listening bool) *principals {
	p := &principals{
		store: store, ttl: ttl, users: map[int64]cachedUser{},
		listening: listening, waiters: map[string]*waiter{},
	}
	p.ack = func(nonce string) {
		ctx, cancel := context.WithTimeout(context.Background(), settleWait)
		defer cancel()
		_ = store.notifyUsers(ctx, ackPrefix+nonce)
	}
	store.changing = p.changing
	return p
}

// ackPrefix starts the payload of an acknowledgement: an instance forgot
// the user of the change with that nonce.
const ackPrefix = "ack:"

// changing is called before the store changes the user with id; the
// function it returns is called once the change has committed. It forgets
// the user here and, on PostgreSQL, sends a notification of its own (with
// a nonce) after the trigger's, then waits (at most settleWait) until every
// instance listening on the database has acknowledged it: each forgets the
// user when the notification arrives and then answers "ack:<nonce>"
// (Notified). So when the change is answered, every instance has forgotten
// the user, and a client's very next request to any of them is checked
// against the new row. Being told is not enough: an instance is signalled
// at the commit, but its listening goroutine may run a moment later.
func (p *principals) changing(id int64) (settle func(ctx context.Context)) {
	return func(ctx context.Context) {
		p.forget(id)
		if !p.listening || !p.trusted.Load() {
			return
		}
		need, err := database.ListenerCount(ctx, p.store.db, usersChannel)
		if err != nil || need == 0 {
			return
		}
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		nonce := hex.EncodeToString(b)
		w := &waiter{need: need, done: make(chan struct{})}
		p.wmu.Lock()
		p.waiters[nonce] = w
		p.wmu.Unlock()
		defer func() {
			p.wmu.Lock()
			delete(p.waiters, nonce)
			p.wmu.Unlock()
		}()
		payload := strconv.FormatInt(id, 10) + ":" + nonce
		if err := p.store.notifyUsers(ctx, payload); err != nil {
			return
		}
		deadline := time.NewTimer(settleWait)
		defer deadline.Stop()
		select {
		case <-w.done:
		case <-deadline.C:
		case <-ctx.Done():
		}
	}
}

// Principal returns the user as the guard needs it, or auth.ErrNoUser.
func (p *principals) Principal(ctx context.Context, userID int64) (auth.Principal, error) {
	if p.trusted.Load() {
		p.mu.RLock()
		c, ok := p.users[userID]
		p.mu.RUnlock()
		if ok && time.Now().Before(c.expires) {
			// A copy: the handler may keep or change its record.
			u := c.user
			return principalOf(&u), nil
		}
	}
	gen := p.gen.Load()
	u, err := p.store.ByID(ctx, userID)
	if errors.Is(err, ErrNotFound) {
		return auth.Principal{}, auth.ErrNoUser
	}
	if err != nil {
		return auth.Principal{}, err
	}
	if !u.IsActive {
		return auth.Principal{}, auth.ErrNoUser
	}
	if p.trusted.Load() {
		p.mu.Lock()
		if p.gen.Load() == gen {
			if len(p.users) >= maxCachedPrincipals {
				p.users = map[int64]cachedUser{}
			}
			p.users[userID] = cachedUser{user: *u, expires: time.Now().Add(p.ttl)}
		}
		p.mu.Unlock()
	}
	return principalOf(u), nil
}

func principalOf(u *User) auth.Principal {
	return auth.Principal{UserID: u.ID, Roles: u.Roles.List(), Version: u.TokenVersion, Record: u}
}

// forget drops what is kept of the user with id.
func (p *principals) forget(id int64) {
	p.mu.Lock()
	p.gen.Add(1)
	delete(p.users, id)
	p.mu.Unlock()
}

// forgetAll drops everything kept.
func (p *principals) forgetAll() {
	p.mu.Lock()
	p.gen.Add(1)
	clear(p.users)
	p.mu.Unlock()
}

// Listening is told that the notification connection listens: changes
// missed while it was down may be anywhere, so start empty and trust again.
func (p *principals) Listening() {
	p.forgetAll()
	p.trusted.Store(p.ttl > 0)
}

// Lost is told that the notification connection dropped: keep nothing
// until it listens again.
func (p *principals) Lost() {
	p.trusted.Store(false)
	p.forgetAll()
}

// Notified is told the payload of a notification: the id of a user whose
// row changed, with ":nonce" when an instance's change sent it (changing),
// which is then acknowledged once the user is forgotten; or "ack:<nonce>",
// an instance's acknowledgement, counted for this instance's waiting change.
func (p *principals) Notified(payload string) {
	if nonce, ok := strings.CutPrefix(payload, ackPrefix); ok {
		p.wmu.Lock()
		if w, ok := p.waiters[nonce]; ok {
			w.got++
			if w.got == w.need {
				close(w.done)
			}
		}
		p.wmu.Unlock()
		return
	}
	idText, nonce, _ := strings.Cut(payload, ":")
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil {
		p.forgetAll()
	} else {
		p.forget(id)
	}
	if nonce != "" {
		// Off the listening goroutine: the next notification may be this
		// acknowledgement itself.
		go p.ack(nonce)
	}
}
