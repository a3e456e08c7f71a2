package httpserver

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestLazyDeadlineEndsAtItsDeadline(t *testing.T) {
	ctx := newLazyDeadline(context.Background(), time.Now().Add(30*time.Millisecond))
	defer ctx.release()
	if d, ok := ctx.Deadline(); !ok || d.IsZero() {
		t.Fatal("no deadline")
	}
	if ctx.Err() != nil {
		t.Fatal("ended early")
	}
	select {
	case <-ctx.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("Done did not close after the deadline")
	}
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("Err = %v, want DeadlineExceeded", ctx.Err())
	}
}

func TestLazyDeadlineReleaseCancels(t *testing.T) {
	ctx := newLazyDeadline(context.Background(), time.Now().Add(time.Hour))
	done := ctx.Done()
	ctx.release()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("release did not end the context")
	}
	untouched := newLazyDeadline(context.Background(), time.Now().Add(time.Hour))
	untouched.release()
	if !errors.Is(untouched.Err(), context.Canceled) {
		t.Fatalf("released context without a timer: Err = %v", untouched.Err())
	}
}

// A derived context (as database/sql makes) sees the deadline and ends with it.
func TestLazyDeadlineParentOfDerivedContext(t *testing.T) {
	ctx := newLazyDeadline(context.Background(), time.Now().Add(20*time.Millisecond))
	defer ctx.release()
	child, cancel := context.WithCancel(ctx)
	defer cancel()
	select {
	case <-child.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("derived context did not end with the deadline")
	}
}

type parentKey struct{}

// The context an outer handler set (tracing's span) stays visible through
// the deadline, its end ends it, and the earlier of the two deadlines holds.
func TestLazyDeadlineKeepsItsParent(t *testing.T) {
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), parentKey{}, "span"))
	ctx := newLazyDeadline(parent, time.Now().Add(time.Hour))
	defer ctx.release()
	if got := ctx.Value(parentKey{}); got != "span" {
		t.Fatalf("Value = %v, want the parent's", got)
	}
	done := ctx.Done()
	cancel()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("the parent's end did not end the deadline context")
	}
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatalf("Err = %v, want Canceled", ctx.Err())
	}

	soon := time.Now().Add(time.Minute)
	early, cancelEarly := context.WithDeadline(context.Background(), soon)
	defer cancelEarly()
	ctx = newLazyDeadline(early, time.Now().Add(time.Hour))
	defer ctx.release()
	if d, _ := ctx.Deadline(); !d.Equal(soon) {
		t.Fatalf("Deadline = %v, want the parent's %v", d, soon)
	}
}
