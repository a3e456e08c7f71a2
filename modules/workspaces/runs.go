package workspaces

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/listing"
)

// runJSON is one periodic run of the workspace.
type runJSON struct {
	ID         int64          `json:"id"`
	Kind       string         `json:"kind"`
	LocalDate  string         `json:"local_date"`
	State      string         `json:"state"`
	Attempts   int            `json:"attempts"`
	Counts     map[string]int `json:"counts"`
	Problems   []string       `json:"problems"`
	Error      *string        `json:"error"`
	QueuedAt   string         `json:"queued_at"`
	StartedAt  *string        `json:"started_at"`
	FinishedAt *string        `json:"finished_at"`
}

func runOf(r *jobs.Run) runJSON {
	out := runJSON{
		ID: r.ID, Kind: r.Kind, LocalDate: r.LocalDate, State: r.State, Attempts: r.Attempts,
		Counts: r.Counts, Problems: r.Problems, Error: r.Error, QueuedAt: timestamp(r.QueuedAt),
	}
	if out.Counts == nil {
		out.Counts = map[string]int{}
	}
	if out.Problems == nil {
		out.Problems = []string{}
	}
	if r.StartedAt != nil {
		s := timestamp(*r.StartedAt)
		out.StartedAt = &s
	}
	if r.FinishedAt != nil {
		s := timestamp(*r.FinishedAt)
		out.FinishedAt = &s
	}
	return out
}

// runs lists the workspace's periodic runs, newest first, by cursor.
func (h *Handler) runs(c *fiber.Ctx) error {
	if c.Query("page") != "" {
		return fault.Validation("page: the runs are paged with after (the next of the previous answer)")
	}
	q, err := listing.Parse(c, listing.OneOf("kind", h.queue.Kinds()...))
	if err != nil {
		return err
	}
	var list []jobs.Run
	sel := h.queue.RunsSelect(&list, auth.Current(c).WorkspaceID)
	if kind := q.Get("kind"); kind != "" {
		sel = sel.Where("kind = ?", kind)
	}
	res, err := listing.Scan(httpserver.Context(c), sel, q.Uncounted(), listing.Desc("id"))
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("runs", list, runOf, res, q))
}
