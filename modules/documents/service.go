package documents

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
)

// Service holds the rules of documents: a blob is written first under its
// final key, then the row; a failure of either leaves neither. A delete
// removes the row, then the blob; the sweep removes blobs without rows.
type Service struct {
	cfg     Config
	store   *Store
	storage Storage
	clock   clock.Clock
	log     *slog.Logger

	// background blob removals (after a property's deletion commits)
	bg     sync.WaitGroup
	stopCh chan struct{}
}

// ServiceParams are the service's dependencies as fx provides them.
type ServiceParams struct {
	fx.In

	Config  Config
	Store   *Store
	Storage Storage
	Clock   clock.Clock
	Log     *slog.Logger
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{cfg: p.Config, store: p.Store, storage: p.Storage, clock: p.Clock, log: p.Log,
		stopCh: make(chan struct{})}
}

// Input carries the fields of an upload, already checked.
type Input struct {
	Title      string
	Category   string
	ContractID *uuid.UUID
	// SharedWithTenant shows the document in the tenant portal.
	SharedWithTenant bool
}

// Blob is a file written to the storage whose row does not exist yet.
type Blob struct {
	ID          uuid.UUID
	Filename    string
	ContentType string
	Size        int64
	SHA256      string
}

// Errors of an upload the client sees.
var (
	errUnsupported = fault.New(fault.KindUnsupported, "unsupported_type",
		"The file's content is not an allowed type: PDF, PNG, JPEG, WebP, plain text, DOCX, XLSX or ODT.")
	errEmptyFile   = fault.Validation("file: must not be empty")
	errUnreadable  = fault.New(fault.KindInvalid, "validation_failed", "The request body could not be read to its end.")
	errMalformed   = fault.New(fault.KindInvalid, "validation_failed", "The request body is not a well-formed multipart/form-data form.")
	errStorageDown = fault.Unavailable("The document storage is unavailable; try again shortly.")
)

// TooLarge is the 413 of an upload over the size limit.
func (s *Service) TooLarge() *fault.Error { return s.tooLarge() }

func (s *Service) tooLarge() *fault.Error {
	return fault.New(fault.KindTooLarge, "payload_too_large",
		"The file is larger than the limit of "+strconv.FormatInt(s.cfg.MaxSize, 10)+" bytes.")
}

// errFileTooLarge is the error of the size-counting reader.
var errFileTooLarge = errors.New("file larger than modules.documents.maxsize")

// countingReader counts, hashes and limits what passes, and records the
// error of the reader under it, so a failed Put tells the client's fault
// (body cut, too large) from the storage's.
type countingReader struct {
	r    io.Reader
	h    hash.Hash
	n    int64
	max  int64
	rerr error
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.max {
		c.rerr = errFileTooLarge
		return 0, errFileTooLarge
	}
	c.h.Write(p[:n])
	if err != nil && err != io.EOF { //nolint:errorlint // io.EOF itself is the end; a wrapped one is not
		c.rerr = err
		// Some storage clients take io.ErrUnexpectedEOF for the end of the
		// data; a cut body must fail the Put.
		return n, errBodyCut
	}
	return n, err
}

// errBodyCut is what the storage sees when the request body fails.
var errBodyCut = errors.New("documents: the request body failed before the file's end")

// PutFile streams a file to the storage: its first bytes decide its type
// (415 unless allowed) and the extension of its stored name, then it is
// counted (413 above modules.documents.maxsize) and hashed on the way. On any error nothing is left in the storage. The
// caller creates the row with Create or calls Discard.
func (s *Service) PutFile(ctx context.Context, name string, r io.Reader) (*Blob, error) {
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, s.readError(err)
	}
	head = head[:n]
	if n == 0 {
		return nil, errEmptyFile
	}
	if int64(n) > s.cfg.MaxSize {
		return nil, s.tooLarge()
	}
	ctype, ok := sniff(head)
	if !ok {
		return nil, errUnsupported
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("document id: %w", err)
	}
	cr := &countingReader{r: io.MultiReader(bytes.NewReader(head), r), h: sha256.New(), max: s.cfg.MaxSize}
	err = s.storage.Put(ctx, id.String(), cr, ctype)
	if err == nil && cr.rerr != nil {
		// Belt and braces: the storage kept what it got of a cut body.
		err = errBodyCut
	}
	if err != nil {
		// The storage leaves nothing on a failed Put; delete anyway, in case
		// it got far enough to keep something.
		s.removeBlob(id.String())
		if cr.rerr != nil {
			return nil, s.readError(cr.rerr)
		}
		if ctx.Err() != nil {
			return nil, errUnreadable
		}
		s.log.Error("documents: storage failed during an upload", "storage", s.storage.String(), "error", err)
		return nil, errStorageDown
	}
	return &Blob{ID: id, Filename: filename(name, ctype), ContentType: ctype, Size: cr.n,
		SHA256: hex.EncodeToString(cr.h.Sum(nil))}, nil
}

// ReadError is the answer to an upload that could not be read: the 413
// of a body over the limit, a 400 for a broken form, else err.
func (s *Service) ReadError(err error) error { return s.readError(err) }

func (s *Service) readError(err error) error {
	var netErr net.Error
	switch {
	case errors.Is(err, errFileTooLarge) || errors.Is(err, httpserver.ErrBodyTooLarge):
		return s.tooLarge()
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.As(err, &netErr):
		return errUnreadable
	}
	return errMalformed
}

// Discard removes a blob whose row will not be made.
func (s *Service) Discard(b *Blob) {
	if b != nil {
		s.removeBlob(b.ID.String())
	}
}

// removeBlob deletes a blob with a context of its own: the request's may
// be over (the client left). A failure is logged; the sweep retries.
func (s *Service) removeBlob(key string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.storage.Delete(ctx, key); err != nil {
		s.log.Warn("documents: a blob could not be removed; the sweep will", "key", key, "error", err)
	}
}

// Create inserts the row of blob under prop. When the insert fails the
// caller still owns the blob (and discards it).
func (s *Service) Create(ctx context.Context, p auth.Principal, prop *properties.Property, in Input, b *Blob) (*Document, error) {
	if in.ContractID != nil {
		ok, err := contracts.OfProperty(ctx, s.store.db, prop.ID, *in.ContractID)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fault.Validation("contract_id: must be a contract of this property")
		}
	}
	now := s.now()
	d := &Document{
		ID: b.ID, PropertyID: prop.ID, ContractID: in.ContractID, Title: in.Title, Category: in.Category,
		Filename: b.Filename, ContentType: b.ContentType, Size: b.Size, SHA256: b.SHA256,
		UploadedBy: p.UserID, SharedWithTenant: in.SharedWithTenant, CreatedAt: now, UpdatedAt: now,
	}
	err := database.RunInTx(ctx, s.store.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.Insert(ctx, tx, d); err != nil {
			return err
		}
		return record(ctx, tx, activity.Created, prop.WorkspaceID, d, nil, toJSON(d))
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// List returns a page of the property's documents.
func (s *Service) List(ctx context.Context, prop *properties.Property, q listing.Query) ([]Document, listing.Result, error) {
	return s.store.List(ctx, prop.ID, q)
}

// Get returns the document with the raw id under prop: 404 when the id is
// not a UUID or the property has no such document.
func (s *Service) Get(ctx context.Context, prop *properties.Property, rawID string) (*Document, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, fault.NotFound("Document not found.")
	}
	d, err := s.store.ByID(ctx, prop.ID, id)
	if errors.Is(err, errNotFound) {
		return nil, fault.NotFound("Document not found.")
	}
	return d, err
}

// Update sets the title, category and sharing of d.
func (s *Service) Update(ctx context.Context, prop *properties.Property, d *Document, title, category string, shared bool) (*Document, error) {
	if d.Title == title && d.Category == category && d.SharedWithTenant == shared {
		return d, nil
	}
	before := toJSON(d)
	d.Title, d.Category, d.SharedWithTenant, d.UpdatedAt = title, category, shared, s.now()
	err := database.RunInTx(ctx, s.store.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.Update(ctx, tx, d); err != nil {
			return err
		}
		return record(ctx, tx, activity.Updated, prop.WorkspaceID, d, before, toJSON(d))
	})
	if err != nil {
		if errors.Is(err, errNotFound) {
			return nil, fault.NotFound("Document not found.")
		}
		return nil, err
	}
	return d, nil
}

// Delete removes the row, then the blob. Once the row is gone the document
// is gone for every client; a blob that cannot be removed now is left to
// the sweep.
func (s *Service) Delete(ctx context.Context, prop *properties.Property, d *Document) error {
	err := database.RunInTx(ctx, s.store.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.Delete(ctx, tx, d); err != nil {
			return err
		}
		return record(ctx, tx, activity.Deleted, prop.WorkspaceID, d, toJSON(d), nil)
	})
	if err != nil {
		if errors.Is(err, errNotFound) {
			return fault.NotFound("Document not found.")
		}
		return err
	}
	s.removeBlob(d.Key())
	return nil
}

// record logs a write of d, a document of the workspace ws, through tx:
// its fields as clients see them, never its bytes.
func record(ctx context.Context, tx bun.Tx, action string, ws int64, d *Document, before, after any) error {
	return activity.Record(ctx, tx, activity.Entry{
		Action: action, RecordType: "document", RecordID: d.ID.String(), WorkspaceID: ws,
		Changes: activity.Diff(before, after),
	})
}

// Open returns length bytes of d's content from offset (length -1: to the end).
func (s *Service) Open(ctx context.Context, d *Document, offset, length int64) (io.ReadCloser, error) {
	r, err := s.storage.Get(ctx, d.Key(), offset, length)
	if errors.Is(err, ErrBlobNotFound) {
		// The row outlived its blob only if the blob was removed by hand
		// or a delete is in progress.
		s.log.Warn("documents: a document has no blob", "id", d.ID, "storage", s.storage.String())
		return nil, fault.NotFound("Document not found.")
	}
	if err != nil {
		s.log.Error("documents: storage failed during a download", "storage", s.storage.String(), "error", err)
		return nil, errStorageDown
	}
	return r, nil
}

// SweepResult counts what a sweep did.
type SweepResult struct {
	Blobs     int // blobs looked at
	Removed   int // blobs without a row, removed
	Abandoned int // leftovers of unfinished uploads, removed
}

// Sweep removes the blobs that have no row and are older than before (a
// younger one may belong to an upload whose row is about to be inserted).
// A blob's age is the time in its UUID v7 key; keys that are not UUIDs are
// not propman's and are left alone.
func (s *Service) Sweep(ctx context.Context, before time.Time) (SweepResult, error) {
	var res SweepResult
	var batch []uuid.UUID
	flush := func() error {
		exist, err := s.store.Existing(ctx, batch)
		if err != nil {
			return err
		}
		for _, id := range batch {
			if exist[id] {
				continue
			}
			if err := s.storage.Delete(ctx, id.String()); err != nil {
				return err
			}
			res.Removed++
		}
		batch = batch[:0]
		return nil
	}
	var keys []uuid.UUID
	err := s.storage.Walk(ctx, func(key string) error {
		res.Blobs++
		id, err := uuid.Parse(key)
		if err != nil || id.Version() != 7 || id.String() != key {
			return nil
		}
		sec, nsec := id.Time().UnixTime()
		if !time.Unix(sec, nsec).Before(before) {
			return nil
		}
		keys = append(keys, id)
		return nil
	})
	if err != nil {
		return res, err
	}
	// Rows are checked after the listing, not during it: an S3 listing may
	// be paged and deleting while paging is not needed.
	for _, id := range keys {
		batch = append(batch, id)
		if len(batch) == 500 {
			if err := flush(); err != nil {
				return res, err
			}
		}
	}
	if err := flush(); err != nil {
		return res, err
	}
	n, err := s.storage.Abandon(ctx, before)
	res.Abandoned = n
	return res, err
}

// now is the clock's time at the precision both databases keep.
func (s *Service) now() time.Time {
	return s.clock.Now().UTC().Truncate(time.Microsecond)
}

// propertyCleanup deletes a property's documents with it: the rows inside
// the property's transaction, the blobs once it has committed.
type propertyCleanup struct{ svc *Service }

func newPropertyCleanup(svc *Service) propertyCleanup { return propertyCleanup{svc: svc} }

// PropertyDeleting deletes the rows and schedules the blobs' removal.
func (c propertyCleanup) PropertyDeleting(ctx context.Context, tx bun.Tx, propertyID uuid.UUID) error {
	ids, err := deleteOfProperty(ctx, tx, propertyID)
	if err != nil || len(ids) == 0 {
		return err
	}
	c.svc.removeAfterCommit(ids)
	return nil
}

// removeAfterCommit removes the blobs of ids once their rows are gone: the
// transaction that deletes them has committed. If it rolls back (another
// module refused the deletion) the rows stay and so do the blobs. After
// the last try the sweep takes over.
func (s *Service) removeAfterCommit(ids []uuid.UUID) {
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		for _, wait := range []time.Duration{50 * time.Millisecond, 500 * time.Millisecond, 5 * time.Second, 30 * time.Second} {
			select {
			case <-s.stopCh:
				return
			case <-time.After(wait):
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			exist, err := s.store.Existing(ctx, ids)
			cancel()
			if err != nil {
				continue
			}
			var left []uuid.UUID
			for _, id := range ids {
				if exist[id] {
					left = append(left, id)
					continue
				}
				s.removeBlob(id.String())
			}
			if ids = left; len(ids) == 0 {
				return
			}
		}
	}()
}

// stop ends the background removals.
func (s *Service) stop() {
	close(s.stopCh)
	s.bg.Wait()
}
