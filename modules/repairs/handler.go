package repairs

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Bounds of the input.
const (
	maxPhotos = 20
	maxSlots  = 10
	maxSlot   = 12 * time.Hour
)

// Handler turns HTTP requests into service calls.
type Handler struct {
	svc     *Service
	props   *properties.Service
	tenants contracts.Tenancies
}

// HandlerParams are the handler's dependencies.
type HandlerParams struct {
	fx.In

	Service    *Service
	Properties *properties.Service
	// Tenancies is nil when the tenancy module is off: the tenant routes
	// then answer 404.
	Tenancies contracts.Tenancies `optional:"true"`
}

// NewHandler returns the handler.
func NewHandler(p HandlerParams) *Handler {
	return &Handler{svc: p.Service, props: p.Properties, tenants: p.Tenancies}
}

func (h *Handler) property(c *fiber.Ctx) (*properties.Property, error) {
	return h.props.Authorize(httpserver.Context(c), auth.Current(c), c.Params("propertyId"))
}

type visitJSON struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// rechargeJSON is what the tenant was charged for the repair.
type rechargeJSON struct {
	ChargeID string       `json:"charge_id"`
	Amount   money.Amount `json:"amount"`
	RepairOn period.Date  `json:"repair_on"`
}

type orderJSON struct {
	ID            string        `json:"id"`
	ProviderID    string        `json:"provider_id"`
	Status        string        `json:"status"`
	ExpiresAt     string        `json:"expires_at"`
	Slots         []visitJSON   `json:"slots"`
	Note          string        `json:"note"`
	InvoiceAmount *money.Amount `json:"invoice_amount"`
	InvoiceVAT    *money.Amount `json:"invoice_vat_amount"`
	// InvoiceDocumentID, BillID and Photos are the members' only.
	InvoiceDocumentID *string  `json:"invoice_document_id,omitempty"`
	BillID            *string  `json:"bill_id,omitempty"`
	Photos            []string `json:"photos"`
	CreatedAt         string   `json:"created_at"`
}

// requestJSON is a repair request as members and tenants see it.
type requestJSON struct {
	ID             string        `json:"id"`
	PropertyID     string        `json:"property_id"`
	ContractID     *string       `json:"contract_id"`
	Source         string        `json:"source"`
	Title          string        `json:"title"`
	Description    string        `json:"description"`
	Category       string        `json:"category"`
	Urgency        string        `json:"urgency"`
	AccessNotes    string        `json:"access_notes"`
	PreferredTimes string        `json:"preferred_times"`
	Photos         []string      `json:"photos"`
	Status         string        `json:"status"`
	RejectReason   *string       `json:"reject_reason"`
	DeadlineAt     string        `json:"deadline_at"`
	Visit          *visitJSON    `json:"visit"`
	WorkOrder      *orderJSON    `json:"work_order"`
	Recharge       *rechargeJSON `json:"recharge"`
	CreatedAt      string        `json:"created_at"`
	UpdatedAt      string        `json:"updated_at"`
}

func slotsOf(o *WorkOrder) []visitJSON {
	var slots []Slot
	_ = json.Unmarshal([]byte(o.Slots), &slots)
	out := make([]visitJSON, len(slots))
	for i, s := range slots {
		out[i] = visitJSON{Start: properties.Timestamp(s.Start), End: properties.Timestamp(s.End)}
	}
	return out
}

// toJSON is r with its latest work order o (nil for none); a tenant
// (member false) is not shown the invoice amount, a matter between
// landlord and provider.
func toJSON(r *Request, o *WorkOrder, member bool) requestJSON {
	out := requestJSON{ID: r.ID.String(), PropertyID: r.PropertyID.String(), Source: r.Source, Title: r.Title,
		Description: r.Description, Category: r.Category, Urgency: r.Urgency, AccessNotes: r.AccessNotes,
		PreferredTimes: r.PreferredTimes, Photos: []string{}, Status: r.Status, DeadlineAt: properties.Timestamp(r.DeadlineAt),
		CreatedAt: properties.Timestamp(r.CreatedAt), UpdatedAt: properties.Timestamp(r.UpdatedAt)}
	_ = json.Unmarshal([]byte(r.Photos), &out.Photos)
	if r.ContractID != nil {
		id := r.ContractID.String()
		out.ContractID = &id
	}
	if r.Status == Rejected {
		reason := r.RejectReason
		out.RejectReason = &reason
	}
	if r.VisitStart != nil && r.VisitEnd != nil {
		out.Visit = &visitJSON{Start: properties.Timestamp(*r.VisitStart), End: properties.Timestamp(*r.VisitEnd)}
	}
	if r.RechargeChargeID != nil && r.RechargeMinor != nil {
		out.Recharge = &rechargeJSON{ChargeID: r.RechargeChargeID.String(), Amount: money.Amount(*r.RechargeMinor), RepairOn: r.RechargeOn}
	}
	if o != nil {
		oj := &orderJSON{ID: o.ID.String(), ProviderID: o.ProviderID.String(), Status: o.Status,
			ExpiresAt: properties.Timestamp(o.ExpiresAt), Slots: slotsOf(o), Note: o.Note, CreatedAt: properties.Timestamp(o.CreatedAt)}
		oj.Photos = []string{}
		_ = json.Unmarshal([]byte(o.DonePhotos), &oj.Photos)
		if member {
			oj.InvoiceAmount, oj.InvoiceVAT = amountOf(o.InvoiceMinor), amountOf(o.InvoiceVATMinor)
			oj.InvoiceDocumentID, oj.BillID = idOf(o.InvoiceDocumentID), idOf(o.BillID)
		}
		out.WorkOrder = oj
	}
	return out
}

func pageJSON(pg *Page, q listing.Query, member bool) any {
	return listing.NewPage("repair_requests", pg.Requests, func(r *Request) requestJSON {
		return toJSON(r, pg.Orders[r.ID], member)
	}, pg.Result, q)
}

func listFilters() []listing.Filter {
	return []listing.Filter{listing.OneOf("status", Statuses...), listing.OneOf("urgency", Urgencies...)}
}

// createRequest is the body of a new repair request.
type createRequest struct {
	ContractID     *string  `json:"contract_id"`
	Title          string   `json:"title"`
	Description    string   `json:"description" validate:"multiline"`
	Category       string   `json:"category"`
	Urgency        string   `json:"urgency"`
	AccessNotes    string   `json:"access_notes" validate:"multiline"`
	PreferredTimes string   `json:"preferred_times" validate:"multiline"`
	Photos         []string `json:"photos"`
}

func bounded(name, v string, lo, hi int, details *[]string) string {
	v = strings.TrimSpace(v)
	if n := utf8.RuneCountInString(v); n < lo || n > hi {
		*details = append(*details, fmt.Sprintf("%s: must be %d to %d characters", name, lo, hi))
	}
	return v
}

func (r *createRequest) input(tenant bool) (Input, []string) {
	var in Input
	var details []string
	if r.ContractID != nil && !tenant {
		id, err := uuid.Parse(*r.ContractID)
		if err != nil || len(*r.ContractID) != 36 {
			details = append(details, "contract_id: must be the id of a contract of this property")
		}
		in.ContractID = &id
	}
	in.Title = bounded("title", r.Title, 1, 200, &details)
	in.Description = bounded("description", r.Description, 1, 4000, &details)
	in.AccessNotes = bounded("access_notes", r.AccessNotes, 0, 2000, &details)
	in.PreferredTimes = bounded("preferred_times", r.PreferredTimes, 0, 2000, &details)
	if in.Category = r.Category; !slices.Contains(Categories, r.Category) {
		details = append(details, "category: must be one of "+strings.Join(Categories, ", "))
	}
	if in.Urgency = r.Urgency; !slices.Contains(Urgencies, r.Urgency) {
		details = append(details, "urgency: must be one of "+strings.Join(Urgencies, ", "))
	}
	if len(r.Photos) > maxPhotos {
		details = append(details, fmt.Sprintf("photos: at most %d documents", maxPhotos))
		r.Photos = nil
	}
	seen := map[uuid.UUID]bool{}
	for i, raw := range r.Photos {
		id, err := uuid.Parse(raw)
		switch {
		case err != nil || len(raw) != 36:
			details = append(details, fmt.Sprintf("photos[%d]: must be a document id", i))
		case seen[id]:
			details = append(details, fmt.Sprintf("photos[%d]: appears twice", i))
		default:
			seen[id] = true
			in.Photos = append(in.Photos, id)
		}
	}
	return in, details
}

func decodeCreate(c *fiber.Ctx, tenant bool) (Input, error) {
	var req createRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return Input{}, err
	}
	in, details := req.input(tenant)
	if len(details) > 0 {
		return Input{}, apierror.Validation(details...)
	}
	return in, nil
}

func (h *Handler) list(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, listFilters()...)
	if err != nil {
		return err
	}
	pg, err := h.svc.List(httpserver.Context(c), prop, q)
	if err != nil {
		return err
	}
	return c.JSON(pageJSON(pg, q, true))
}

func (h *Handler) overdue(c *fiber.Ctx) error {
	q, err := listing.Parse(c, listFilters()...)
	if err != nil {
		return err
	}
	pg, err := h.svc.Overdue(httpserver.Context(c), auth.Current(c), q)
	if err != nil {
		return err
	}
	return c.JSON(pageJSON(pg, q, true))
}

func (h *Handler) create(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	in, err := decodeCreate(c, false)
	if err != nil {
		return err
	}
	r, err := h.svc.Record(httpserver.Context(c), auth.Current(c), prop, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toJSON(r, nil, true))
}

func (h *Handler) get(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	r, o, err := h.svc.Request(httpserver.Context(c), prop, c.Params("requestId"))
	if err != nil {
		return err
	}
	return c.JSON(toJSON(r, o, true))
}

// transitionRequest is the body of POST .../transition.
type transitionRequest struct {
	To     string `json:"to"`
	Reason string `json:"reason" validate:"multiline"`
}

func (h *Handler) transition(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	var req transitionRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	var details []string
	if !slices.Contains([]string{Triaged, Rejected, Closed}, req.To) {
		details = append(details, "to: must be one of triaged, rejected, closed (the other states follow the work order)")
	}
	reason := strings.TrimSpace(req.Reason)
	switch {
	case req.To == Rejected && reason == "":
		details = append(details, "reason: is required to reject a request")
	case utf8.RuneCountInString(reason) > 2000:
		details = append(details, "reason: must be at most 2000 characters")
	case req.To != Rejected && reason != "":
		details = append(details, "reason: only when rejecting")
	}
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	r, o, err := h.svc.Transition(httpserver.Context(c), prop, c.Params("requestId"), req.To, reason)
	if err != nil {
		return err
	}
	return c.JSON(toJSON(r, o, true))
}

// orderRequest is the body of POST .../work-orders.
type orderRequest struct {
	ProviderID string `json:"provider_id"`
}

func (h *Handler) order(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	var req orderRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	if _, err := uuid.Parse(req.ProviderID); err != nil || len(req.ProviderID) != 36 {
		return apierror.Validation("provider_id: must be the id of a service provider (contragent with the role provider)")
	}
	r, o, err := h.svc.Order(httpserver.Context(c), auth.Current(c), prop, c.Params("requestId"), req.ProviderID)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toJSON(r, o, true))
}

// tenancy finds the caller's own contract of the path.
func (h *Handler) tenancy(c *fiber.Ctx) (*contracts.Contract, *properties.Property, error) {
	ct, prop, _, err := contracts.OwnTenancy(c, h.tenants)
	return ct, prop, err
}

func (h *Handler) tenantList(c *fiber.Ctx) error {
	ct, _, err := h.tenancy(c)
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, listFilters()...)
	if err != nil {
		return err
	}
	pg, err := h.svc.OfContract(httpserver.Context(c), ct, q)
	if err != nil {
		return err
	}
	return c.JSON(pageJSON(pg, q, false))
}

func (h *Handler) tenantCreate(c *fiber.Ctx) error {
	ct, prop, err := h.tenancy(c)
	if err != nil {
		return err
	}
	in, err := decodeCreate(c, true)
	if err != nil {
		return err
	}
	r, err := h.svc.Report(httpserver.Context(c), auth.Current(c).UserID, prop, ct, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toJSON(r, nil, false))
}

func (h *Handler) tenantGet(c *fiber.Ctx) error {
	ct, _, err := h.tenancy(c)
	if err != nil {
		return err
	}
	r, o, err := h.svc.TenantRequest(httpserver.Context(c), ct, c.Params("requestId"))
	if err != nil {
		return err
	}
	return c.JSON(toJSON(r, o, false))
}

// pickRequest is the body of the tenant's POST .../slot.
type pickRequest struct {
	Start string `json:"start"`
}

func (h *Handler) tenantSlot(c *fiber.Ctx) error {
	ct, _, err := h.tenancy(c)
	if err != nil {
		return err
	}
	var req pickRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	start, err := time.Parse(time.RFC3339, req.Start)
	if err != nil {
		return apierror.Validation("start: must be a time (RFC 3339), the start of an offered slot")
	}
	r, o, err := h.svc.PickSlot(httpserver.Context(c), ct, c.Params("requestId"), start)
	if err != nil {
		return err
	}
	return c.JSON(toJSON(r, o, false))
}

// providerJSON is what the provider's link opens.
type providerJSON struct {
	Status        string        `json:"status"`
	ExpiresAt     string        `json:"expires_at"`
	Provider      string        `json:"provider"`
	Place         string        `json:"place"`
	Slots         []visitJSON   `json:"slots"`
	Note          string        `json:"note"`
	InvoiceAmount *money.Amount `json:"invoice_amount"`
	InvoiceVAT    *money.Amount `json:"invoice_vat_amount"`
	Photos        []string      `json:"photos"`
	Request       struct {
		Title          string     `json:"title"`
		Description    string     `json:"description"`
		Category       string     `json:"category"`
		Urgency        string     `json:"urgency"`
		AccessNotes    string     `json:"access_notes"`
		PreferredTimes string     `json:"preferred_times"`
		Photos         []string   `json:"photos"`
		Status         string     `json:"status"`
		DeadlineAt     string     `json:"deadline_at"`
		Visit          *visitJSON `json:"visit"`
	} `json:"request"`
}

func providerOut(v *ProviderView) providerJSON {
	r := toJSON(v.Request, v.Order, true)
	out := providerJSON{Status: v.Order.Status, ExpiresAt: properties.Timestamp(v.Order.ExpiresAt), Provider: v.Provider.Name,
		Place: v.Place, Slots: r.WorkOrder.Slots, Note: v.Order.Note, InvoiceAmount: r.WorkOrder.InvoiceAmount,
		InvoiceVAT: r.WorkOrder.InvoiceVAT, Photos: r.WorkOrder.Photos}
	out.Request.Title, out.Request.Description, out.Request.Category, out.Request.Urgency = r.Title, r.Description, r.Category, r.Urgency
	out.Request.AccessNotes, out.Request.PreferredTimes, out.Request.Photos = r.AccessNotes, r.PreferredTimes, r.Photos
	out.Request.Status, out.Request.DeadlineAt, out.Request.Visit = r.Status, r.DeadlineAt, r.Visit
	return out
}

func (h *Handler) providerGet(c *fiber.Ctx) error {
	httpserver.NoStore(c)
	v, err := h.svc.ProviderOrder(httpserver.Context(c), c.Params("token"))
	if err != nil {
		return err
	}
	return c.JSON(providerOut(v))
}

// providerRequest is the body of the provider's answers: slots for
// /slots, note and invoice_amount for /done, note for /decline.
type providerRequest struct {
	Slots []struct {
		Start string `json:"start"`
		End   string `json:"end"`
	} `json:"slots"`
	Note          string          `json:"note" validate:"multiline"`
	InvoiceAmount json.RawMessage `json:"invoice_amount"`
	InvoiceVAT    json.RawMessage `json:"invoice_vat_amount"`
}

func (r *providerRequest) action(verb string) (ProviderAction, []string) {
	a := ProviderAction{Verb: verb}
	var details []string
	a.Note = strings.TrimSpace(r.Note)
	if utf8.RuneCountInString(a.Note) > 4000 {
		details = append(details, "note: must be at most 4000 characters")
	}
	switch verb {
	case "slots":
		if len(r.Slots) < 1 || len(r.Slots) > maxSlots {
			details = append(details, fmt.Sprintf("slots: must be 1 to %d times", maxSlots))
		}
		for i, raw := range r.Slots {
			start, err1 := time.Parse(time.RFC3339, raw.Start)
			end, err2 := time.Parse(time.RFC3339, raw.End)
			switch {
			case err1 != nil || err2 != nil:
				details = append(details, fmt.Sprintf("slots[%d]: start and end must be times (RFC 3339)", i))
			case !end.After(start) || end.Sub(start) > maxSlot:
				details = append(details, fmt.Sprintf("slots[%d]: end must be after start, at most 12 hours later", i))
			default:
				a.Slots = append(a.Slots, Slot{Start: start.UTC().Truncate(time.Second), End: end.UTC().Truncate(time.Second)})
			}
		}
	case "done":
		if r.InvoiceAmount != nil && string(r.InvoiceAmount) != "null" {
			amount, err := money.Parse(r.InvoiceAmount)
			switch {
			case err != nil:
				details = append(details, "invoice_amount: "+err.Error())
			case amount < 0:
				details = append(details, "invoice_amount: must not be negative")
			default:
				a.Invoice = &amount
			}
		}
		if r.InvoiceVAT != nil && string(r.InvoiceVAT) != "null" {
			vat, err := money.Parse(r.InvoiceVAT)
			switch {
			case err != nil:
				details = append(details, "invoice_vat_amount: "+err.Error())
			case a.Invoice == nil:
				details = append(details, "invoice_vat_amount: only with invoice_amount")
			case vat < 0 || vat > *a.Invoice:
				details = append(details, "invoice_vat_amount: must be from 0 to invoice_amount")
			default:
				a.InvoiceVAT = &vat
			}
		}
	}
	return a, details
}

func (h *Handler) providerAct(verb string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		httpserver.NoStore(c)
		var req providerRequest
		if len(c.Body()) > 0 {
			if err := httpserver.DecodeJSON(c, &req); err != nil {
				return err
			}
		}
		a, details := req.action(verb)
		if len(details) > 0 {
			return apierror.Validation(details...)
		}
		v, err := h.svc.Act(httpserver.Context(c), c.Params("token"), a)
		if err != nil {
			return err
		}
		return c.JSON(providerOut(v))
	}
}

func amountOf(minor *int64) *money.Amount {
	if minor == nil {
		return nil
	}
	a := money.Amount(*minor)
	return &a
}

func idOf(id *uuid.UUID) *string {
	if id == nil {
		return nil
	}
	v := id.String()
	return &v
}

// rechargeRequest is the body of POST .../recharge.
type rechargeRequest struct {
	DueDate *period.Date `json:"due_date"`
}

// rechargeAnswer is the request with what the recharge computed.
type rechargeAnswer struct {
	requestJSON
	Invoice money.Amount `json:"invoice_amount"`
	Capped  bool         `json:"capped"`
}

func (h *Handler) recharge(c *fiber.Ctx) error {
	prop, err := h.property(c)
	if err != nil {
		return err
	}
	var req rechargeRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	if req.DueDate == nil {
		return apierror.Validation("due_date: is required (the day the tenant is to pay)")
	}
	r, o, got, err := h.svc.Recharge(httpserver.Context(c), prop, c.Params("requestId"), *req.DueDate)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(rechargeAnswer{requestJSON: toJSON(r, o, true), Invoice: got.Invoice, Capped: got.Capped})
}
