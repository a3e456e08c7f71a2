package workspaces

import (
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/jobs"
)

// workspaceJSON is a workspace as its members see it.
type workspaceJSON struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	// Role is the caller's role in it; IsDefault whether requests without
	// X-Workspace-ID act in it.
	Role       string `json:"role"`
	IsDefault  bool   `json:"is_default"`
	LandlordID int64  `json:"landlord_id"`
	TimeZone   string `json:"time_zone"`
	// Schedule is the local time ("HH:MM") or "off" of every kind of
	// periodic run, the defaults filled in.
	Schedule  map[string]string `json:"schedule"`
	CreatedAt string            `json:"created_at"`
	UpdatedAt string            `json:"updated_at"`
}

func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func workspaceOf(q *jobs.Queue, w *Workspace, role string, isDefault bool) workspaceJSON {
	return workspaceJSON{
		ID: w.ID, Name: w.Name, Role: role, IsDefault: isDefault, LandlordID: w.LandlordID,
		TimeZone: w.TimeZone, Schedule: q.Schedule(w.Schedule),
		CreatedAt: timestamp(w.CreatedAt), UpdatedAt: timestamp(w.UpdatedAt),
	}
}

type workspaceList struct {
	Workspaces []workspaceJSON `json:"workspaces"`
}

type updateRequest struct {
	Name     *string            `json:"name" validate:"omitnil,max=100"`
	TimeZone *string            `json:"time_zone" validate:"omitnil,max=64"`
	Schedule map[string]*string `json:"schedule" validate:"omitnil,max=10"`
}

// memberJSON is a member of a workspace.
type memberJSON struct {
	UserID    int64  `json:"user_id"`
	Name      string `json:"name"`
	Email     string `json:"email"`
	Role      string `json:"role"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

func memberOf(m *MemberView) memberJSON {
	return memberJSON{
		UserID: m.UserID, Name: m.Name, Email: m.Email, Role: m.Role,
		CreatedAt: timestamp(m.CreatedAt), UpdatedAt: timestamp(m.UpdatedAt),
	}
}

type roleRequest struct {
	Role string `json:"role" validate:"max=16"`
}

// userParam reads :userId; 404 when it is not a user id.
func userParam(c *fiber.Ctx) (int64, error) {
	id, err := strconv.ParseInt(c.Params("userId"), 10, 64)
	if err != nil || id <= 0 {
		return 0, fault.NotFound("No member of this workspace has this id.")
	}
	return id, nil
}
