package billing

import (
	"context"
	"encoding/json"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v85/webhook"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/httpserver"
)

// maxWebhook bounds a webhook's body (Stripe's events are a few KiB).
const maxWebhook = 256 << 10

// webhook applies one of Stripe's events: the signature (Stripe-Signature,
// the endpoint's secret, a timestamp within modules.billing.tolerance) is
// checked by stripe-go's verifier; the event id is stored in the
// transaction that applies it, so a replay is acknowledged and changes
// nothing; kinds the service does not use are acknowledged and ignored.
func (h *Handler) webhook(c *fiber.Ctx) error {
	secret := h.svc.cfg.WebhookSecret
	if secret == "" {
		// Nothing can be verified without the endpoint's secret.
		return fault.New(fault.KindInvalid, "invalid_signature", "Stripe webhooks are not configured on this service (modules.billing.webhooksecret).")
	}
	body := c.Body()
	if len(body) > maxWebhook {
		return fault.New(fault.KindTooLarge, "payload_too_large", "A webhook body is at most 256 KiB.")
	}
	ev, err := webhook.ConstructEventWithOptions(body, c.Get("Stripe-Signature"), secret,
		webhook.ConstructEventOptions{Tolerance: h.svc.cfg.Tolerance, IgnoreAPIVersionMismatch: true})
	if err != nil || ev.ID == "" {
		return fault.New(fault.KindInvalid, "invalid_signature", "The Stripe-Signature header does not match this body, or its timestamp is too old.")
	}
	var object json.RawMessage
	if ev.Data != nil {
		object = ev.Data.Raw
	}
	applied, err := h.svc.ApplyEvent(httpserver.Context(c), ev.ID, string(ev.Type), ev.Created, object)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"received": true, "applied": applied})
}

// intentObject is what the service reads of a payment intent event.
type intentObject struct {
	ID       string            `json:"id"`
	Metadata map[string]string `json:"metadata"`
}

// ApplyEvent applies a verified Stripe event once: false when its id was
// applied before (or its type is not one the service uses). The event's
// row and its effect are one transaction.
func (s *Service) ApplyEvent(ctx context.Context, id, typ string, created int64, object json.RawMessage) (bool, error) {
	applied := false
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		fresh, err := s.store.recordEvent(ctx, tx, &event{EventID: id, Type: typ, ReceivedAt: s.now()})
		if err != nil || !fresh {
			return err
		}
		switch typ {
		case "payment_intent.succeeded", "payment_intent.payment_failed":
		default:
			return nil
		}
		var pi intentObject
		if err := json.Unmarshal(object, &pi); err != nil {
			return nil // not an intent this service made; acknowledged
		}
		invoiceID, err := uuid.Parse(pi.Metadata["invoice_id"])
		if err != nil {
			return nil
		}
		exists, err := s.store.invoiceExists(ctx, tx, invoiceID)
		if err != nil || !exists {
			return err
		}
		applied = true
		if typ == "payment_intent.succeeded" {
			return s.markPaid(ctx, tx, invoiceID, pi.ID, created)
		}
		return s.markFailed(ctx, tx, invoiceID, pi.ID, created)
	})
	return applied, err
}
