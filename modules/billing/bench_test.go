package billing_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/propman/propman/platform/testkit"
)

// BenchmarkStripeWebhook is one signed event through the whole app: the
// signature checked, the event's row written in its transaction (each
// iteration a new id), the answer sent. Its ceiling, in the same run, is
// the same request with a signature that does not match: everything but
// the database.
func BenchmarkStripeWebhook(b *testing.B) {
	app := testkit.Start(b, testkit.WithConfig("modules.billing.webhooksecret", secret))
	b.Run("applied", func(b *testing.B) { benchWebhook(b, app, secret, http.StatusOK) })
	b.Run("ceiling_refused", func(b *testing.B) { benchWebhook(b, app, "whsec_other", http.StatusBadRequest) })
}

func benchWebhook(b *testing.B, app *testkit.App, key string, want int) {
	now := time.Now()
	bodies := make([][]byte, b.N)
	headers := make([]string, b.N)
	for i := range b.N {
		body, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("evt_bench_%s_%d", key, i), "object": "event", "type": "payment_intent.succeeded",
			"created": now.Unix(), "data": map[string]any{"object": map[string]any{"id": "pi_b", "metadata": map[string]any{}}}})
		bodies[i] = body
		headers[i] = webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: key, Timestamp: now}).Header
	}
	b.ResetTimer()
	for i := range b.N {
		res := app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/billing/webhooks/stripe", Body: bodies[i],
			Headers: map[string]string{"Stripe-Signature": headers[i], "Content-Type": "application/json"}})
		if res.Status != want {
			b.Fatalf("status %d: %s", res.Status, res.Body)
		}
	}
}
