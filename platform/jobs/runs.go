package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
)

// A periodic run is one kind of work (billing, late fees, notices) done for
// one workspace on one of its local days, at the local time the workspace
// chose. The tick (every jobs.tick, on the leader) finds the workspaces
// whose time has come and queues a run for each: a job_runs row and its
// job in one transaction, the row's key (workspace, kind, local date)
// making it once a day however often the tick looks or how many instances
// tick. The run's job calls the kind's function; a function must be safe
// to run again (an instance may die in the middle, and River then tries the
// job again after jobs.rescue), which the kinds get from keys of their own
// (a charge per expense and period, a notice per kind, charge and step).

// Kind is one kind of periodic run.
type Kind struct {
	// Name is the run's kind in GET /workspaces/{id}/runs and the key of the
	// workspace's schedule.
	Name string
	// At is the local time ("HH:MM") of a workspace that has not chosen one.
	At string
	// After names the kinds whose run of the same workspace and day must be
	// done first when both are queued (the notices read what the billing
	// makes): the run waits while theirs is queued or running.
	After []string
	// Run does the work for the workspace on its local day and returns how
	// many things it did (by name) and what went wrong with single items
	// (the run goes on past them). An error fails the attempt: River tries
	// it again later.
	Run func(ctx context.Context, run Run) (counts map[string]int, problems []string, err error)
}

// Run is one periodic run of a kind for a workspace.
type Run struct {
	bun.BaseModel `bun:"table:job_runs"`

	ID          int64          `bun:"id,pk,autoincrement"`
	WorkspaceID int64          `bun:"workspace_id,notnull"`
	Kind        string         `bun:"kind,notnull"`
	LocalDate   string         `bun:"local_date,notnull"`
	State       string         `bun:"state,notnull"`
	Attempts    int            `bun:"attempts,notnull"`
	Counts      map[string]int `bun:"counts,type:json"`
	Problems    []string       `bun:"problems,type:json"`
	Error       *string        `bun:"error"`
	QueuedAt    time.Time      `bun:"queued_at,notnull"`
	StartedAt   *time.Time     `bun:"started_at"`
	FinishedAt  *time.Time     `bun:"finished_at"`
}

// The states of a run.
const (
	Queued   = "queued"
	Running  = "running"
	Finished = "finished"
	// Failed: its last attempt failed; River tries it again until
	// jobs.attempts, and the next attempt sets it running again.
	Failed = "failed"
)

// A run that comes after others of its day waits for them in its worker
// for up to afterWait, looking every afterPoll (they are usually short),
// then gives its worker back and is tried again after afterPause.
const (
	afterWait  = 5 * time.Second
	afterPoll  = 25 * time.Millisecond
	afterPause = 2 * time.Second
)

// waitFor reports whether a run of one of kinds, of run's workspace and
// day, is still queued or running after afterWait.
func (s *scheduler) waitFor(ctx context.Context, run *Run, kinds []string) (bool, error) {
	deadline := time.Now().Add(afterWait)
	for {
		waiting, err := database.Exists(ctx, s.db, s.db.NewSelect().Model((*Run)(nil)).
			Where("workspace_id = ?", database.Param{V: run.WorkspaceID}).Where("local_date = ?", run.LocalDate).
			Where("kind ?", database.In(kinds)).Where("state ?", database.In([]string{Queued, Running})))
		if err != nil || !waiting || time.Now().After(deadline) {
			return waiting, err
		}
		select {
		case <-ctx.Done():
			return true, nil
		case <-time.After(afterPoll):
		}
	}
}

// maxProblems bounds what one run records of its items' problems.
const maxProblems = 50

// Schedule is what a workspace says about its periodic runs.
type Schedule struct {
	WorkspaceID int64
	Location    *time.Location
	// At is the local time ("HH:MM") of each kind the workspace chose, or
	// "off"; a kind it did not name runs at the kind's At.
	At map[string]string
}

// Schedules pages through every workspace's schedule by id.
type Schedules interface {
	Schedules(ctx context.Context, afterID int64, limit int) ([]Schedule, error)
}

// runArgs is the job of one run.
type runArgs struct {
	RunID int64 `json:"run_id"`
}

func (runArgs) Kind() string { return "periodic_run" }

// tickArgs is the leader's periodic look for due runs.
type tickArgs struct{}

func (tickArgs) Kind() string { return "periodic_tick" }

// scheduler keeps the kinds and works the tick and the runs.
type scheduler struct {
	db        *bun.DB
	queue     *Queue
	clock     clock.Clock
	log       *slog.Logger
	kinds     map[string]Kind
	schedules Schedules
}

// Periodic adds a kind of periodic run; modules call it from their fx graph.
func (q *Queue) Periodic(k Kind) {
	if _, err := parseClock(k.At); err != nil {
		panic(fmt.Sprintf("jobs: kind %s: %v", k.Name, err))
	}
	q.sched.kinds[k.Name] = k
}

// SetSchedules tells the scheduler where the workspaces' schedules are (the
// workspaces module); without it no periodic run is queued.
func (q *Queue) SetSchedules(s Schedules) { q.sched.schedules = s }

// Kinds lists the names of the periodic kinds, sorted.
func (q *Queue) Kinds() []string {
	out := make([]string, 0, len(q.sched.kinds))
	for name := range q.sched.kinds {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Schedule is at with every kind's default filled in: what a workspace's
// runs will do.
func (q *Queue) Schedule(at map[string]string) map[string]string {
	out := make(map[string]string, len(q.sched.kinds))
	for name, k := range q.sched.kinds {
		out[name] = k.At
		if v, ok := at[name]; ok {
			out[name] = v
		}
	}
	return out
}

// parseClock reads "HH:MM" as minutes after midnight.
func parseClock(s string) (int, error) {
	t, err := time.Parse("15:04", s)
	if err != nil || len(s) != 5 {
		return 0, fmt.Errorf("%q is not a local time HH:MM", s)
	}
	return t.Hour()*60 + t.Minute(), nil
}

// ValidClock reports whether s is a schedule's time: "HH:MM" or "off".
func ValidClock(s string) bool {
	if s == "off" {
		return true
	}
	_, err := parseClock(s)
	return err == nil
}

// schedulePage is how many workspaces a tick reads at once.
const schedulePage = 500

// Tick queues every run whose local time has come today and that has not
// been queued yet. The leader calls it every jobs.tick; tests and
// operators may call it too.
func (q *Queue) Tick(ctx context.Context) (int, error) {
	s := q.sched
	if s.schedules == nil || len(s.kinds) == 0 {
		return 0, nil
	}
	now := s.clock.Now()
	queued := 0
	for after := int64(0); ; {
		page, err := s.schedules.Schedules(ctx, after, schedulePage)
		if err != nil {
			return queued, err
		}
		n, err := s.queueDue(ctx, page, now)
		queued += n
		if err != nil {
			return queued, err
		}
		if len(page) < schedulePage {
			return queued, nil
		}
		after = page[len(page)-1].WorkspaceID
	}
}

// queueDue queues the due runs of one page of workspaces: one read of the
// runs they already have today, then one transaction for the new ones.
func (s *scheduler) queueDue(ctx context.Context, page []Schedule, now time.Time) (int, error) {
	type key struct {
		ws         int64
		kind, date string
	}
	var due []key
	ids := make([]int64, 0, len(page))
	dates := map[string]bool{}
	for _, w := range page {
		local := now.In(w.Location)
		minute := local.Hour()*60 + local.Minute()
		for name, k := range s.kinds {
			at, ok := w.At[name]
			if !ok {
				at = k.At
			}
			if at == "off" {
				continue
			}
			m, err := parseClock(at)
			if err != nil || minute < m {
				continue
			}
			date := local.Format(time.DateOnly)
			due = append(due, key{w.WorkspaceID, name, date})
			ids = append(ids, w.WorkspaceID)
			dates[date] = true
		}
	}
	if len(due) == 0 {
		return 0, nil
	}
	var have []Run
	dateList := make([]string, 0, len(dates))
	for d := range dates {
		dateList = append(dateList, d)
	}
	err := database.Select(ctx, s.db, s.db.NewSelect().Model(&have).Column("workspace_id", "kind", "local_date").
		Where("workspace_id ?", database.In(ids)).Where("local_date ?", database.In(dateList)))
	if err != nil {
		return 0, fmt.Errorf("periodic runs: %w", err)
	}
	seen := map[key]bool{}
	for _, r := range have {
		seen[key{r.WorkspaceID, r.Kind, r.LocalDate}] = true
	}
	queued := 0
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		queued = 0
		for _, k := range due {
			if seen[k] {
				continue
			}
			r := &Run{WorkspaceID: k.ws, Kind: k.kind, LocalDate: k.date, State: Queued, QueuedAt: now,
				Counts: map[string]int{}, Problems: []string{}}
			err := database.Query(ctx, tx, tx.NewInsert().Model(r).
				On("CONFLICT (workspace_id, kind, local_date) DO NOTHING").Returning("id"), &r.ID)
			if errors.Is(err, sql.ErrNoRows) {
				continue // another tick queued it meanwhile
			}
			if err != nil {
				return fmt.Errorf("periodic run: %w", err)
			}
			if _, err := s.queue.Insert(ctx, tx, runArgs{RunID: r.ID}, nil); err != nil {
				return err
			}
			queued++
		}
		return nil
	})
	return queued, err
}

// tickWorker is the leader's periodic look.
type tickWorker struct {
	river.WorkerDefaults[tickArgs]
	q *Queue
}

func (w *tickWorker) Work(ctx context.Context, _ *river.Job[tickArgs]) error {
	_, err := w.q.Tick(ctx)
	return err
}

// runWorker does one run.
type runWorker struct {
	river.WorkerDefaults[runArgs]
	s *scheduler
}

func (w *runWorker) Work(ctx context.Context, job *river.Job[runArgs]) error {
	return w.s.work(ctx, job.Args.RunID)
}

// work does run id: a finished run is left alone (its job was tried again
// after it finished, say by a rescue), anything else is started again.
func (s *scheduler) work(ctx context.Context, id int64) error {
	run := new(Run)
	err := database.Select(ctx, s.db, s.db.NewSelect().Model(run).Where("id = ?", database.Param{V: id}))
	if errors.Is(err, sql.ErrNoRows) {
		return nil // its workspace is gone
	}
	if err != nil {
		return fmt.Errorf("periodic run %d: %w", id, err)
	}
	if run.State == Finished {
		return nil
	}
	kind, ok := s.kinds[run.Kind]
	if !ok {
		return fmt.Errorf("periodic run %d: no kind %q in this build", id, run.Kind)
	}
	if len(kind.After) > 0 {
		waiting, err := s.waitFor(ctx, run, kind.After)
		if err != nil {
			return fmt.Errorf("periodic run %d: %w", id, err)
		}
		if waiting {
			// A snooze is no failed attempt: it may wait out a rescue.
			return river.JobSnooze(afterPause)
		}
	}
	started := s.clock.Now()
	run.State, run.StartedAt, run.Attempts = Running, &started, run.Attempts+1
	if _, err := database.Exec(ctx, s.db, s.db.NewUpdate().Model(run).Column("state", "started_at", "attempts").
		Where("id = ?", database.Param{V: id})); err != nil {
		return fmt.Errorf("periodic run %d: %w", id, err)
	}
	counts, problems, runErr := kind.Run(ctx, *run)
	finished := s.clock.Now()
	run.FinishedAt = &finished
	if counts == nil {
		counts = map[string]int{}
	}
	if len(problems) > maxProblems {
		problems = append(problems[:maxProblems], fmt.Sprintf("and %d more", len(problems)-maxProblems))
	}
	run.Counts, run.Problems = counts, append([]string{}, problems...)
	run.State, run.Error = Finished, nil
	if runErr != nil {
		msg := runErr.Error()
		run.State, run.Error = Failed, &msg
		s.log.Warn("periodic run failed; it is tried again", "run", id, "kind", run.Kind, "workspace_id", run.WorkspaceID, "error", runErr)
	}
	// Recorded whatever the context says: a run stopped by a shutdown
	// still says how far it went.
	if _, err := database.Exec(context.WithoutCancel(ctx), s.db, s.db.NewUpdate().Model(run).
		Column("state", "finished_at", "counts", "problems", "error").Where("id = ?", database.Param{V: id})); err != nil {
		return errors.Join(runErr, fmt.Errorf("periodic run %d: %w", id, err))
	}
	return runErr
}

// RunsSelect is the query of a workspace's runs into list, for a listing
// (newest first by id).
func (q *Queue) RunsSelect(list *[]Run, workspaceID int64) *bun.SelectQuery {
	return q.db.NewSelect().Model(list).Where("workspace_id = ?", database.Param{V: workspaceID})
}
