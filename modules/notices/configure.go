package notices

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/database"
)

// Settings returns the workspace's notice settings.
func (s *Service) Settings(ctx context.Context, workspaceID int64) (*Settings, error) {
	return s.store.workspace(ctx, s.db, workspaceID)
}

// ChangeSettings applies a PATCH of the workspace's settings: body holds
// the known keys' values, unknown the problems of the others; every
// problem is answered in one 400 and nothing changes.
func (s *Service) ChangeSettings(ctx context.Context, workspaceID int64, body map[string]json.RawMessage, unknown []string) (*Settings, error) {
	var out *Settings
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		st, err := s.store.workspace(ctx, tx, workspaceID)
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
			return &InvalidError{Details: details}
		}
		st.UpdatedAt = s.now()
		if err := s.store.saveWorkspace(ctx, tx, st); err != nil {
			return err
		}
		out = st
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "notice_settings",
			RecordID: fmt.Sprint(workspaceID), WorkspaceID: workspaceID, Changes: activity.Diff(before, settingsView(st))})
	})
	return out, err
}

// ContractSettings returns the contract's own settings beside the
// workspace's and what is in effect.
func (s *Service) ContractSettings(ctx context.Context, k *contracts.Contract) (contractJSON, error) {
	ws, err := s.store.workspace(ctx, s.db, k.WorkspaceID)
	if err != nil {
		return contractJSON{}, err
	}
	own, err := s.store.contract(ctx, s.db, k.ID)
	if err != nil {
		return contractJSON{}, err
	}
	return contractView(k, ws, own), nil
}

// ChangeContractSettings applies a PATCH of the contract's own settings
// (null: as the workspace), as ChangeSettings does.
func (s *Service) ChangeContractSettings(ctx context.Context, k *contracts.Contract, body map[string]json.RawMessage, unknown []string) (contractJSON, error) {
	var view contractJSON
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		ws, err := s.store.workspace(ctx, tx, k.WorkspaceID)
		if err != nil {
			return err
		}
		own, err := s.store.contract(ctx, tx, k.ID)
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
			return &InvalidError{Details: details}
		}
		own.UpdatedAt = s.now()
		if err := s.store.saveContract(ctx, tx, own); err != nil {
			return err
		}
		view = contractView(k, ws, own)
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "contract_notice_settings",
			RecordID: k.ID.String(), WorkspaceID: k.WorkspaceID, Changes: activity.Diff(before, view)})
	})
	return view, err
}
