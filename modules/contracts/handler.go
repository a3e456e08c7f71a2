package contracts

import (
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Handler turns HTTP requests into service calls. Routes under
// /contracts/{contractId} check access before they read the body, so a
// stranger learns nothing from validation messages.
type Handler struct {
	svc *Service
}

// NewHandler returns the handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

func (h *Handler) list(c *fiber.Ctx) error {
	q, err := listing.Parse(c,
		listing.OneOf("status", Statuses...),
		listing.UUID("property_id"),
		listing.UUID("tenant_id"),
	)
	if err != nil {
		return err
	}
	f := ListFilter{Status: q.Get("status"), PropertyID: q.Get("property_id"), TenantID: q.Get("tenant_id")}
	p := auth.Current(c)
	list, total, err := h.svc.List(httpserver.Context(c), &p, f, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("contracts", list, toJSON(h.svc.Today()), total, q))
}

func (h *Handler) create(c *fiber.Ctx) error {
	var req contractRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	ct, err := h.svc.Create(httpserver.Context(c), auth.Current(c), &req)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(h.out(ct))
}

func (h *Handler) out(ct *Contract) contractJSON { return toJSON(h.svc.Today())(ct) }

func (h *Handler) contract(c *fiber.Ctx) (*Contract, error) {
	return h.svc.Authorize(httpserver.Context(c), auth.Current(c), c.Params("contractId"))
}

func (h *Handler) get(c *fiber.Ctx) error {
	p := auth.Current(c)
	ct, err := h.svc.Get(httpserver.Context(c), &p, c.Params("contractId"))
	if err != nil {
		return err
	}
	return c.JSON(h.out(ct))
}

func (h *Handler) update(c *fiber.Ctx) error {
	ct, err := h.contract(c)
	if err != nil {
		return err
	}
	var req contractRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	ct, err = h.svc.Update(httpserver.Context(c), auth.Current(c), ct, &req)
	if err != nil {
		return err
	}
	return c.JSON(h.out(ct))
}

func (h *Handler) delete(c *fiber.Ctx) error {
	ct, err := h.contract(c)
	if err != nil {
		return err
	}
	if err := h.svc.Delete(httpserver.Context(c), ct); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *Handler) activate(c *fiber.Ctx) error {
	ct, err := h.contract(c)
	if err != nil {
		return err
	}
	ct, err = h.svc.Activate(httpserver.Context(c), auth.Current(c), ct)
	if err != nil {
		return err
	}
	return c.JSON(h.out(ct))
}

func (h *Handler) terminate(c *fiber.Ctx) error {
	ct, err := h.contract(c)
	if err != nil {
		return err
	}
	var req terminateRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	var details []string
	var d period.Date
	if req.Date == nil {
		details = append(details, "date: is required")
	} else if d, err = period.ParseJSON(req.Date); err != nil {
		details = append(details, "date: "+err.Error())
	}
	reason := ""
	if req.Reason != nil {
		reason = strings.TrimSpace(*req.Reason)
		if utf8.RuneCountInString(reason) > MaxReasonLen {
			details = append(details, "reason: must be at most 1000 characters")
		}
	}
	in := Termination{Date: d, Reason: reason}
	if req.TerminatedBy != nil {
		in.By = strings.ToLower(strings.TrimSpace(*req.TerminatedBy))
		if in.By != ByLandlord && in.By != ByTenant && in.By != ByMutual {
			details = append(details, "terminated_by: must be one of landlord, tenant, mutual")
		}
	}
	if req.NoticeReceivedOn != nil && string(req.NoticeReceivedOn) != "null" {
		if in.NoticeReceived, err = period.ParseJSON(req.NoticeReceivedOn); err != nil {
			details = append(details, "notice_received_on: "+err.Error())
		} else if in.By != ByTenant {
			details = append(details, "notice_received_on: only with terminated_by tenant (the day the tenant's notice arrived)")
		}
	}
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	ct, err = h.svc.Terminate(httpserver.Context(c), ct, in)
	if err != nil {
		return err
	}
	return c.JSON(h.out(ct))
}

func (h *Handler) rents(c *fiber.Ctx) error {
	ct, err := h.contract(c)
	if err != nil {
		return err
	}
	list, err := h.svc.Rents(httpserver.Context(c), ct)
	if err != nil {
		return err
	}
	out := rentListJSON{Rents: make([]rentJSON, 0, len(list))}
	for _, r := range list {
		v := rentJSON{From: r.From, Amount: r.Amount, ExpenseID: r.ExpenseID.String()}
		if ix := r.Index(); ix != nil {
			v.Index = &indexJSON{Index: *ix, ChangePercent: ix.Percent()}
		}
		out.Rents = append(out.Rents, v)
	}
	return c.JSON(out)
}

func (h *Handler) changeRent(c *fiber.Ctx) error {
	ct, err := h.contract(c)
	if err != nil {
		return err
	}
	var req rentRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	var details []string
	var amount money.Amount
	if req.Amount == nil {
		details = append(details, "amount: is required")
	} else if amount, err = money.Parse(req.Amount); err != nil {
		details = append(details, "amount: "+err.Error())
	} else if amount <= 0 {
		details = append(details, "amount: must be more than 0")
	}
	var from period.Date
	if req.From == nil {
		details = append(details, "from: is required")
	} else if from, err = period.ParseJSON(req.From); err != nil {
		details = append(details, "from: "+err.Error())
	}
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	var ix *Index
	if req.Index != nil {
		// Copied: the decoded strings are the request's.
		in := *req.Index
		in.Name, in.OldPeriod, in.OldValue, in.NewPeriod, in.NewValue = strings.Clone(in.Name), strings.Clone(in.OldPeriod),
			strings.Clone(in.OldValue), strings.Clone(in.NewPeriod), strings.Clone(in.NewValue)
		ix = &in
	}
	ct, err = h.svc.ChangeRent(httpserver.Context(c), auth.Current(c), ct, amount, from, ix)
	if err != nil {
		return err
	}
	return c.JSON(h.out(ct))
}
