#!/usr/bin/env bash
# stripe-mock: the Stripe API the billing tests run against (they start it
# on a free port themselves; in CI they fail without it).
set -euo pipefail
export PATH="$PATH:$(go env GOPATH)/bin"
command -v stripe-mock >/dev/null 2>&1 || go install github.com/stripe/stripe-mock@v0.203.0
command -v stripe-mock
