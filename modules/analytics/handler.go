package analytics

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"go.uber.org/fx"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/httpserver"
)

// Handler turns HTTP requests into buffered events and summaries.
type Handler struct {
	buf        *Buffer
	guard      *auth.Guard
	workspaces auth.Workspaces
	clock      clock.Clock
}

// HandlerParams are the handler's dependencies; Workspaces is absent when
// the workspaces module is switched off, and signed-in events then carry
// no workspace.
type HandlerParams struct {
	fx.In
	Buffer     *Buffer
	Guard      *auth.Guard
	Workspaces auth.Workspaces `optional:"true"`
	Clock      clock.Clock
}

// NewHandler returns the handler.
func NewHandler(p HandlerParams) *Handler {
	return &Handler{buf: p.Buffer, guard: p.Guard, workspaces: p.Workspaces, clock: p.Clock}
}

type trackJSON struct {
	Accepted int `json:"accepted"`
}

func (h *Handler) track(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	var userID, workspaceID int64
	// A token is optional; a token sent and not valid is a 401, not an
	// anonymous event: a client whose session ended should learn it
	// rather than have its events counted for nobody.
	if header := c.Get(fiber.HeaderAuthorization); header != "" {
		httpserver.NoStore(c)
		p, err := h.guard.Authenticate(ctx, header)
		if err != nil {
			return err
		}
		userID = p.UserID
		if workspaceID, err = h.workspace(c, p.UserID); err != nil {
			return err
		}
	}
	var req trackRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	events, size, err := toEvents(&req, h.clock.Now(), userID, workspaceID)
	if err != nil {
		return err
	}
	switch err := h.buf.Add(events, size); {
	case errors.Is(err, ErrFull):
		e := apierror.RateLimited(1)
		e.Message = "Too many events are waiting to be written; send these again in a second."
		return e
	case errors.Is(err, ErrClosed):
		e := apierror.Unavailable("The service is stopping; send these events again.")
		e.RetryAfter = 1
		return e
	}
	return c.Status(http.StatusAccepted).JSON(trackJSON{Accepted: len(events)})
}

// workspace is the workspace a signed-in request acts in, as the guard
// resolves it (X-Workspace-ID, else the user's default), 0 without the
// workspaces module.
func (h *Handler) workspace(c *fiber.Ctx, userID int64) (int64, error) {
	if h.workspaces == nil {
		return 0, nil
	}
	var id int64
	if raw := strings.TrimSpace(c.Get(auth.WorkspaceHeader)); raw != "" {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || n <= 0 {
			return 0, apierror.Validation(auth.WorkspaceHeader + ": must be the id of a workspace (a positive integer)")
		}
		id = n
	}
	m, err := h.workspaces.Membership(httpserver.Context(c), userID, id)
	switch {
	case errors.Is(err, auth.ErrNotMember), errors.Is(err, auth.ErrTenant):
		if id == 0 {
			return 0, nil // a user without a workspace of their own
		}
		return 0, auth.NotAMember()
	case err != nil:
		return 0, err
	}
	return m.WorkspaceID, nil
}

// maxWindow is the longest summary window, in days.
const maxWindow = 366

type dayJSON struct {
	Date      string `json:"date"`
	Events    int64  `json:"events"`
	Users     int64  `json:"users"`
	Anonymous int64  `json:"anonymous"`
}

type totalsJSON struct {
	Events    int64 `json:"events"`
	Users     int64 `json:"users"`
	Anonymous int64 `json:"anonymous"`
}

type summaryJSON struct {
	From   string     `json:"from"`
	To     string     `json:"to"`
	Name   *string    `json:"name"`
	Days   []dayJSON  `json:"days"`
	Totals totalsJSON `json:"totals"`
}

func (h *Handler) summary(c *fiber.Ctx) error {
	today := h.clock.Now().UTC()
	today = time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
	var details []string
	date := func(param string, def time.Time) time.Time {
		raw := c.Query(param)
		if raw == "" {
			return def
		}
		t, err := time.Parse(time.DateOnly, raw)
		if err != nil {
			details = append(details, param+": must be a date YYYY-MM-DD")
		}
		return t
	}
	to := date("to", today)
	from := date("from", to.AddDate(0, 0, -29))
	name := strings.TrimSpace(c.Query("name"))
	if utf8.RuneCountInString(name) > MaxNameLen {
		details = append(details, fmt.Sprintf("name: at most %d characters", MaxNameLen))
	}
	if len(details) == 0 {
		switch days := int(to.Sub(from).Hours()/24) + 1; {
		case days < 1:
			details = append(details, "from: must not be after to")
		case days > maxWindow:
			details = append(details, fmt.Sprintf("from: the window is at most %d days", maxWindow))
		}
	}
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	rows, total, err := h.buf.Summary(httpserver.Context(c), from.Format(time.DateOnly), to.Format(time.DateOnly), name)
	if err != nil {
		return err
	}
	out := summaryJSON{From: from.Format(time.DateOnly), To: to.Format(time.DateOnly),
		Totals: totalsJSON{Events: total.Events, Users: total.Users, Anonymous: total.Anonymous}}
	if name != "" {
		out.Name = &name
	}
	// Every day of the window, those without events as zeros, so a chart
	// needs no gaps filled.
	i := 0
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		day := dayJSON{Date: d.Format(time.DateOnly)}
		if i < len(rows) && rows[i].Day == day.Date {
			day.Events, day.Users, day.Anonymous = rows[i].Events, rows[i].Users, rows[i].Anonymous
			i++
		}
		out.Days = append(out.Days, day)
	}
	return c.JSON(out)
}
