package documents

import (
	"context"
	"io"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/activity"
)

// Files is what other modules use of documents (the messages module: a
// message's attachments are documents of its property): find documents,
// read their bytes, and store a file as a new document inside the caller's
// transaction, with the limits and content sniffing of an upload.
type Files struct{ svc *Service }

func newFiles(svc *Service) *Files { return &Files{svc: svc} }

// File is a document as another module sees it.
type File struct {
	ID          uuid.UUID
	PropertyID  uuid.UUID
	ContractID  *uuid.UUID
	Filename    string
	ContentType string
	Size        int64
}

func fileOf(d *Document) File {
	return File{ID: d.ID, PropertyID: d.PropertyID, ContractID: d.ContractID, Filename: d.ServedFilename(),
		ContentType: d.ContentType, Size: d.Size}
}

// OfProperty returns, through db, the documents of the property among
// ids, in the order of ids; those that are not the property's (or do not
// exist) are left out.
func (f *Files) OfProperty(ctx context.Context, db bun.IDB, propertyID uuid.UUID, ids []uuid.UUID) ([]File, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	list, err := documentsAmong(ctx, db, propertyID, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[uuid.UUID]*Document, len(list))
	for i := range list {
		byID[list[i].ID] = &list[i]
	}
	out := make([]File, 0, len(list))
	for _, id := range ids {
		if d, ok := byID[id]; ok {
			out = append(out, fileOf(d))
		}
	}
	return out, nil
}

// Open returns the bytes of a document; the caller closes them.
func (f *Files) Open(ctx context.Context, file File) (io.ReadCloser, error) {
	return f.svc.Open(ctx, &Document{ID: file.ID}, 0, -1)
}

// MaxSize is the largest file a document may hold (modules.documents.maxsize).
func (f *Files) MaxSize() int64 { return f.svc.cfg.MaxSize }

// Put writes a file to the storage as an upload does (PutFile: sniffed,
// 415 unless allowed, 413 above the limit); the caller then calls Insert
// in its transaction, and Discard when that transaction does not commit.
func (f *Files) Put(ctx context.Context, name string, r io.Reader) (*Blob, error) {
	return f.svc.PutFile(ctx, name, r)
}

// Discard removes a blob whose row was not made (or was rolled back).
func (f *Files) Discard(b *Blob) { f.svc.Discard(b) }

// NewFile describes the row Insert makes for a blob.
type NewFile struct {
	WorkspaceID int64
	PropertyID  uuid.UUID
	ContractID  *uuid.UUID
	Title       string
	// Category is one of the document categories ("other" when empty).
	Category string
	// UploadedBy is the user the document is recorded as uploaded by.
	UploadedBy int64
}

// Insert makes the row of blob in tx, with its activity entry.
func (f *Files) Insert(ctx context.Context, tx bun.Tx, in NewFile, b *Blob) (File, error) {
	if in.Category == "" {
		in.Category = "other"
	}
	now := f.svc.now()
	d := &Document{
		ID: b.ID, PropertyID: in.PropertyID, ContractID: in.ContractID, Title: in.Title, Category: in.Category,
		Filename: b.Filename, ContentType: b.ContentType, Size: b.Size, SHA256: b.SHA256,
		UploadedBy: in.UploadedBy, CreatedAt: now, UpdatedAt: now,
	}
	if err := f.svc.store.Insert(ctx, tx, d); err != nil {
		return File{}, err
	}
	if err := record(ctx, tx, activity.Created, in.WorkspaceID, d, nil, toJSON(d)); err != nil {
		return File{}, err
	}
	return fileOf(d), nil
}
