package oidc

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
)

// flow is what /start binds to the browser and the callback checks: the
// state, nonce and PKCE verifier of one sign-in. It travels in a cookie,
// sealed (AES-GCM under a key derived from auth.secret), so starting a
// sign-in writes nothing on the server and the browser cannot read or
// change what it carries.
type flow struct {
	Provider string `json:"p"`
	State    string `json:"s"`
	Nonce    string `json:"n"`
	Verifier string `json:"v"`
	// ExpiresMS is when the flow ends, in Unix milliseconds by the clock.
	ExpiresMS int64 `json:"e"`
}

// cookieName is the flow cookie; one per browser, so a second sign-in
// started meanwhile replaces the first.
const cookieName = "propman_oidc"

// maxCookieLen bounds what the callback tries to open.
const maxCookieLen = 1024

type sealer struct{ aead cipher.AEAD }

func newSealer(key []byte) (*sealer, error) {
	block, err := aes.NewCipher(key[:32])
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &sealer{aead: aead}, nil
}

func (s *sealer) seal(f flow) (string, error) {
	plain, err := json.Marshal(f)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, plain, []byte(cookieName))), nil
}

var errBadCookie = errors.New("flow cookie missing or not ours")

func (s *sealer) open(v string) (flow, error) {
	var f flow
	if v == "" || len(v) > maxCookieLen {
		return f, errBadCookie
	}
	raw, err := base64.RawURLEncoding.DecodeString(v)
	if err != nil || len(raw) < s.aead.NonceSize() {
		return f, errBadCookie
	}
	n := s.aead.NonceSize()
	plain, err := s.aead.Open(nil, raw[:n], raw[n:], []byte(cookieName))
	if err != nil {
		return f, errBadCookie
	}
	if err := json.Unmarshal(plain, &f); err != nil {
		return f, errBadCookie
	}
	return f, nil
}

// randomToken is 32 bytes from crypto/rand, base64url.
func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails (crypto/rand panics instead)
	return base64.RawURLEncoding.EncodeToString(b)
}
