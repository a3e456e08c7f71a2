package notices

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
)

// The settings of the dunning ladder's delays, in PATCH bodies.
const (
	keyStep2 = "reminder_step2_days"
	keyStep3 = "reminder_step3_days"
)

// Handler turns HTTP requests into settings reads and changes.
type Handler struct{ svc *Service }

// NewHandler returns the handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// settingsJSON is a workspace's settings as the API shows them.
type settingsJSON struct {
	RentCall        bool       `json:"rent_call"`
	RentCallDays    int        `json:"rent_call_days_before"`
	Reminder        bool       `json:"reminder"`
	ReminderDays    []int      `json:"reminder_days_after"`
	Step2Days       int        `json:"reminder_step2_days"`
	Step3Days       int        `json:"reminder_step3_days"`
	Receipt         bool       `json:"receipt"`
	ContractEnd     bool       `json:"contract_end"`
	ContractEndDays int        `json:"contract_end_days_before"`
	RentChange      bool       `json:"rent_change"`
	UpdatedAt       *time.Time `json:"updated_at"`
}

func settingsView(s *Settings) settingsJSON {
	v := settingsJSON{RentCall: s.RentCall, RentCallDays: s.RentCallDays, Reminder: s.Reminder,
		ReminderDays: []int{FirstReminderDays, s.Step2Days, s.Step3Days}, Step2Days: s.Step2Days, Step3Days: s.Step3Days,
		Receipt: s.Receipt, ContractEnd: s.ContractEnd, ContractEndDays: s.ContractEndDays, RentChange: s.RentChange}
	if !s.UpdatedAt.IsZero() {
		t := s.UpdatedAt
		v.UpdatedAt = &t
	}
	return v
}

// contractJSON is a contract's own choices and what follows from them.
type contractJSON struct {
	ContractID string           `json:"contract_id"`
	Own        map[string]*bool `json:"own"`
	Effective  map[string]bool  `json:"effective"`
	// The ladder's delays: the contract's own (null: the workspace's) and
	// the days in force.
	Step2Days    *int  `json:"reminder_step2_days"`
	Step3Days    *int  `json:"reminder_step3_days"`
	ReminderDays []int `json:"reminder_days_after"`
}

func contractView(c *contracts.Contract, ws *Settings, own *ContractSettings) contractJSON {
	d := own.Delays(ws)
	v := contractJSON{ContractID: c.ID.String(), Own: map[string]*bool{}, Effective: map[string]bool{},
		ReminderDays: []int{FirstReminderDays, d[0], d[1]}}
	if own != nil {
		v.Step2Days, v.Step3Days = own.Step2Days, own.Step3Days
	}
	for _, k := range Kinds {
		v.Own[k] = nil
		if own != nil {
			v.Own[k] = *own.field(k)
		}
		v.Effective[k] = own.On(ws, k)
	}
	return v
}

func (h *Handler) getSettings(c *fiber.Ctx) error {
	p := auth.Current(c)
	st, err := h.svc.Settings(httpserver.Context(c), p.WorkspaceID)
	if err != nil {
		return err
	}
	return c.JSON(settingsView(st))
}

// fields decodes a PATCH body, an object naming at least one setting: the
// known keys' values, and the problems of the others, to be answered with
// the values' problems in one 400.
func fields(c *fiber.Ctx, known []string) (map[string]json.RawMessage, []string, error) {
	var body map[string]json.RawMessage
	if err := httpserver.DecodeJSON(c, &body); err != nil {
		return nil, nil, err
	}
	if len(body) == 0 {
		return nil, nil, apierror.Validation("body: must be a JSON object naming at least one setting")
	}
	var details []string
	for k := range body {
		if !slices.Contains(known, k) {
			details = append(details, k+": is not a setting (known: "+strings.Join(known, ", ")+")")
			delete(body, k)
		}
	}
	return body, details, nil
}

func (h *Handler) patchSettings(c *fiber.Ctx) error {
	p := auth.Current(c)
	ctx := httpserver.Context(c)
	body, unknown, err := fields(c, append(append([]string(nil), Kinds...), "rent_call_days_before", "contract_end_days_before",
		keyStep2, keyStep3))
	if err != nil {
		return err
	}
	out, err := h.svc.ChangeSettings(ctx, p.WorkspaceID, body, unknown)
	if err != nil {
		return apiError(err)
	}
	return c.JSON(settingsView(out))
}

func (h *Handler) getContract(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	k, err := h.svc.AuthorizeContract(ctx, auth.Current(c), c.Params("contractId"))
	if err != nil {
		return err
	}
	view, err := h.svc.ContractSettings(ctx, k)
	if err != nil {
		return err
	}
	return c.JSON(view)
}

func (h *Handler) patchContract(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	k, err := h.svc.AuthorizeContract(ctx, auth.Current(c), c.Params("contractId"))
	if err != nil {
		return err
	}
	body, unknown, err := fields(c, append(append([]string(nil), Kinds...), keyStep2, keyStep3))
	if err != nil {
		return err
	}
	view, err := h.svc.ChangeContractSettings(ctx, k, body, unknown)
	if err != nil {
		return apiError(err)
	}
	return c.JSON(view)
}

// apiError is the one place the domain's errors become HTTP answers.
func apiError(err error) error {
	var invalid *InvalidError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNothingDue):
		return apierror.NotFound("Nothing of this contract falls due on that day and is still owed.")
	case errors.As(err, &invalid):
		return apierror.Validation(invalid.Details...)
	}
	return err
}
