package repairs

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/period"
)

// The states of a repair request.
const (
	Reported  = "reported"
	Triaged   = "triaged"
	Ordered   = "ordered"
	Scheduled = "scheduled"
	Done      = "done"
	Closed    = "closed"
	Rejected  = "rejected"
)

// Statuses are every state, in the order of a repair's life.
var Statuses = []string{Reported, Triaged, Ordered, Scheduled, Done, Closed, Rejected}

// openStatuses are the states in which a repair is still owed: the overdue
// list reads them. A scheduled repair is owed until the provider marks it
// done, so a visit booked after the deadline still shows as overdue.
var openStatuses = []string{Reported, Triaged, Ordered, Scheduled}

// Categories are what can be broken.
var Categories = []string{"plumbing", "heating", "electrical", "appliance", "windows_doors", "damp_mould", "pests", "other"}

// The urgencies and the time each allows from the report to the repair.
const (
	Emergency = "emergency"
	Urgent    = "urgent"
	Normal    = "normal"
)

// Urgencies are every urgency, most pressing first.
var Urgencies = []string{Emergency, Urgent, Normal}

// deadlines: emergency 24 hours, urgent 3 days, normal 14 days.
var deadlines = map[string]time.Duration{Emergency: 24 * time.Hour, Urgent: 3 * 24 * time.Hour, Normal: 14 * 24 * time.Hour}

// Who recorded a request.
const (
	FromTenant = "tenant"
	FromMember = "member"
)

// Request is a row of repair_requests.
type Request struct {
	bun.BaseModel `bun:"table:repair_requests"`

	ID             uuid.UUID  `bun:"id,pk"`
	WorkspaceID    int64      `bun:"workspace_id,notnull"`
	PropertyID     uuid.UUID  `bun:"property_id,notnull"`
	ContractID     *uuid.UUID `bun:"contract_id"`
	Source         string     `bun:"source,notnull"`
	ReportedBy     int64      `bun:"reported_by,notnull"`
	Title          string     `bun:"title,notnull"`
	Description    string     `bun:"description,notnull"`
	Category       string     `bun:"category,notnull"`
	Urgency        string     `bun:"urgency,notnull"`
	AccessNotes    string     `bun:"access_notes,notnull"`
	PreferredTimes string     `bun:"preferred_times,notnull"`
	Photos         string     `bun:"photos,notnull"`
	Status         string     `bun:"status,notnull"`
	RejectReason   string     `bun:"reject_reason,notnull"`
	DeadlineAt     time.Time  `bun:"deadline_at,notnull"`
	VisitStart     *time.Time `bun:"visit_start"`
	VisitEnd       *time.Time `bun:"visit_end"`
	// The recharge to the tenant (recharge.go): the charge, its amount and
	// the day of the repair the yearly limit counts it in.
	RechargeChargeID *uuid.UUID  `bun:"recharge_charge_id"`
	RechargeMinor    *int64      `bun:"recharge_minor"`
	RechargeOn       period.Date `bun:"recharge_on,nullzero"`
	CreatedAt        time.Time   `bun:"created_at,notnull"`
	UpdatedAt        time.Time   `bun:"updated_at,notnull"`
}

// The states of a work order.
const (
	OrderSent     = "sent"
	OrderAccepted = "accepted"
	OrderDeclined = "declined"
	OrderDone     = "done"
)

// WorkOrder is a row of repair_work_orders: one provider asked to do one
// repair, reached through the link mailed to them.
type WorkOrder struct {
	bun.BaseModel `bun:"table:repair_work_orders"`

	ID           uuid.UUID `bun:"id,pk"`
	WorkspaceID  int64     `bun:"workspace_id,notnull"`
	RequestID    uuid.UUID `bun:"request_id,notnull"`
	ProviderID   uuid.UUID `bun:"provider_id,notnull"`
	TokenHash    string    `bun:"token_hash,notnull"`
	ExpiresAt    time.Time `bun:"expires_at,notnull"`
	Locale       string    `bun:"locale,notnull"`
	Status       string    `bun:"status,notnull"`
	Slots        string    `bun:"slots,notnull"`
	Note         string    `bun:"note,notnull"`
	InvoiceMinor *int64    `bun:"invoice_minor"`
	// InvoiceVATMinor is the VAT the invoice states, nil when not given.
	InvoiceVATMinor   *int64     `bun:"invoice_vat_minor"`
	InvoiceDocumentID *uuid.UUID `bun:"invoice_document_id"`
	// BillID is the bill the invoice became (modules/bills), once.
	BillID *uuid.UUID `bun:"bill_id"`
	// DonePhotos is the JSON array of the provider's photos (documents).
	DonePhotos string `bun:"done_photos,notnull"`
	// RemindedOn is the last day the daily run reminded of the order.
	RemindedOn period.Date `bun:"reminded_on,nullzero"`
	CreatedBy  int64       `bun:"created_by,notnull"`
	CreatedAt  time.Time   `bun:"created_at,notnull"`
	UpdatedAt  time.Time   `bun:"updated_at,notnull"`
}

// Slot is a time the provider offers to come.
type Slot struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}
