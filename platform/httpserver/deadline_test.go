package httpserver

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestLazyDeadlineEndsAtItsDeadline(t *testing.T) {
	ctx := &lazyDeadline{deadline: time.Now().Add(30 * time.Millisecond)}
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
	ctx := &lazyDeadline{deadline: time.Now().Add(time.Hour)}
	done := ctx.Done()
	ctx.release()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("release did not end the context")
	}
	untouched := &lazyDeadline{deadline: time.Now().Add(time.Hour)}
	untouched.release()
	if !errors.Is(untouched.Err(), context.Canceled) {
		t.Fatalf("released context without a timer: Err = %v", untouched.Err())
	}
}

// A derived context (as database/sql makes) sees the deadline and ends with it.
func TestLazyDeadlineParentOfDerivedContext(t *testing.T) {
	ctx := &lazyDeadline{deadline: time.Now().Add(20 * time.Millisecond)}
	defer ctx.release()
	child, cancel := context.WithCancel(ctx)
	defer cancel()
	select {
	case <-child.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("derived context did not end with the deadline")
	}
}
