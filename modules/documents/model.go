package documents

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// The categories of a document.
var categories = []string{"contract", "invoice", "receipt", "photo", "certificate", "other"}

// Document is a row of documents; its bytes are the blob under ID.String()
// in the storage.
type Document struct {
	bun.BaseModel `bun:"table:documents"`

	ID         uuid.UUID  `bun:"id,pk"`
	PropertyID uuid.UUID  `bun:"property_id,notnull"`
	ContractID *uuid.UUID `bun:"contract_id"`
	Title      string     `bun:"title,notnull"`
	Category   string     `bun:"category,notnull"`
	Filename   string     `bun:"filename,notnull"`
	// ContentType is the sniffed type, served on download.
	ContentType string    `bun:"content_type,notnull"`
	Size        int64     `bun:"size,notnull"`
	SHA256      string    `bun:"sha256,notnull"`
	UploadedBy  int64     `bun:"uploaded_by,notnull"`
	CreatedAt   time.Time `bun:"created_at,notnull"`
	UpdatedAt   time.Time `bun:"updated_at,notnull"`
	// SharedWithTenant shows the document in the tenant portal (to whom:
	// visibleTo).
	SharedWithTenant bool `bun:"shared_with_tenant,notnull"`
}

// Key is the document's blob key in the storage.
func (d *Document) Key() string { return d.ID.String() }

// ServedFilename is the name the document is listed and downloaded under:
// Filename, except for rows stored before the extension had to agree with
// the content type, which get the agreeing one here.
func (d *Document) ServedFilename() string { return filename(d.Filename, d.ContentType) }
