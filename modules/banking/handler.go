package banking

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/validate"
)

// Handler turns HTTP requests into service calls.
type Handler struct {
	svc *Service
}

// NewHandler returns the handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

func (h *Handler) importStatement(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	p := auth.Current(c)
	acct, err := h.svc.Account(ctx, p, c.Params("bankAccountId"))
	if err != nil {
		return err
	}
	fh, err := c.FormFile("file")
	if err != nil {
		return apierror.Validation("file: a multipart/form-data body with one file in the field \"file\" is required")
	}
	in := ImportInput{MappingID: c.FormValue("mapping_id")}
	var details []string
	if msg := validate.Text(in.MappingID, false); msg != "" {
		details = append(details, "mapping_id: "+msg)
	}
	if raw := c.FormValue("mapping"); raw != "" {
		if msg := validate.Text(raw, false); msg != "" {
			details = append(details, "mapping: "+msg)
		} else {
			in.Mapping = new(CSVMapping)
			if err := json.Unmarshal([]byte(raw), in.Mapping); err != nil {
				details = append(details, "mapping: must be a JSON object of a CSV column mapping")
			}
		}
	}
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	f, err := fh.Open()
	if err != nil {
		return fmt.Errorf("open statement: %w", err)
	}
	defer func() { _ = f.Close() }()
	// One byte past the limit tells an oversized file from one at it;
	// the part's size is known, so the file is read into one buffer of
	// its size rather than a growing one.
	data := make([]byte, min(fh.Size, h.svc.MaxBytes()+1))
	if _, err := io.ReadFull(f, data); err != nil {
		return fmt.Errorf("read statement: %w", err)
	}
	in.Data = data
	res, err := h.svc.Import(ctx, p, acct, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(res)
}

func (h *Handler) listLines(c *fiber.Ctx) error {
	q, err := listing.Parse(c, listing.UUID("bank_account_id"), listing.OneOf("status", Statuses...),
		listing.Date("from"), listing.Date("to"))
	if err != nil {
		return err
	}
	p := auth.Current(c)
	f := LineFilter{BankAccountID: q.Get("bank_account_id"), Status: q.Get("status"), From: q.Get("from"), To: q.Get("to")}
	list, res, err := h.svc.Lines(httpserver.Context(c), &p, f, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("bank_lines", list, lineOut, res, q))
}

func (h *Handler) getLine(c *fiber.Ctx) error {
	l, err := h.svc.Line(httpserver.Context(c), auth.Current(c), c.Params("bankLineId"))
	if err != nil {
		return err
	}
	return c.JSON(lineOut(l))
}

func (h *Handler) match(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	p := auth.Current(c)
	l, err := h.svc.Line(ctx, p, c.Params("bankLineId"))
	if err != nil {
		return err
	}
	var req matchRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	in, err := req.input()
	if err != nil {
		return err
	}
	out, err := h.svc.Match(ctx, p, l, in)
	if err != nil {
		return err
	}
	return c.JSON(lineOut(out))
}

func (r *matchRequest) input() (MatchInput, error) {
	var (
		in      MatchInput
		details []string
		err     error
	)
	if in.ContractID, err = uuid.Parse(r.ContractID); err != nil {
		details = append(details, "contract_id: is required, a UUID")
	}
	if r.Allocations != nil {
		in.Allocations = make([]payments.AllocationInput, 0, len(r.Allocations))
	}
	if len(r.Allocations) > payments.MaxAllocations {
		details = append(details, fmt.Sprintf("allocations: at most %d", payments.MaxAllocations))
		r.Allocations = nil
	}
	for i, a := range r.Allocations {
		id, err := uuid.Parse(a.ChargeID)
		if err != nil {
			details = append(details, fmt.Sprintf("allocations[%d].charge_id: must be a UUID", i))
		}
		amt, err := money.Parse(a.Amount)
		if err != nil || amt <= 0 {
			details = append(details, fmt.Sprintf("allocations[%d].amount: must be an amount above 0 with at most 2 decimals", i))
		}
		in.Allocations = append(in.Allocations, payments.AllocationInput{ChargeID: id, Amount: amt})
	}
	if len(details) > 0 {
		return in, apierror.Validation(details...)
	}
	return in, nil
}

func (h *Handler) ignore(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	l, err := h.svc.Line(ctx, auth.Current(c), c.Params("bankLineId"))
	if err != nil {
		return err
	}
	out, err := h.svc.Ignore(ctx, l)
	if err != nil {
		return err
	}
	return c.JSON(lineOut(out))
}

func (h *Handler) listMappings(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	acct, err := h.svc.Account(ctx, auth.Current(c), c.Params("bankAccountId"))
	if err != nil {
		return err
	}
	list, err := h.svc.Mappings(ctx, acct)
	if err != nil {
		return err
	}
	out := make([]MappingJSON, len(list))
	for i := range list {
		out[i] = MappingOut(&list[i])
	}
	return c.JSON(fiber.Map{"csv_mappings": out})
}

func (h *Handler) mappingOf(c *fiber.Ctx) (*Mapping, error) {
	ctx := httpserver.Context(c)
	acct, err := h.svc.Account(ctx, auth.Current(c), c.Params("bankAccountId"))
	if err != nil {
		return nil, err
	}
	return h.svc.Mapping(ctx, acct, c.Params("mappingId"))
}

func (h *Handler) getMapping(c *fiber.Ctx) error {
	m, err := h.mappingOf(c)
	if err != nil {
		return err
	}
	return c.JSON(MappingOut(m))
}

func (h *Handler) createMapping(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	acct, err := h.svc.Account(ctx, auth.Current(c), c.Params("bankAccountId"))
	if err != nil {
		return err
	}
	var req mappingRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	m, err := h.svc.CreateMapping(ctx, acct, MappingInput{Name: req.Name, Spec: req.Mapping})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(MappingOut(m))
}

func (h *Handler) updateMapping(c *fiber.Ctx) error {
	m, err := h.mappingOf(c)
	if err != nil {
		return err
	}
	var req mappingRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	out, err := h.svc.UpdateMapping(httpserver.Context(c), m, MappingInput{Name: req.Name, Spec: req.Mapping})
	if err != nil {
		return err
	}
	return c.JSON(MappingOut(out))
}

func (h *Handler) deleteMapping(c *fiber.Ctx) error {
	m, err := h.mappingOf(c)
	if err != nil {
		return err
	}
	if err := h.svc.DeleteMapping(httpserver.Context(c), m); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
