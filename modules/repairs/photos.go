package repairs

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
)

// Bounds of an upload: at most maxUploadPhotos photos per form, the whole
// form at most maxUpload bytes (each file also within
// modules.documents.maxsize).
const (
	maxUploadPhotos = 10
	maxUpload       = 25 << 20
)

// Upload is what a tenant or a provider sent: files in the document
// storage whose rows are not made yet. Discard them when the upload is
// refused.
type Upload struct {
	Photos  []*documents.Blob
	Invoice *documents.Blob
}

// errNotImage is the answer to a photo whose bytes are not an image,
// whatever its name or the type the client gave.
func errNotImage(part string) error {
	return fault.New(fault.KindUnsupported, "not_an_image",
		part+": the file's content is not an image (PNG, JPEG or WebP).")
}

// PutFile stores one file of an upload as the documents module stores an
// upload (its bytes sniffed: 415 for a type documents refuse, 413 above
// modules.documents.maxsize); a photo must be an image (415 not_an_image
// otherwise), an invoice a PDF or an image.
func (s *Service) PutFile(ctx context.Context, part, name string, r io.Reader) (*documents.Blob, error) {
	b, err := s.files.Put(ctx, name, r)
	if err != nil {
		return nil, err
	}
	image := strings.HasPrefix(b.ContentType, "image/")
	if !image && (part != "invoice" || b.ContentType != "application/pdf") {
		s.files.Discard(b)
		if part == "invoice" {
			return nil, fault.New(fault.KindUnsupported, "unsupported_type", "invoice: the file's content is neither a PDF nor an image.")
		}
		return nil, errNotImage(part)
	}
	return b, nil
}

// Discard removes the files of an upload that did not become documents.
func (s *Service) Discard(u *Upload) {
	if u == nil {
		return
	}
	for _, b := range u.Photos {
		s.files.Discard(b)
	}
	s.files.Discard(u.Invoice)
}

// insertPhotos makes the photos of u documents of r's property (category
// photo, of r's contract), recorded as uploaded by by, and returns their
// ids.
func (s *Service) insertPhotos(ctx context.Context, tx bun.Tx, r *Request, by int64, blobs []*documents.Blob) ([]string, error) {
	ids := make([]string, 0, len(blobs))
	for _, b := range blobs {
		f, err := s.files.Insert(ctx, tx, documents.NewFile{WorkspaceID: r.WorkspaceID, PropertyID: r.PropertyID,
			ContractID: r.ContractID, Title: r.Title, Category: "photo", UploadedBy: by}, b)
		if err != nil {
			return nil, err
		}
		ids = append(ids, f.ID.String())
	}
	return ids, nil
}

// AddPhotos adds the tenant's photos to c's request with the raw id while
// it is open (not done, closed or rejected), at most 20 in all; the files
// are discarded on any refusal.
func (s *Service) AddPhotos(ctx context.Context, userID int64, c *contracts.Contract, rawID string, u *Upload) (r *Request, o *WorkOrder, err error) {
	defer func() {
		if err != nil {
			s.Discard(u)
		}
	}()
	if len(u.Photos) == 0 {
		return nil, nil, fault.Validation("photos: at least one image is required")
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		var err error
		r, err = s.find(ctx, tx, rawID, func(r *Request) bool { return r.ContractID != nil && *r.ContractID == c.ID })
		if err != nil {
			return err
		}
		if !slices.Contains(openStatuses, r.Status) {
			return fault.Conflict("invalid_transition", fmt.Sprintf("Photos can be added only to an open request; this one is %s.", r.Status))
		}
		var photos []string
		_ = json.Unmarshal([]byte(r.Photos), &photos)
		if len(photos)+len(u.Photos) > maxPhotos {
			return fault.Validation(fmt.Sprintf("photos: a request holds at most %d photos; it has %d", maxPhotos, len(photos)))
		}
		ids, err := s.insertPhotos(ctx, tx, r, userID, u.Photos)
		if err != nil {
			return err
		}
		before := toJSON(r, nil, true)
		b, _ := json.Marshal(append(photos, ids...))
		r.Photos, r.UpdatedAt = string(b), s.now()
		if err := s.store.setPhotos(ctx, tx, r); err != nil {
			return err
		}
		if o, err = s.latest(ctx, tx, r.ID); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "repair_request", RecordID: r.ID.String(),
			WorkspaceID: r.WorkspaceID, Changes: activity.Diff(before, toJSON(r, nil, true))})
	})
	if err != nil {
		return nil, nil, err
	}
	return r, o, nil
}

// ProviderFiles adds the provider's photos of the job and the invoice file
// to the order of token while it is accepted and not done (the invoice
// then becomes the bill's voucher on done); a second invoice replaces the
// first. Photos at most 20 in all; the files are discarded on any
// refusal.
func (s *Service) ProviderFiles(ctx context.Context, token string, u *Upload) (view *ProviderView, err error) {
	defer func() {
		if err != nil {
			s.Discard(u)
		}
	}()
	if len(u.Photos) == 0 && u.Invoice == nil {
		return nil, fault.Validation("photos: send photos, an invoice, or both")
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		o, r, err := s.byToken(ctx, tx, token)
		if err != nil {
			return err
		}
		if o.Status != OrderAccepted {
			return fault.Conflict("invalid_transition", "Files can be sent only on an accepted work order that is not done yet.")
		}
		var photos []string
		_ = json.Unmarshal([]byte(o.DonePhotos), &photos)
		if len(photos)+len(u.Photos) > maxPhotos {
			return fault.Validation(fmt.Sprintf("photos: a work order holds at most %d photos; it has %d", maxPhotos, len(photos)))
		}
		ids, err := s.insertPhotos(ctx, tx, r, o.CreatedBy, u.Photos)
		if err != nil {
			return err
		}
		b, _ := json.Marshal(append(photos, ids...))
		o.DonePhotos = string(b)
		if u.Invoice != nil {
			f, err := s.files.Insert(ctx, tx, documents.NewFile{WorkspaceID: r.WorkspaceID, PropertyID: r.PropertyID,
				Title: r.Title, Category: "invoice", UploadedBy: o.CreatedBy}, u.Invoice)
			if err != nil {
				return err
			}
			id := f.ID
			o.InvoiceDocumentID = &id
		}
		o.UpdatedAt = s.now()
		if ok, err := s.store.moveOrder(ctx, tx, o, OrderAccepted, "done_photos", "invoice_document_id"); err != nil || !ok {
			if err == nil {
				err = errTransition("work order", "no longer accepted", OrderAccepted)
			}
			return err
		}
		if err := activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "repair_work_order",
			RecordID: o.ID.String(), WorkspaceID: o.WorkspaceID,
			Changes: map[string]activity.Change{"files": {nil, fmt.Sprintf("%d photos, invoice %v", len(ids), u.Invoice != nil)}}}); err != nil {
			return err
		}
		view, err = s.view(ctx, tx, o, r)
		return err
	})
	if err != nil {
		return nil, err
	}
	return view, nil
}
