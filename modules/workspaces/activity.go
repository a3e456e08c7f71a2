package workspaces

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
)

// The activity log of a workspace (platform/activity writes it): newest
// first, walked with ?after= only. The log grows with every write, so its
// pages are never counted (listing.Query.Uncounted) and ?page= is refused.

// activityJSON is one entry of the log.
type activityJSON struct {
	ID     int64  `json:"id"`
	UserID *int64 `json:"user_id"`
	// UserName is null when no user made the write or the user is gone.
	UserName   *string                    `json:"user_name"`
	Action     string                     `json:"action"`
	RecordType string                     `json:"record_type"`
	RecordID   string                     `json:"record_id"`
	Changes    map[string]activity.Change `json:"changes"`
	CreatedAt  string                     `json:"created_at"`
}

// ActivityFilter narrows the log to one kind of record or one record.
type ActivityFilter struct {
	RecordType string
	RecordID   string
}

// Activity returns one page of the log of p's workspace, newest first, and
// the names of the users it names.
func (s *Service) Activity(ctx context.Context, p auth.Principal, f ActivityFilter, q listing.Query) ([]activity.Row, map[int64]string, listing.Result, error) {
	list, res, err := activityPage(ctx, s.db, p.WorkspaceID, f, q)
	if err != nil {
		return nil, nil, listing.Result{}, err
	}
	names, err := s.userNames(ctx, list)
	if err != nil {
		return nil, nil, listing.Result{}, err
	}
	return list, names, res, nil
}

// userNames reads the names of the users of list in one query.
func (s *Service) userNames(ctx context.Context, list []activity.Row) (map[int64]string, error) {
	seen := map[int64]bool{}
	var ids []int64
	for _, r := range list {
		if r.UserID != nil && !seen[*r.UserID] {
			seen[*r.UserID] = true
			ids = append(ids, *r.UserID)
		}
	}
	names := make(map[int64]string, len(ids))
	if len(ids) == 0 {
		return names, nil
	}
	return userNames(ctx, s.db, ids, names)
}

func (h *Handler) activity(c *fiber.Ctx) error {
	if c.Query("page") != "" {
		return fault.Validation("page: the activity is paged with after (the next of the previous answer)")
	}
	q, err := listing.Parse(c, listing.Text("record_type", 32), listing.Text("record_id", 64))
	if err != nil {
		return err
	}
	f := ActivityFilter{RecordType: q.Get("record_type"), RecordID: q.Get("record_id")}
	if f.RecordID != "" && f.RecordType == "" {
		return fault.Validation("record_id: needs record_type")
	}
	list, names, res, err := h.svc.Activity(httpserver.Context(c), auth.Current(c), f, q)
	if err != nil {
		return err
	}
	out := make([]activityJSON, len(list))
	for i := range list {
		r := &list[i]
		out[i] = activityJSON{
			ID: r.ID, UserID: r.UserID, Action: r.Action, RecordType: r.RecordType, RecordID: r.RecordID,
			Changes: r.Changes, CreatedAt: timestamp(r.CreatedAt),
		}
		if r.UserID != nil {
			if name, ok := names[*r.UserID]; ok {
				out[i].UserName = &name
			}
		}
		if out[i].Changes == nil {
			out[i].Changes = map[string]activity.Change{}
		}
	}
	body := struct {
		Activity []activityJSON `json:"activity"`
		PerPage  int            `json:"per_page"`
		Next     *string        `json:"next"`
	}{Activity: out, PerPage: q.PerPage}
	if res.Next != "" {
		body.Next = &res.Next
	}
	return c.JSON(body)
}
