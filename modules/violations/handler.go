package violations

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// maxEvidence bounds the evidence documents of one violation.
const maxEvidence = 50

// Handler turns HTTP requests into service calls. Every route is under a
// property that properties.Service.Scope authorised before the handler
// runs (routes.go); the handler reads it with properties.Scoped.
type Handler struct {
	svc *Service
}

// NewHandler returns the handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// apiError is the one place the domain's errors become HTTP answers.
func apiError(err error) error {
	var (
		invalid    *InvalidError
		void       *FineVoidError
		transition *TransitionError
		payments   *PaymentsError
	)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNotFound):
		return apierror.NotFound("Violation not found.")
	case errors.As(err, &invalid):
		return apierror.Validation(invalid.Details...)
	case errors.As(err, &void):
		return apierror.New(http.StatusUnprocessableEntity, "penalty_not_allowed",
			"A contractual fine is void on a residential lease in "+void.Rules.Country+" ("+void.Rules.FinesSource+"); nothing was recorded. "+
				"Record the violation without a fine, and claim any damage as damage, with evidence.")
	case errors.As(err, &transition):
		return apierror.Conflict("invalid_transition", fmt.Sprintf("A violation that is %s cannot become %s.", transition.From, transition.To))
	case errors.As(err, &payments) && payments.LateFee:
		return apierror.Conflict("has_payments", "Money was allocated to the fine's late fee; reverse the payment before withdrawing the violation.")
	case errors.As(err, &payments):
		return apierror.Conflict("has_payments", "Money was allocated to the fine; reverse the payment before withdrawing the violation.")
	}
	return err
}

// violationJSON is a violation as clients see it.
type violationJSON struct {
	ID           string        `json:"id"`
	PropertyID   string        `json:"property_id"`
	ContractID   string        `json:"contract_id"`
	Code         *string       `json:"code"`
	OccurredOn   period.Date   `json:"occurred_on"`
	Description  string        `json:"description"`
	Evidence     []string      `json:"evidence"`
	Status       string        `json:"status"`
	Fine         *money.Amount `json:"fine"`
	FineChargeID *string       `json:"fine_charge_id"`
	Note         string        `json:"note"`
	CreatedAt    string        `json:"created_at"`
	UpdatedAt    string        `json:"updated_at"`
}

func toJSON(v *Violation) violationJSON {
	out := violationJSON{ID: v.ID.String(), PropertyID: v.PropertyID.String(), ContractID: v.ContractID.String(),
		OccurredOn: v.OccurredOn, Description: v.Description, Evidence: []string{}, Status: v.Status, Note: v.Note,
		CreatedAt: properties.Timestamp(v.CreatedAt), UpdatedAt: properties.Timestamp(v.UpdatedAt)}
	_ = json.Unmarshal([]byte(v.Evidence), &out.Evidence)
	if v.Code != "" {
		code := v.Code
		out.Code = &code
	}
	if v.FineMinor != nil {
		a := money.Amount(*v.FineMinor)
		out.Fine = &a
	}
	if v.FineChargeID != nil {
		id := v.FineChargeID.String()
		out.FineChargeID = &id
	}
	return out
}

func out(v *Violation) violationJSON { return toJSON(v) }

func (h *Handler) list(c *fiber.Ctx) error {
	prop := properties.Scoped(c)
	q, err := listing.Parse(c, listing.OneOf("status", Statuses...), listing.UUID("contract_id"))
	if err != nil {
		return err
	}
	list, res, err := h.svc.List(httpserver.Context(c), prop, q)
	if err != nil {
		return apiError(err)
	}
	return c.JSON(listing.NewPage("violations", list, out, res, q))
}

// createRequest is the body of POST .../violations.
type createRequest struct {
	ContractID  string          `json:"contract_id"`
	Code        *string         `json:"code"`
	OccurredOn  json.RawMessage `json:"occurred_on"`
	Description string          `json:"description" validate:"multiline"`
	Evidence    []string        `json:"evidence"`
	Fine        json.RawMessage `json:"fine"`
	FineDueDate json.RawMessage `json:"fine_due_date"`
}

func (r *createRequest) input() (Input, []string) {
	var in Input
	var details []string
	id, err := uuid.Parse(r.ContractID)
	if err != nil || len(r.ContractID) != 36 {
		details = append(details, "contract_id: must be the id of a contract of this property")
	}
	in.ContractID = id
	if r.Code != nil {
		in.Code = strings.ToUpper(strings.TrimSpace(*r.Code))
		if len(in.Code) > 100 {
			details = append(details, "code: must be at most 100 characters")
		}
	}
	if d, err := period.ParseJSON(r.OccurredOn); r.OccurredOn == nil || err != nil {
		details = append(details, "occurred_on: is required, a date YYYY-MM-DD")
	} else {
		in.OccurredOn = d
	}
	in.Description = strings.TrimSpace(r.Description)
	if n := utf8.RuneCountInString(in.Description); n < 1 || n > 4000 {
		details = append(details, "description: must be 1 to 4000 characters")
	}
	if len(r.Evidence) > maxEvidence {
		details = append(details, fmt.Sprintf("evidence: at most %d documents", maxEvidence))
		r.Evidence = nil
	}
	seen := map[uuid.UUID]bool{}
	for i, raw := range r.Evidence {
		id, err := uuid.Parse(raw)
		switch {
		case err != nil || len(raw) != 36:
			details = append(details, fmt.Sprintf("evidence[%d]: must be a document id", i))
		case seen[id]:
			details = append(details, fmt.Sprintf("evidence[%d]: appears twice", i))
		default:
			seen[id] = true
			in.Evidence = append(in.Evidence, id)
		}
	}
	if r.Fine != nil && string(r.Fine) != "null" {
		a, err := money.Parse(r.Fine)
		switch {
		case err != nil:
			details = append(details, "fine: "+err.Error())
		case a <= 0:
			details = append(details, "fine: must be more than 0")
		default:
			in.Fine = &a
		}
	}
	if r.FineDueDate != nil && string(r.FineDueDate) != "null" {
		d, err := period.ParseJSON(r.FineDueDate)
		switch {
		case err != nil:
			details = append(details, "fine_due_date: "+err.Error())
		case in.Fine == nil:
			details = append(details, "fine_due_date: only with a fine")
		default:
			in.FineDue = d
		}
	}
	return in, details
}

func (h *Handler) create(c *fiber.Ctx) error {
	prop := properties.Scoped(c)
	var req createRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	in, details := req.input()
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	v, err := h.svc.Create(httpserver.Context(c), auth.Current(c), prop, in)
	if err != nil {
		return apiError(err)
	}
	return c.Status(fiber.StatusCreated).JSON(toJSON(v))
}

func (h *Handler) get(c *fiber.Ctx) error {
	prop := properties.Scoped(c)
	v, err := h.svc.Get(httpserver.Context(c), prop, c.Params("violationId"))
	if err != nil {
		return apiError(err)
	}
	return c.JSON(toJSON(v))
}

// moveRequest is the optional body of a transition.
type moveRequest struct {
	Note string `json:"note" validate:"multiline"`
}

func (h *Handler) move(to string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		prop := properties.Scoped(c)
		var req moveRequest
		if len(c.Body()) > 0 {
			if err := httpserver.DecodeJSON(c, &req); err != nil {
				return err
			}
		}
		note := strings.TrimSpace(req.Note)
		if utf8.RuneCountInString(note) > 2000 {
			return apierror.Validation("note: must be at most 2000 characters")
		}
		v, err := h.svc.Move(httpserver.Context(c), auth.Current(c), prop, c.Params("violationId"), to, note)
		if err != nil {
			return apiError(err)
		}
		return c.JSON(toJSON(v))
	}
}
