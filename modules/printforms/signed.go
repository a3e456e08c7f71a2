package printforms

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/platform/database"
)

// The signed contract never changes (LANDLORD-CORE, "Letters and documents
// that hold up"): the lease is printed once when the contract is
// activated, in the contract's locale, and kept as a document of the
// property with its SHA-256. Its print form serves those bytes from then
// on; indexations, rent changes and terminations are letters of their own.

// errFrozenBefore rolls back a second copy of an original another request
// (or instance) stored first.
var errFrozenBefore = errors.New("printforms: the contract's original was stored before")

// signedJob is the stored original of c (stored now when it is not yet:
// a contract activated before originals were kept, or whose activation
// could not store it).
func (s *Service) signedJob(ctx context.Context, c *contracts.Contract, owner *accounts.User) (*Job, error) {
	if c.SignedDocumentID == nil {
		if err := s.freeze(ctx, c, owner); err != nil {
			return nil, err
		}
	}
	file := documents.File{ID: *c.SignedDocumentID, PropertyID: c.PropertyID}
	sum := c.SignedSHA256
	return &Job{
		// The digest of the bytes is their version: it never changes.
		Key:      sum,
		SHA256:   sum,
		Filename: "contract-" + c.Number + ".pdf",
		Render: func() ([]byte, error) {
			r, err := s.files.Open(ctx, file)
			if err != nil {
				return nil, err
			}
			defer r.Close()
			b, err := io.ReadAll(r)
			if err != nil {
				return nil, fmt.Errorf("read the contract's original: %w", err)
			}
			if got := sha256.Sum256(b); hex.EncodeToString(got[:]) != sum {
				return nil, fmt.Errorf("printforms: the stored original of contract %s does not match its SHA-256", c.ID)
			}
			return b, nil
		},
	}, nil
}

// freeze prints c's lease in its own locale and stores it as a document of
// the property, recording it on the contract, once: concurrent calls of
// this instance wait for one, and a copy stored meanwhile by another
// instance wins (contracts.SetSignedDocument only sets an empty record),
// the loser's blob dropped. c gets the record's fields.
func (s *Service) freeze(ctx context.Context, c *contracts.Contract, owner *accounts.User) error {
	// c.ID.String() is a new string, not a request's bytes.
	v, err, _ := s.freezing.Do(c.ID.String(), func() (any, error) {
		cur, err := s.contracts.ByID(ctx, s.db, c.ID)
		if err != nil {
			return nil, err
		}
		if cur.SignedDocumentID != nil || cur.Status == contracts.Draft {
			return cur, nil
		}
		locale, _ := s.Locale("", cur.Locale, owner.Locale)
		job, err := s.contractJob(ctx, cur, owner, locale, "")
		if err != nil {
			return nil, err
		}
		data, err := job.Render()
		if err != nil {
			return nil, err
		}
		// The storage keeps only a name's last path segment: "2026/001"
		// would be stored as "001.pdf".
		blob, err := s.files.Put(ctx, utf8Filename(job.Filename), bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		ownerLocale, _ := s.Locale("", owner.Locale)
		l, _ := s.texts.forLocale(ownerLocale)
		title := strings.NewReplacer("{number}", cur.Number).Replace(l.get(keySignedTitle))
		err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
			f, err := s.files.Insert(ctx, tx, documents.NewFile{WorkspaceID: cur.WorkspaceID, PropertyID: cur.PropertyID,
				ContractID: &cur.ID, Title: title, Category: "contract", UploadedBy: cur.OwnerID}, blob)
			if err != nil {
				return err
			}
			won, err := s.contracts.SetSignedDocument(ctx, tx, cur, f.ID, blob.SHA256, s.clock.Now())
			if err != nil {
				return err
			}
			if !won {
				return errFrozenBefore
			}
			return nil
		})
		if err != nil {
			s.files.Discard(blob)
			if errors.Is(err, errFrozenBefore) {
				return s.contracts.ByID(ctx, s.db, c.ID)
			}
			return nil, err
		}
		return cur, nil
	})
	if err != nil {
		return err
	}
	cur := v.(*contracts.Contract)
	if cur.SignedDocumentID == nil {
		return fmt.Errorf("printforms: contract %s has no original to serve", c.ID)
	}
	id := *cur.SignedDocumentID
	c.SignedDocumentID, c.SignedSHA256, c.SignedAt = &id, cur.SignedSHA256, cur.SignedAt
	return nil
}

// convenienceNote is the line that marks a form in locale as a
// translation of the original in the locale original.
func (s *Service) convenienceNote(locale, original string) string {
	l, _ := s.texts.forLocale(locale)
	name := original
	if lang, ok := s.dir.Language(original); ok && lang.NativeName != "" {
		name = lang.NativeName
	}
	return strings.NewReplacer("{language}", name).Replace(l.get(keyConvenience))
}

// activationListener stores the original of each contract as it is
// activated (contracts.ActivationListener). Its service is set once fx
// has built it: the service needs the contracts service, which needs its
// listeners first.
type activationListener struct{ svc *Service }

func newActivationListener() *activationListener { return &activationListener{} }

func bindActivationListener(l *activationListener, svc *Service) { l.svc = svc }

func asActivationListener(l *activationListener) contracts.ActivationListener { return l }

func (l *activationListener) ContractActivated(ctx context.Context, c *contracts.Contract) error {
	s := l.svc
	if s == nil || s.files == nil {
		return nil
	}
	owner, err := s.accounts.User(ctx, c.OwnerID)
	if err != nil {
		return err
	}
	return s.freeze(ctx, c, owner)
}
