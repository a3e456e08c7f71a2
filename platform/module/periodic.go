package module

import (
	"context"
	"fmt"
	"time"

	"go.uber.org/fx"
)

// Every runs job every interval for the life of the app: from its start to
// its stop, which waits for a job in progress. Modules use it to re-read
// read-mostly data that an operator may change while instances run. An
// interval of 0 or less runs nothing.
func Every(lc fx.Lifecycle, name string, interval time.Duration, job func(ctx context.Context)) {
	if interval <= 0 {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			go func() {
				defer close(done)
				t := time.NewTicker(interval)
				defer t.Stop()
				for {
					select {
					case <-ctx.Done():
						return
					case <-t.C:
						job(ctx)
					}
				}
			}()
			return nil
		},
		OnStop: func(stopCtx context.Context) error {
			cancel()
			select {
			case <-done:
				return nil
			case <-stopCtx.Done():
				return fmt.Errorf("%s: the periodic job did not stop in time", name)
			}
		},
	})
}
