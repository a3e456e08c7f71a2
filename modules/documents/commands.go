package documents

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/module"
)

const sweepUsage = "sweep   remove stored files that have no document (older than modules.documents.sweepage)"

// sweepCommand is `propman documents sweep`.
func sweepCommand() module.Command {
	return module.Command{Name: Name, Usage: sweepUsage, Run: func(ctx context.Context, env module.CommandEnv, args []string) error {
		if len(args) != 1 || args[0] != "sweep" {
			return errors.New("usage: propman documents " + sweepUsage)
		}
		cfg, err := NewConfig(env.Config)
		if err != nil {
			return err
		}
		storage, err := OpenStorage(ctx, cfg)
		if err != nil {
			return err
		}
		svc := NewService(ServiceParams{Config: cfg, Store: NewStore(env.DB), Storage: storage, Clock: clock.Real{},
			Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
		res, err := svc.Sweep(ctx, time.Now().Add(-cfg.SweepAge))
		fmt.Fprintf(env.Out, "%s: %d stored files, %d without a document removed, %d unfinished uploads removed\n",
			storage, res.Blobs, res.Removed, res.Abandoned)
		return err
	}}
}
