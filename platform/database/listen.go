package database

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"
)

// Subscriber is told what a PostgreSQL LISTEN connection sees.
type Subscriber interface {
	// Listening is called each time the connection listens (again). What
	// was sent while it was down is lost, so whatever the subscriber keeps
	// from notifications must start afresh here.
	Listening()
	// Lost is called when the connection drops; until the next Listening
	// the subscriber hears nothing and must not trust what it keeps.
	Lost()
	// Notified is called with the payload of each notification, in order.
	Notified(payload string)
}

// Listen keeps a connection of its own to the PostgreSQL server at url
// listening on channel, and tells sub what it sees, until ctx ends. A
// dropped connection is reopened after a pause that grows to 5 s. It
// returns when ctx ends.
func Listen(ctx context.Context, url, channel string, sub Subscriber, log *slog.Logger) {
	pause := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := listenOnce(ctx, url, channel, sub)
		sub.Lost()
		if ctx.Err() != nil {
			return
		}
		log.Warn("database: notifications lost; reconnecting", "channel", channel, "error", err, "retry_in", pause)
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, 5*time.Second)
	}
}

func listenOnce(ctx context.Context, url, channel string, sub Subscriber) error {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	// Named, so that ListenerCount finds the listeners of channel.
	cfg.RuntimeParams["application_name"] = listenerName(channel)
	connectCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	conn, err := pgx.ConnectConfig(connectCtx, cfg)
	cancel()
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = conn.Close(closeCtx)
	}()
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	sub.Listening()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		sub.Notified(n.Payload)
	}
}

// listenerName is the application_name of the connections Listen keeps
// for channel.
func listenerName(channel string) string { return "propman listen " + channel }

// ListenerCount returns, through db, how many connections of Listen listen
// on channel in this database now: every instance has one while it hears
// notifications. A notifier that must know everybody heard (see the
// accounts module) waits for that many acknowledgements.
func ListenerCount(ctx context.Context, db bun.IDB, channel string) (int, error) {
	var n int
	err := db.NewRaw("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?",
		listenerName(channel)).Scan(ctx, &n)
	if err != nil {
		return 0, fmt.Errorf("listeners of %s: %w", channel, err)
	}
	return n, nil
}
