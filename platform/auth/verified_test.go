package auth_test

import (
	"errors"
	"testing"
	"time"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
)

// A token checked once is remembered, but only as it was: it still expires
// on time, a token that differs in one byte is checked from scratch, and
// the remembered key does not share memory with the caller's string.
func TestVerifiedTokensAreRememberedOnlyAsTheyWere(t *testing.T) {
	cfg := configWith(t, nil)
	clk := clock.NewFake(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	tokens, err := auth.NewTokens(cfg.Auth, []byte("0123456789abcdef0123456789abcdef"), clk)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := tokens.Issue(7, 3, clk.Now())
	if err != nil {
		t.Fatal(err)
	}
	buf := []byte(raw)
	first, err := tokens.Parse(string(buf))
	if err != nil {
		t.Fatalf("first parse: %v", err)
	}
	// The caller's buffer is reused for the next request.
	for i := range buf {
		buf[i] = 'x'
	}
	again, err := tokens.Parse(raw)
	if err != nil || again.Subject != first.Subject || again.Version != 3 {
		t.Fatalf("second parse: %+v %v", again, err)
	}
	// Changing the returned claims does not change what is remembered.
	again.Version = 99
	if c, _ := tokens.Parse(raw); c.Version != 3 {
		t.Fatalf("remembered claims changed: %+v", c)
	}
	tampered := raw[:len(raw)-2] + "AA"
	if tampered == raw {
		tampered = raw[:len(raw)-2] + "BB"
	}
	if _, err := tokens.Parse(tampered); !errors.Is(err, auth.ErrInvalid) {
		t.Fatalf("tampered token: %v, want ErrInvalid", err)
	}
	clk.Advance(cfg.Auth.TTL + time.Minute)
	if _, err := tokens.Parse(raw); !errors.Is(err, auth.ErrExpired) {
		t.Fatalf("after its lifetime: %v, want ErrExpired", err)
	}
}

// A remembered token expires exactly when a fresh check would refuse it
// (the parser's leeway included): at every instant around the expiry, the
// service that remembers the token and one that never saw it agree.
func TestRememberedTokensExpireAsTheParserDecides(t *testing.T) {
	cfg := configWith(t, nil)
	secret := []byte("0123456789abcdef0123456789abcdef")
	for _, after := range []time.Duration{0, time.Second, 4 * time.Second, 5 * time.Second,
		5*time.Second + time.Millisecond, 6 * time.Second, time.Minute} {
		start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
		clk := clock.NewFake(start)
		remembering, err := auth.NewTokens(cfg.Auth, secret, clk)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := remembering.Issue(7, 3, clk.Now())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := remembering.Parse(raw); err != nil {
			t.Fatalf("first parse: %v", err)
		}
		clk.Advance(cfg.Auth.TTL + after)
		fresh, err := auth.NewTokens(cfg.Auth, secret, clk)
		if err != nil {
			t.Fatal(err)
		}
		_, errFresh := fresh.Parse(raw)
		_, errKnown := remembering.Parse(raw)
		if (errKnown == nil) != (errFresh == nil) || (errFresh != nil && !errors.Is(errKnown, errFresh)) {
			t.Errorf("TTL + %s: remembered %v, fresh %v", after, errKnown, errFresh)
		}
	}
}
