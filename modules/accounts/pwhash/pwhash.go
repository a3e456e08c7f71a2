// Package pwhash hashes passwords with argon2id into PHC strings
// ($argon2id$v=19$m=19456,t=2,p=1$salt$hash) and checks them. A hash costs
// about 20 MB and 28 ms, so concurrent hashes are bounded to GOMAXPROCS:
// a burst of logins queues instead of exhausting memory.
package pwhash

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Params are argon2id's cost settings.
type Params struct {
	Memory  uint32 // KiB
	Time    uint32
	Threads uint8
}

// Default is OWASP's argon2id minimum: 19 MiB, 2 passes, 1 lane.
var Default = Params{Memory: 19 * 1024, Time: 2, Threads: 1}

const (
	saltLen = 16
	keyLen  = 32
	// Stored hashes are ours, but a corrupt or hostile row must not make us
	// allocate gigabytes: refuse parameters beyond these.
	maxMemory = 256 * 1024
	maxTime   = 16
)

// ErrMalformed means a stored hash is not an argon2id PHC string we accept.
var ErrMalformed = errors.New("pwhash: malformed hash")

// sem bounds the hashes running at once.
var sem = make(chan struct{}, runtime.GOMAXPROCS(0))

func acquire(ctx context.Context) error {
	select {
	case sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func release() { <-sem }

// Hash returns the PHC string of password with a fresh random salt.
func Hash(ctx context.Context, password string) (string, error) {
	return HashWith(ctx, password, Default)
}

// HashWith is Hash with explicit parameters.
func HashWith(ctx context.Context, password string, p Params) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("pwhash: salt: %w", err)
	}
	if err := acquire(ctx); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, keyLen)
	release()
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// Verify reports whether password matches the PHC string, comparing in
// constant time.
func Verify(ctx context.Context, password, phc string) (bool, error) {
	p, salt, want, err := parse(phc)
	if err != nil {
		return false, err
	}
	if err := acquire(ctx); err != nil {
		return false, err
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, uint32(len(want)))
	release()
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

func parse(phc string) (Params, []byte, []byte, error) {
	parts := strings.Split(phc, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return Params{}, nil, nil, ErrMalformed
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return Params{}, nil, nil, ErrMalformed
	}
	var p Params
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil {
		return Params{}, nil, nil, ErrMalformed
	}
	if p.Memory < 8*uint32(p.Threads) || p.Memory > maxMemory || p.Time < 1 || p.Time > maxTime || p.Threads < 1 {
		return Params{}, nil, nil, ErrMalformed
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil || len(salt) < 8 {
		return Params{}, nil, nil, ErrMalformed
	}
	key, err := b64.DecodeString(parts[5])
	if err != nil || len(key) < 16 || len(key) > 64 {
		return Params{}, nil, nil, ErrMalformed
	}
	return p, salt, key, nil
}
