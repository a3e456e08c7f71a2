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
	"github.com/propman/propman/platform/period"
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

// The dunning ladder (LANDLORD-CORE "Dunning ladder"): step 1 goes out
// the day after something fell due and is still owed; step 2 when
// Step2Days have passed since step 1 was sent, step 3 when Step3Days have
// passed since step 2, each only while something is still overdue. The
// delays are the workspace's (defaults below) or a contract's own.
const (
	FirstReminderDays = 1
	DefaultStep2Days  = 7
	DefaultStep3Days  = 14
	MaxStepDays       = 90
)

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
	Step2Days       int       `bun:"reminder_step2_days,notnull"`
	Step3Days       int       `bun:"reminder_step3_days,notnull"`
	UpdatedAt       time.Time `bun:"updated_at,notnull"`
}

func defaults(workspaceID int64) *Settings {
	return &Settings{WorkspaceID: workspaceID, RentCall: true, RentCallDays: DefaultRentCallDays, Reminder: true,
		Receipt: true, ContractEnd: true, ContractEndDays: DefaultContractEndDays, RentChange: true,
		Step2Days: DefaultStep2Days, Step3Days: DefaultStep3Days}
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
	Step2Days   *int      `bun:"reminder_step2_days"`
	Step3Days   *int      `bun:"reminder_step3_days"`
	UpdatedAt   time.Time `bun:"updated_at,notnull"`
}

// Delays are the days the ladder waits after step 1 and after step 2 for
// the contract under ws: its own, else the workspace's.
func (c *ContractSettings) Delays(ws *Settings) [2]int {
	d := [2]int{ws.Step2Days, ws.Step3Days}
	if c != nil && c.Step2Days != nil {
		d[0] = *c.Step2Days
	}
	if c != nil && c.Step3Days != nil {
		d[1] = *c.Step3Days
	}
	return d
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
		Set("rent_change = EXCLUDED.rent_change").Set("reminder_step2_days = EXCLUDED.reminder_step2_days").
		Set("reminder_step3_days = EXCLUDED.reminder_step3_days").Set("updated_at = EXCLUDED.updated_at"))
	if err != nil {
		return fmt.Errorf("save notice settings: %w", err)
	}
	return nil
}

func (s *store) saveContract(ctx context.Context, db bun.IDB, c *ContractSettings) error {
	_, err := database.Exec(ctx, db, db.NewInsert().Model(c).On("CONFLICT (contract_id) DO UPDATE").
		Set("rent_call = EXCLUDED.rent_call").Set("reminder = EXCLUDED.reminder").Set("receipt = EXCLUDED.receipt").
		Set("contract_end = EXCLUDED.contract_end").Set("rent_change = EXCLUDED.rent_change").
		Set("reminder_step2_days = EXCLUDED.reminder_step2_days").Set("reminder_step3_days = EXCLUDED.reminder_step3_days").
		Set("updated_at = EXCLUDED.updated_at"))
	if err != nil {
		return fmt.Errorf("save contract notice settings: %w", err)
	}
	return nil
}

// Dunning is where a contract in arrears stands on the ladder.
type Dunning struct {
	bun.BaseModel `bun:"table:notice_dunning"`

	ContractID  uuid.UUID   `bun:"contract_id,pk"`
	WorkspaceID int64       `bun:"workspace_id,notnull"`
	Since       period.Date `bun:"since,notnull"`
	Step        int         `bun:"step,notnull"`
	SentOn      period.Date `bun:"sent_on,notnull"`
	UpdatedAt   time.Time   `bun:"updated_at,notnull"`
}

// ladder is the workspace's contracts on the ladder, by contract.
func (s *store) ladder(ctx context.Context, db bun.IDB, workspaceID int64) (map[uuid.UUID]*Dunning, error) {
	var list []Dunning
	if err := database.Select(ctx, db, db.NewSelect().Model(&list).Where("workspace_id = ?", database.Param{V: workspaceID})); err != nil {
		return nil, fmt.Errorf("dunning: %w", err)
	}
	out := make(map[uuid.UUID]*Dunning, len(list))
	for i := range list {
		out[list[i].ContractID] = &list[i]
	}
	return out, nil
}

// climb records the step d now stands on, in the notice's transaction.
func (s *store) climb(ctx context.Context, db bun.IDB, d *Dunning) error {
	// A notice written twice (a retried run) leaves the step's day as it
	// was: only a higher step or a new arrear moves it.
	_, err := database.Exec(ctx, db, db.NewInsert().Model(d).On("CONFLICT (contract_id) DO UPDATE").
		Set("since = EXCLUDED.since").Set("step = EXCLUDED.step").Set("sent_on = EXCLUDED.sent_on").
		Set("updated_at = EXCLUDED.updated_at").
		Where("dunning.step < EXCLUDED.step OR dunning.since <> EXCLUDED.since"))
	if err != nil {
		return fmt.Errorf("dunning step: %w", err)
	}
	return nil
}

// release takes contracts off the ladder: their arrear is paid.
func (s *store) release(ctx context.Context, db bun.IDB, ids []uuid.UUID) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := database.Exec(ctx, db, db.NewDelete().Model((*Dunning)(nil)).Where("contract_id ?", database.In(ids)))
	if err != nil {
		return fmt.Errorf("end dunning: %w", err)
	}
	return nil
}
