package notices

import (
	"context"

	"github.com/propman/propman/platform/jobs"
)

// SetNoticeBatches makes the notices run's batches size candidates, or
// (oneByOne) every notice its own transaction as before the batches, and
// calls after once each batch is written; an error of after stops the
// run there.
func SetNoticeBatches(s *Service, size int, oneByOne bool, after func() error) {
	s.batch = batchKnobs{size: size, oneByOne: oneByOne, after: after}
}

// RunNotices is the daily run of workspace ws on its local date day.
func RunNotices(ctx context.Context, s *Service, ws int64, day string) (map[string]int, []string, error) {
	return s.run(ctx, jobs.Run{WorkspaceID: ws, Kind: "notices", LocalDate: day})
}
