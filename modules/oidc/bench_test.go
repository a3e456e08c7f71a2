package oidc_test

import (
	"net/http"
	"testing"
)

// BenchmarkSignIn is one whole sign-in per operation, over real sockets:
// /start, the provider's authorize, login and callback redirects, propman's
// callback (token request to the provider, ID token checks, the account,
// the one-time code) and the exchange. BenchmarkStart is /start alone, the
// part of the dance that is propman's without the provider, as a ceiling
// of what one round trip to the app costs in the same run.
func BenchmarkSignIn(b *testing.B) {
	e := start(b)
	for b.Loop() {
		if _, status := e.exchange(e.browser().signIn().Get("code")); status != http.StatusOK {
			b.Fatal(status)
		}
	}
}

func BenchmarkStart(b *testing.B) {
	e := start(b)
	br := e.browser()
	for b.Loop() {
		br.start()
	}
}
