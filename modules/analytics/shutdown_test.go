package analytics_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/platform/boot"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/testkit"
)

// TestStopWritesEveryAcceptedEvent: clients keep sending while the
// service stops; every event answered 202 is in the database afterwards.
// The flush interval and the batch are so large that nothing is written
// before the stop but by the stop itself.
func TestStopWritesEveryAcceptedEvent(t *testing.T) {
	cfg := testkit.Config(t, map[string]any{"http.addr": "127.0.0.1:0",
		"modules.analytics.flush": "1m", "modules.analytics.batch": 10000, "modules.analytics.buffer": 1000000,
		"modules.analytics.bufferbytes": 1 << 30})
	addrs := make(chan net.Addr, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	app, err := boot.New(ctx, boot.Options{
		Config: cfg, Entries: modules.Catalog(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Listen: true, OnListen: func(a net.Addr) { addrs <- a },
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := app.Start(ctx); err != nil {
		t.Fatal(err)
	}
	url := "http://" + (<-addrs).String() + "/api/v1/analytics/track"
	body, _ := json.Marshal(events(50, "anon"))

	var accepted, unanswered atomic.Int64
	var sent sync.WaitGroup
	firstRound := make(chan struct{}, 8)
	stopping := make(chan struct{})
	for range 8 {
		sent.Add(1)
		go func() {
			defer sent.Done()
			client := &http.Client{Timeout: 10 * time.Second}
			for i := 0; ; i++ {
				res, err := client.Post(url, "application/json", bytes.NewReader(body))
				if err != nil {
					// The server is gone; it may have taken this
					// request and lost its answer on the way out.
					unanswered.Add(50)
					return
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode == http.StatusAccepted {
					accepted.Add(50)
				} else if res.StatusCode != http.StatusServiceUnavailable {
					t.Errorf("track: %d", res.StatusCode)
					return
				}
				if i == 5 {
					firstRound <- struct{}{}
				}
				select {
				case <-stopping:
					if i > 200 {
						return
					}
				default:
				}
			}
		}()
	}
	for range 8 {
		<-firstRound
	}
	close(stopping)
	stopCtx, stopCancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer stopCancel()
	if err := app.Stop(stopCtx); err != nil {
		t.Fatalf("stop: %v", err)
	}
	sent.Wait()

	db, err := database.Open(context.Background(), cfg.Database)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Every 202 is written; a request whose answer was lost in the stop
	// may be too (the client would send it again: at least once).
	n, ok := int64(count(t, db)), accepted.Load()
	if n < ok || n > ok+unanswered.Load() || ok < 8*6*50 {
		t.Fatalf("after the stop the database holds %d events; %d were accepted, %d sent without an answer", n, ok, unanswered.Load())
	}
	t.Logf("%d events accepted, %d written", ok, n)
}
