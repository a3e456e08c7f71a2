package billing

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/validate"
)

// Handler turns HTTP requests into billing reads and changes.
type Handler struct{ svc *Service }

// NewHandler returns the handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

type planJSON struct {
	Code      string       `json:"code"`
	Units     *int         `json:"unit_limit"`
	UnitPrice money.Amount `json:"price_per_unit_month"`
	Currency  string       `json:"currency"`
	TrialDays int          `json:"trial_days"`
}

func (h *Handler) plans(c *fiber.Ctx) error {
	cfg := h.svc.Config()
	free := cfg.FreeUnits
	return c.JSON(fiber.Map{"plans": []planJSON{
		{Code: PlanFree, Units: &free, Currency: cfg.Currency},
		{Code: PlanPro, UnitPrice: cfg.price, Currency: cfg.Currency, TrialDays: cfg.TrialDays},
	}})
}

type subscriptionJSON struct {
	Plan          string     `json:"plan"`
	Status        string     `json:"status"`
	TrialEndsAt   time.Time  `json:"trial_ends_at"`
	UnitLimit     *int       `json:"unit_limit"`
	ActiveUnits   int        `json:"active_units"`
	Country       *string    `json:"country"`
	VATID         *string    `json:"vat_id"`
	Company       *string    `json:"company"`
	PaymentMethod *string    `json:"payment_method"`
	PastDueSince  *time.Time `json:"past_due_since"`
	ReadOnly      bool       `json:"read_only"`
	CanceledAt    *time.Time `json:"canceled_at"`
}

func (h *Handler) view(ctx context.Context, sub *Subscription) (subscriptionJSON, error) {
	st, err := h.svc.Standing(ctx, sub)
	if err != nil {
		return subscriptionJSON{}, err
	}
	c := st.Subscription
	v := subscriptionJSON{Plan: c.Plan, Status: c.Status, TrialEndsAt: c.TrialEndsAt, Country: c.Country, VATID: c.VATID,
		Company: c.Company, PaymentMethod: c.Card, PastDueSince: c.PastDueSince, ReadOnly: c.ReadOnly, CanceledAt: c.CanceledAt,
		ActiveUnits: st.ActiveUnits}
	if v.PaymentMethod == nil && c.PaymentMethodID != nil {
		v.PaymentMethod = c.PaymentMethodID
	}
	if st.UnitLimit >= 0 {
		limit := st.UnitLimit
		v.UnitLimit = &limit
	}
	return v, nil
}

func (h *Handler) getSubscription(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	sub, err := h.svc.Subscription(ctx, auth.Current(c).WorkspaceID)
	if err != nil {
		return err
	}
	v, err := h.view(ctx, sub)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

type subscriptionUpdate struct {
	Plan    *string `json:"plan" validate:"omitnil,oneof=free pro"`
	Country *string `json:"country" validate:"omitnil,len=2"`
	VATID   *string `json:"vat_id" validate:"omitnil,max=20"`
	Company *string `json:"company" validate:"omitnil,max=200"`
}

func (h *Handler) putSubscription(c *fiber.Ctx) error {
	var req subscriptionUpdate
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	if details := validate.Struct(&req); details != nil {
		return apierror.Validation(details...)
	}
	if req.Plan == nil && req.Country == nil && req.VATID == nil && req.Company == nil {
		return apierror.Validation("body: name at least one of plan, country, vat_id, company")
	}
	u := Update{Plan: req.Plan, Company: req.Company}
	if req.Country != nil {
		cc := strings.ToUpper(*req.Country)
		if cc[0] < 'A' || cc[0] > 'Z' || cc[1] < 'A' || cc[1] > 'Z' {
			return apierror.Validation("country: must be an ISO 3166-1 alpha-2 code such as DE")
		}
		u.Country = &cc
	}
	if req.VATID != nil {
		id := NormalizeVATID(*req.VATID)
		u.VATID = &id
	}
	if u.Company != nil {
		co := strings.TrimSpace(*u.Company)
		u.Company = &co
	}
	ctx := httpserver.Context(c)
	sub, err := h.svc.Change(ctx, auth.Current(c).WorkspaceID, u)
	if err != nil {
		return err
	}
	v, err := h.view(ctx, sub)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

func (h *Handler) cancel(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	sub, err := h.svc.Cancel(ctx, auth.Current(c).WorkspaceID)
	if err != nil {
		return err
	}
	v, err := h.view(ctx, sub)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

type paymentMethodCreate struct {
	PaymentMethod string `json:"payment_method" validate:"required,max=255"`
}

func (h *Handler) addPaymentMethod(c *fiber.Ctx) error {
	var req paymentMethodCreate
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	if details := validate.Struct(&req); details != nil {
		return apierror.Validation(details...)
	}
	if !strings.HasPrefix(req.PaymentMethod, "pm_") {
		return apierror.Validation("payment_method: must be the id of a Stripe payment method (pm_...)")
	}
	ctx := httpserver.Context(c)
	p := auth.Current(c)
	sub, err := h.svc.AddPaymentMethod(ctx, p, req.PaymentMethod)
	if err != nil {
		return err
	}
	v, err := h.view(ctx, sub)
	if err != nil {
		return err
	}
	return c.Status(http.StatusCreated).JSON(v)
}

type lineJSON struct {
	Description string       `json:"description"`
	Period      string       `json:"period"`
	Quantity    int          `json:"quantity"`
	UnitPrice   money.Amount `json:"unit_price"`
	Amount      money.Amount `json:"amount"`
}

type invoiceJSON struct {
	ID            string       `json:"id"`
	Number        string       `json:"number"`
	Period        string       `json:"period"`
	Status        string       `json:"status"`
	Currency      string       `json:"currency"`
	Net           money.Amount `json:"net"`
	Credit        money.Amount `json:"credit"`
	VATRate       string       `json:"vat_rate"`
	VAT           money.Amount `json:"vat"`
	Total         money.Amount `json:"total"`
	Country       string       `json:"country"`
	VATID         *string      `json:"vat_id"`
	ReverseCharge bool         `json:"reverse_charge"`
	Customer      string       `json:"customer"`
	IssuedAt      time.Time    `json:"issued_at"`
	PaidAt        *time.Time   `json:"paid_at"`
	Lines         []lineJSON   `json:"lines,omitempty"`
}

func invoiceView(inv *Invoice) invoiceJSON {
	v := invoiceJSON{ID: inv.ID.String(), Number: inv.Number, Period: inv.Period, Status: inv.Status, Currency: inv.Currency,
		Net: inv.Net, Credit: inv.Credit, VATRate: inv.VATRate, VAT: inv.VAT, Total: inv.Total, Country: inv.Country,
		VATID: inv.VATID, ReverseCharge: inv.ReverseCharge, Customer: inv.Customer, IssuedAt: inv.IssuedAt, PaidAt: inv.PaidAt}
	for _, l := range inv.Lines {
		v.Lines = append(v.Lines, lineJSON{Description: l.Description, Period: l.Period, Quantity: l.Quantity, UnitPrice: l.UnitPrice, Amount: l.Amount})
	}
	return v
}

func (h *Handler) listInvoices(c *fiber.Ctx) error {
	q, err := listing.Parse(c, listing.OneOf("status", InvoiceOpen, InvoicePaid))
	if err != nil {
		return err
	}
	list, res, err := h.svc.Invoices(httpserver.Context(c), auth.Current(c).WorkspaceID, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("invoices", list, invoiceView, res, q))
}

func (h *Handler) invoice(c *fiber.Ctx) (*Invoice, error) {
	raw := c.Params("invoiceId")
	id, err := uuid.Parse(raw)
	if err != nil || len(raw) != 36 {
		return nil, apierror.NotFound("Invoice not found.")
	}
	inv, err := h.svc.Invoice(httpserver.Context(c), auth.Current(c).WorkspaceID, id)
	if errors.Is(err, errInvoiceNotFound) {
		return nil, apierror.NotFound("Invoice not found.")
	}
	return inv, err
}

func (h *Handler) getInvoice(c *fiber.Ctx) error {
	inv, err := h.invoice(c)
	if err != nil {
		return err
	}
	return c.JSON(invoiceView(inv))
}

func (h *Handler) invoicePDF(c *fiber.Ctx) error {
	inv, err := h.invoice(c)
	if err != nil {
		return err
	}
	pdf, err := h.svc.PDF(inv)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/pdf")
	c.Set(fiber.HeaderContentDisposition, `inline; filename="`+inv.Number+`.pdf"`)
	return c.Send(pdf)
}

func (h *Handler) payInvoice(c *fiber.Ctx) error {
	inv, err := h.invoice(c)
	if err != nil {
		return err
	}
	if inv.Status != InvoiceOpen {
		return apierror.Conflict("invoice_paid", "This invoice is paid already.")
	}
	ctx := httpserver.Context(c)
	if err := h.svc.Pay(ctx, inv.WorkspaceID, inv.ID); err != nil {
		return paymentError(err)
	}
	inv, err = h.svc.Invoice(ctx, inv.WorkspaceID, inv.ID)
	if err != nil {
		return err
	}
	return c.JSON(invoiceView(inv))
}
