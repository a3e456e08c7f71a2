// Package jobs is propman's background work: River (riverqueue/river) on
// the service's own database, PostgreSQL or SQLite, so a job is inserted in
// the transaction of the change that causes it (it exists exactly when the
// change does) and outlives restarts. Every instance may work jobs; an
// API-only instance (jobs.work false) inserts and never works one. River's
// leader election makes a periodic job run once per schedule however many
// instances run.
package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/database"
)

// Queue inserts jobs and, unless the instance is API-only, works them.
type Queue struct {
	client  *river.Client[*sql.Tx]
	workers *river.Workers
	db      *bun.DB
	cfg     config.Jobs
	log     *slog.Logger
	sched   *scheduler
}

// driver is River's driver for db: database/sql on both engines, so that
// River's transactions are the service's own (*sql.Tx under bun.Tx).
func driver(db *bun.DB) riverdriver.Driver[*sql.Tx] {
	if database.IsPostgres(db) {
		return riverdatabasesql.New(db.DB)
	}
	return riversqlite.New(db.DB)
}

// New makes the queue of db. Workers and periodic jobs are added by the
// modules (Register, Periodic) before the app starts (Start).
func New(cfg *config.Config, db *bun.DB, clk clock.Clock, log *slog.Logger) (*Queue, error) {
	q := &Queue{workers: river.NewWorkers(), db: db, cfg: cfg.Jobs, log: log}
	q.sched = &scheduler{db: db, queue: q, clock: clk, log: log, kinds: map[string]Kind{}}
	river.AddWorker(q.workers, &tickWorker{q: q})
	river.AddWorker(q.workers, &runWorker{s: q.sched})
	rc := &river.Config{
		Logger:               log.With("component", "jobs"),
		Workers:              q.workers,
		FetchPollInterval:    cfg.Jobs.Poll,
		FetchCooldown:        min(cfg.Jobs.Poll, 100*time.Millisecond),
		JobTimeout:           cfg.Jobs.Timeout,
		RescueStuckJobsAfter: cfg.Jobs.Rescue,
		MaxAttempts:          cfg.Jobs.Attempts,
		// River's database/sql drivers have no LISTEN; producers poll.
		PollOnly: true,
	}
	if cfg.Jobs.Work {
		rc.Queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: cfg.Jobs.Workers},
			MailQueue: {MaxWorkers: cfg.Jobs.MailWorkers}}
	}
	client, err := river.NewClient(driver(db), rc)
	if err != nil {
		return nil, fmt.Errorf("jobs: %w", err)
	}
	q.client = client
	q.Every(cfg.Jobs.Tick, "periodic_tick", func() river.JobArgs { return tickArgs{} })
	return q, nil
}

// MailQueue is the queue of outbound email (InsertOpts.Queue): its own
// workers (jobs.mailworkers), so thousands of notices to send do not
// hold up the periodic runs and receipts of the default queue.
const MailQueue = "mail"

// Start makes this instance work jobs, unless it is API-only.
func (q *Queue) Start(ctx context.Context) error {
	if !q.cfg.Work {
		return nil
	}
	// River's own context: the start context ends when starting does, and
	// River's work must go on until Stop.
	if err := q.client.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("jobs: start: %w", err)
	}
	return nil
}

// Stop finishes the jobs in hand (until ctx ends) and hands back River's
// leadership; the database must still be open.
func (q *Queue) Stop(ctx context.Context) error {
	if !q.cfg.Work {
		return nil
	}
	// Half of the time left for the jobs in hand to finish; then their
	// contexts are cancelled (a run stops between two properties, and is
	// done again, from where it stood, by another instance or the next
	// start).
	soft := ctx
	if deadline, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		soft, cancel = context.WithTimeout(ctx, time.Until(deadline)/2)
		defer cancel()
	}
	err := q.client.Stop(soft)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		q.log.Warn("jobs: cancelling the jobs still running at shutdown")
		err = q.client.StopAndCancel(ctx)
	}
	if err != nil {
		return fmt.Errorf("jobs: stop: %w", err)
	}
	return nil
}

// Register adds the worker of one kind of job; modules call it from their
// fx graph, before the app starts.
func Register[T river.JobArgs](q *Queue, w river.Worker[T]) {
	river.AddWorker(q.workers, w)
}

// Every inserts args every interval (the first an interval after the
// leader is elected) for the life of the app, on the leader only: once
// per schedule however many instances run.
func (q *Queue) Every(interval time.Duration, id string, args func() river.JobArgs) {
	// An API-only instance never leads, so it has no periodic jobs (River
	// refuses them on a client that works no queue).
	if !q.cfg.Work {
		return
	}
	q.client.PeriodicJobs().Add(river.NewPeriodicJob(river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) { return args(), nil },
		&river.PeriodicJobOpts{ID: id}))
}

// Insert queues a job. Given the transaction of a change (a bun.Tx), the
// job is part of it: it is queued when the change commits and never when
// it rolls back. Given the pool inside such a transaction, it fails as any
// query on the pool does there.
func (q *Queue) Insert(ctx context.Context, db bun.IDB, args river.JobArgs, opts *river.InsertOpts) (bool, error) {
	switch d := db.(type) {
	case bun.Tx:
		r, err := q.client.InsertTx(ctx, d.Tx, args, opts)
		if err != nil {
			return false, fmt.Errorf("jobs: insert %s: %w", args.Kind(), err)
		}
		return !r.UniqueSkippedAsDuplicate, nil
	case *bun.DB:
		if database.InTx(ctx) {
			return false, fmt.Errorf("jobs: insert %s on the pool inside a transaction: %w", args.Kind(), database.ErrPoolInTx)
		}
	}
	r, err := q.client.Insert(ctx, args, opts)
	if err != nil {
		return false, fmt.Errorf("jobs: insert %s: %w", args.Kind(), err)
	}
	return !r.UniqueSkippedAsDuplicate, nil
}

// InsertMany queues many jobs in the transaction of a change (a bun.Tx),
// as Insert queues one, in a few statements rather than a few a job (a
// bank statement's receipts).
func (q *Queue) InsertMany(ctx context.Context, tx bun.Tx, params []river.InsertManyParams) error {
	if len(params) == 0 {
		return nil
	}
	if _, err := q.client.InsertManyTx(ctx, tx.Tx, params); err != nil {
		return fmt.Errorf("jobs: insert %d %s: %w", len(params), params[0].Args.Kind(), err)
	}
	return nil
}

// Client is River's client, for River's web UI.
func (q *Queue) Client() *river.Client[*sql.Tx] { return q.client }

// Working reports whether this instance works jobs.
func (q *Queue) Working() bool { return q.cfg.Work }
