package notices

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
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
	st, err := h.svc.store.workspace(httpserver.Context(c), h.svc.db, p.WorkspaceID)
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
	var out *Settings
	err = database.RunInTx(ctx, h.svc.db, func(ctx context.Context, tx bun.Tx) error {
		st, err := h.svc.store.workspace(ctx, tx, p.WorkspaceID)
		if err != nil {
			return err
		}
		before := settingsView(st)
		details := unknown
		for k, raw := range body {
			switch k {
			case "rent_call_days_before", "contract_end_days_before":
				limit, dst := MaxRentCallDays, &st.RentCallDays
				if k == "contract_end_days_before" {
					limit, dst = MaxContractEndDays, &st.ContractEndDays
				}
				var n int
				if json.Unmarshal(raw, &n) != nil || n < 0 || n > limit {
					details = append(details, fmt.Sprintf("%s: must be a whole number of days from 0 to %d", k, limit))
					continue
				}
				*dst = n
			case keyStep2, keyStep3:
				dst := &st.Step2Days
				if k == keyStep3 {
					dst = &st.Step3Days
				}
				var n int
				if json.Unmarshal(raw, &n) != nil || n < 1 || n > MaxStepDays {
					details = append(details, fmt.Sprintf("%s: must be a whole number of days from 1 to %d", k, MaxStepDays))
					continue
				}
				*dst = n
			default:
				var on bool
				if json.Unmarshal(raw, &on) != nil || string(raw) == "null" {
					details = append(details, k+": must be true or false")
					continue
				}
				switch k {
				case RentCall:
					st.RentCall = on
				case Reminder:
					st.Reminder = on
				case Receipt:
					st.Receipt = on
				case ContractEnd:
					st.ContractEnd = on
				case RentChange:
					st.RentChange = on
				}
			}
		}
		if len(details) > 0 {
			sort.Strings(details)
			return apierror.Validation(details...)
		}
		st.UpdatedAt = h.svc.now()
		if err := h.svc.store.saveWorkspace(ctx, tx, st); err != nil {
			return err
		}
		out = st
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "notice_settings",
			RecordID: fmt.Sprint(p.WorkspaceID), WorkspaceID: p.WorkspaceID, Changes: activity.Diff(before, settingsView(st))})
	})
	if err != nil {
		return err
	}
	return c.JSON(settingsView(out))
}

func (h *Handler) getContract(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	k, err := h.svc.authorizeContract(ctx, auth.Current(c), c.Params("contractId"))
	if err != nil {
		return err
	}
	ws, err := h.svc.store.workspace(ctx, h.svc.db, k.WorkspaceID)
	if err != nil {
		return err
	}
	own, err := h.svc.store.contract(ctx, h.svc.db, k.ID)
	if err != nil {
		return err
	}
	return c.JSON(contractView(k, ws, own))
}

func (h *Handler) patchContract(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	k, err := h.svc.authorizeContract(ctx, auth.Current(c), c.Params("contractId"))
	if err != nil {
		return err
	}
	body, unknown, err := fields(c, append(append([]string(nil), Kinds...), keyStep2, keyStep3))
	if err != nil {
		return err
	}
	var view contractJSON
	err = database.RunInTx(ctx, h.svc.db, func(ctx context.Context, tx bun.Tx) error {
		ws, err := h.svc.store.workspace(ctx, tx, k.WorkspaceID)
		if err != nil {
			return err
		}
		own, err := h.svc.store.contract(ctx, tx, k.ID)
		if err != nil {
			return err
		}
		before := contractView(k, ws, own)
		if own == nil {
			own = &ContractSettings{ContractID: k.ID, WorkspaceID: k.WorkspaceID}
		}
		details := unknown
		for name, raw := range body {
			if name == keyStep2 || name == keyStep3 {
				dst := &own.Step2Days
				if name == keyStep3 {
					dst = &own.Step3Days
				}
				var n *int
				if json.Unmarshal(raw, &n) != nil || (n != nil && (*n < 1 || *n > MaxStepDays)) {
					details = append(details, fmt.Sprintf("%s: must be a whole number of days from 1 to %d, or null (as the workspace)", name, MaxStepDays))
					continue
				}
				*dst = n
				continue
			}
			var v *bool
			if json.Unmarshal(raw, &v) != nil {
				details = append(details, name+": must be true, false or null (as the workspace)")
				continue
			}
			*own.field(name) = v
		}
		if len(details) > 0 {
			sort.Strings(details)
			return apierror.Validation(details...)
		}
		own.UpdatedAt = h.svc.now()
		if err := h.svc.store.saveContract(ctx, tx, own); err != nil {
			return err
		}
		view = contractView(k, ws, own)
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "contract_notice_settings",
			RecordID: k.ID.String(), WorkspaceID: k.WorkspaceID, Changes: activity.Diff(before, view)})
	})
	if err != nil {
		return err
	}
	return c.JSON(view)
}
