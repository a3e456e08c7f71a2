package contracts

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"
)

// ActivationListener is told of each activation after its transaction
// committed (modules/printforms stores the lease as printed then). It runs
// after the commit because the PDF is drawn from what the activation
// wrote; an error does not undo the activation (the print form stores
// the PDF on its first request instead), it is only logged.
type ActivationListener interface {
	ContractActivated(ctx context.Context, c *Contract) error
}

// ProvideActivationListener registers a constructor of an
// ActivationListener with fx.
func ProvideActivationListener(constructor any) fx.Option {
	return fx.Provide(fx.Annotate(constructor, fx.As(new(ActivationListener)), fx.ResultTags(`group:"activation_listeners"`)))
}

// TerminationListener is told of each termination inside the transaction
// that records it (modules/notices writes the tenant a confirmation), so
// both commit together or not at all. c is the contract as terminated.
type TerminationListener interface {
	ContractTerminated(ctx context.Context, tx bun.Tx, c *Contract) error
}

// ProvideTerminationListener registers a constructor of a
// TerminationListener with fx.
func ProvideTerminationListener(constructor any) fx.Option {
	return fx.Provide(fx.Annotate(constructor, fx.As(new(TerminationListener)), fx.ResultTags(`group:"termination_listeners"`)))
}

// SetSignedDocument records, in tx, the stored PDF of c's lease, only
// when none is recorded yet and c left draft: false when another request
// recorded one first (the caller then drops its own copy). updated_at
// stays: the contract did not change, its print was kept.
func (s *Service) SetSignedDocument(ctx context.Context, tx bun.Tx, c *Contract, documentID uuid.UUID, sha256 string, at time.Time) (bool, error) {
	at = at.UTC().Truncate(time.Microsecond)
	recorded, err := s.store.setSigned(ctx, tx, c.ID, documentID, sha256, at)
	if err != nil || !recorded {
		return false, err
	}
	id := documentID
	c.SignedDocumentID, c.SignedSHA256, c.SignedAt = &id, sha256, at
	return true, nil
}
