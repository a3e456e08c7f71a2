package billing

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/stripe/stripe-go/v85"
)

// payments is the service's side of Stripe (stripe-go): customers,
// payment methods and payment intents. A nil client (no stripekey) makes
// no call: invoices are issued and wait to be paid.
type payments struct {
	client *stripe.Client
}

func newPayments(cfg Config) *payments {
	if cfg.StripeKey == "" {
		return &payments{}
	}
	bc := &stripe.BackendConfig{
		HTTPClient:        &http.Client{Timeout: 20 * time.Second},
		MaxNetworkRetries: stripe.Int64(2),
		LeveledLogger:     &stripe.LeveledLogger{Level: stripe.LevelNull},
	}
	if cfg.StripeURL != "" {
		bc.URL = stripe.String(cfg.StripeURL)
	}
	return &payments{client: stripe.NewClient(cfg.StripeKey, stripe.WithBackends(stripe.NewBackendsWithConfig(bc)))}
}

// errNoStripe: payments are not configured on this instance.
var errNoStripe = errors.New("billing: Stripe is not configured (modules.billing.stripekey)")

// card is a payment method as the subscription keeps it.
type card struct {
	Customer, Method, Label string
}

// attach makes the workspace's Stripe customer when it has none, attaches
// the payment method to it and makes it the default for invoices.
func (p *payments) attach(ctx context.Context, workspaceID int64, customerID *string, email, methodID string) (card, error) {
	if p.client == nil {
		return card{}, errNoStripe
	}
	out := card{Method: methodID}
	if customerID != nil {
		out.Customer = *customerID
	} else {
		params := &stripe.CustomerCreateParams{Email: stripe.String(email)}
		params.AddMetadata("workspace_id", fmt.Sprint(workspaceID))
		params.SetIdempotencyKey(fmt.Sprintf("propman-customer-%d", workspaceID))
		c, err := p.client.V1Customers.Create(ctx, params)
		if err != nil {
			return card{}, err
		}
		out.Customer = c.ID
	}
	pm, err := p.client.V1PaymentMethods.Attach(ctx, methodID, &stripe.PaymentMethodAttachParams{Customer: stripe.String(out.Customer)})
	if err != nil {
		return card{}, err
	}
	if pm.ID != "" {
		out.Method = pm.ID
	}
	if pm.Card != nil {
		out.Label = fmt.Sprintf("%s •••• %s", pm.Card.Brand, pm.Card.Last4)
	}
	_, err = p.client.V1Customers.Update(ctx, out.Customer, &stripe.CustomerUpdateParams{
		InvoiceSettings: &stripe.CustomerUpdateInvoiceSettingsParams{DefaultPaymentMethod: stripe.String(out.Method)},
	})
	return out, err
}

// outcome of a charge: paid, declined (the card refused: the invoice is
// past due), or pending (Stripe's webhook will tell).
type outcome int

const (
	pending outcome = iota
	paid
	declined
)

// charge confirms a payment intent of inv's total off-session with the
// workspace's default method. The idempotency key is the invoice and its
// attempt, so a retried call never charges twice.
func (p *payments) charge(ctx context.Context, inv *Invoice, sub *Subscription) (string, outcome, error) {
	if p.client == nil {
		return "", pending, errNoStripe
	}
	if sub.CustomerID == nil || sub.PaymentMethodID == nil {
		return "", pending, errors.New("billing: no payment method")
	}
	params := &stripe.PaymentIntentCreateParams{
		Amount:        stripe.Int64(int64(inv.Total)),
		Currency:      stripe.String(lower(inv.Currency)),
		Customer:      sub.CustomerID,
		PaymentMethod: sub.PaymentMethodID,
		Confirm:       stripe.Bool(true),
		OffSession:    stripe.Bool(true),
		Description:   stripe.String("propman invoice " + inv.Number),
	}
	params.AddMetadata("invoice_id", inv.ID.String())
	params.AddMetadata("workspace_id", fmt.Sprint(inv.WorkspaceID))
	params.SetIdempotencyKey(fmt.Sprintf("propman-invoice-%s-%d", inv.ID, inv.Failures))
	pi, err := p.client.V1PaymentIntents.Create(ctx, params)
	var se *stripe.Error
	if errors.As(err, &se) && se.Type == stripe.ErrorTypeCard {
		id := ""
		if se.PaymentIntent != nil {
			id = se.PaymentIntent.ID
		}
		return id, declined, nil
	}
	if err != nil {
		return "", pending, err
	}
	switch pi.Status {
	case stripe.PaymentIntentStatusSucceeded:
		return pi.ID, paid, nil
	case stripe.PaymentIntentStatusCanceled, stripe.PaymentIntentStatusRequiresPaymentMethod:
		// requires_payment_method after a confirmation is a decline that
		// Stripe answered without an error.
		if pi.LastPaymentError != nil {
			return pi.ID, declined, nil
		}
	}
	return pi.ID, pending, nil
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
