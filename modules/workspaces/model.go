package workspaces

import (
	"time"

	"github.com/uptrace/bun"
)

// Workspace is a row of workspaces: one portfolio and the team that runs it.
type Workspace struct {
	bun.BaseModel `bun:"table:workspaces"`

	ID         int64  `bun:"id,pk,autoincrement"`
	Name       string `bun:"name,notnull"`
	LandlordID int64  `bun:"landlord_id,notnull"`
	// TimeZone (IANA) and Schedule (kind -> "HH:MM" or "off") say when the
	// periodic runs happen; see platform/jobs.
	TimeZone  string            `bun:"time_zone,notnull"`
	Schedule  map[string]string `bun:"schedule,type:json,notnull"`
	CreatedAt time.Time         `bun:"created_at,notnull"`
	UpdatedAt time.Time         `bun:"updated_at,notnull"`
}

// Member is a row of workspace_members: a user's role in a workspace.
type Member struct {
	bun.BaseModel `bun:"table:workspace_members"`

	WorkspaceID int64     `bun:"workspace_id,pk"`
	UserID      int64     `bun:"user_id,pk"`
	Role        string    `bun:"role,notnull"`
	IsDefault   bool      `bun:"is_default,notnull"`
	CreatedAt   time.Time `bun:"created_at,notnull"`
	UpdatedAt   time.Time `bun:"updated_at,notnull"`
}

// MemberView is a member with the user's name and email, as the members
// list shows them.
type MemberView struct {
	Member `bun:",extend"`

	Name  string `bun:"name"`
	Email string `bun:"email"`
}

// Mine is one of a user's workspaces with their role there.
type Mine struct {
	Workspace `bun:",extend"`

	Role      string `bun:"role"`
	IsDefault bool   `bun:"is_default"`
}
