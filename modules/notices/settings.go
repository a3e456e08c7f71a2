package notices

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

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
