package notices

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
)

// The notice kinds, as in the settings and the messages' notice keys.
const (
	RentCall    = "rent_call"
	Reminder    = "reminder"
	Receipt     = "receipt"
	ContractEnd = "contract_end"
	RentChange  = "rent_change"
)

// Kinds are the notice kinds in the order the settings list them.
var Kinds = []string{RentCall, Reminder, Receipt, ContractEnd, RentChange}

// The defaults of a workspace that chose nothing, and the bounds of what
// it may choose.
const (
	DefaultRentCallDays    = 5
	DefaultContractEndDays = 60
	MaxRentCallDays        = 28
	MaxContractEndDays     = 365
)

// ReminderSteps are the days after the due date a reminder goes out on,
// while the charge is still owed.
var ReminderSteps = []int{1, 7, 14}

// reminderWindow is how long after the due date a charge is still
// reminded of: the last step, and a month's slack for runs that did not
// happen (a stopped service catches up). A charge billed later than that
// (a back-dated contract's catch-up) is the landlord's to chase.
const reminderWindow = 45

// Settings is a workspace's choice of notices.
type Settings struct {
	bun.BaseModel `bun:"table:notice_settings"`

	WorkspaceID     int64     `bun:"workspace_id,pk"`
	RentCall        bool      `bun:"rent_call,notnull"`
	RentCallDays    int       `bun:"rent_call_days,notnull"`
	Reminder        bool      `bun:"reminder,notnull"`
	Receipt         bool      `bun:"receipt,notnull"`
	ContractEnd     bool      `bun:"contract_end,notnull"`
	ContractEndDays int       `bun:"contract_end_days,notnull"`
	RentChange      bool      `bun:"rent_change,notnull"`
	UpdatedAt       time.Time `bun:"updated_at,notnull"`
}

func defaults(workspaceID int64) *Settings {
	return &Settings{WorkspaceID: workspaceID, RentCall: true, RentCallDays: DefaultRentCallDays, Reminder: true,
		Receipt: true, ContractEnd: true, ContractEndDays: DefaultContractEndDays, RentChange: true}
}

// On tells whether the workspace sends kind.
func (s *Settings) On(kind string) bool {
	switch kind {
	case RentCall:
		return s.RentCall
	case Reminder:
		return s.Reminder
	case Receipt:
		return s.Receipt
	case ContractEnd:
		return s.ContractEnd
	case RentChange:
		return s.RentChange
	}
	return false
}

// ContractSettings is a contract's own choice; a nil kind follows the
// workspace.
type ContractSettings struct {
	bun.BaseModel `bun:"table:contract_notice_settings"`

	ContractID  uuid.UUID `bun:"contract_id,pk"`
	WorkspaceID int64     `bun:"workspace_id,notnull"`
	RentCall    *bool     `bun:"rent_call"`
	Reminder    *bool     `bun:"reminder"`
	Receipt     *bool     `bun:"receipt"`
	ContractEnd *bool     `bun:"contract_end"`
	RentChange  *bool     `bun:"rent_change"`
	UpdatedAt   time.Time `bun:"updated_at,notnull"`
}

// field is the contract's choice of kind.
func (c *ContractSettings) field(kind string) **bool {
	switch kind {
	case RentCall:
		return &c.RentCall
	case Reminder:
		return &c.Reminder
	case Receipt:
		return &c.Receipt
	case ContractEnd:
		return &c.ContractEnd
	case RentChange:
		return &c.RentChange
	}
	return nil
}

// On tells whether the contract's tenant gets kind under ws.
func (c *ContractSettings) On(ws *Settings, kind string) bool {
	if c != nil {
		if v := *c.field(kind); v != nil {
			return *v
		}
	}
	return ws.On(kind)
}

// store reads and writes the settings.
type store struct{ db *bun.DB }

// workspace is the workspace's settings (the defaults when it chose none),
// read through db.
func (s *store) workspace(ctx context.Context, db bun.IDB, workspaceID int64) (*Settings, error) {
	st := new(Settings)
	err := database.Select(ctx, db, db.NewSelect().Model(st).Where("workspace_id = ?", database.Param{V: workspaceID}))
	if errors.Is(err, sql.ErrNoRows) {
		return defaults(workspaceID), nil
	}
	if err != nil {
		return nil, fmt.Errorf("notice settings: %w", err)
	}
	return st, nil
}

// contract is the contract's own choice, nil when it made none.
func (s *store) contract(ctx context.Context, db bun.IDB, contractID uuid.UUID) (*ContractSettings, error) {
	c := new(ContractSettings)
	err := database.Select(ctx, db, db.NewSelect().Model(c).Where("contract_id = ?", contractID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("contract notice settings: %w", err)
	}
	return c, nil
}

// contracts are the choices of the workspace's contracts among ids, by
// contract: one statement for a page of candidates.
func (s *store) contracts(ctx context.Context, db bun.IDB, ids []uuid.UUID) (map[uuid.UUID]*ContractSettings, error) {
	out := make(map[uuid.UUID]*ContractSettings, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var list []ContractSettings
	if err := database.Select(ctx, db, db.NewSelect().Model(&list).Where("contract_id ?", database.In(ids))); err != nil {
		return nil, fmt.Errorf("contract notice settings: %w", err)
	}
	for i := range list {
		out[list[i].ContractID] = &list[i]
	}
	return out, nil
}

func (s *store) saveWorkspace(ctx context.Context, db bun.IDB, st *Settings) error {
	_, err := database.Exec(ctx, db, db.NewInsert().Model(st).On("CONFLICT (workspace_id) DO UPDATE").
		Set("rent_call = EXCLUDED.rent_call").Set("rent_call_days = EXCLUDED.rent_call_days").
		Set("reminder = EXCLUDED.reminder").Set("receipt = EXCLUDED.receipt").
		Set("contract_end = EXCLUDED.contract_end").Set("contract_end_days = EXCLUDED.contract_end_days").
		Set("rent_change = EXCLUDED.rent_change").Set("updated_at = EXCLUDED.updated_at"))
	if err != nil {
		return fmt.Errorf("save notice settings: %w", err)
	}
	return nil
}

func (s *store) saveContract(ctx context.Context, db bun.IDB, c *ContractSettings) error {
	_, err := database.Exec(ctx, db, db.NewInsert().Model(c).On("CONFLICT (contract_id) DO UPDATE").
		Set("rent_call = EXCLUDED.rent_call").Set("reminder = EXCLUDED.reminder").Set("receipt = EXCLUDED.receipt").
		Set("contract_end = EXCLUDED.contract_end").Set("rent_change = EXCLUDED.rent_change").
		Set("updated_at = EXCLUDED.updated_at"))
	if err != nil {
		return fmt.Errorf("save contract notice settings: %w", err)
	}
	return nil
}
