package logbuf

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// Lines written to different shards, in an order that jumps between them,
// come out in the order they were written; and the buffers a flush empties
// keep their room for the next.
func TestShardsMergeInWriteOrder(t *testing.T) {
	var out bytes.Buffer
	b := &Writer{w: &out, base: time.Now()}
	var want strings.Builder
	shardOf := []int{3, 0, 3, 15, 7, 0, 0, 15, 3, 1}
	for round := range 3 {
		for n, i := range shardOf {
			line := fmt.Sprintf("round %d line %d shard %d\n", round, n, i)
			want.WriteString(line)
			if _, err := b.writeShard(i, []byte(line)); err != nil {
				t.Fatal(err)
			}
		}
		var held [shardCount]int
		for i := range b.shards {
			held[i] = len(b.shards[i].buf)
		}
		if err := b.Flush(); err != nil {
			t.Fatal(err)
		}
		if got := out.String(); got != want.String() {
			t.Fatalf("round %d:\n got %q\nwant %q", round, got, want.String())
		}
		for i, n := range held {
			if sh := &b.shards[i]; len(sh.buf) != 0 || cap(sh.buf)+cap(sh.spare) < n {
				t.Fatalf("round %d: shard %d holds %d bytes after a flush, room for %d+%d, held %d before",
					round, i, len(sh.buf), cap(sh.buf), cap(sh.spare), n)
			}
		}
	}
	// A shard filled past size is written out by the write that filled it.
	out.Reset()
	big := strings.Repeat("x", size) + "\n"
	if _, err := b.writeShard(5, []byte(big)); err != nil {
		t.Fatal(err)
	}
	if out.String() != big {
		t.Fatalf("a full shard was not written out (%d bytes)", out.Len())
	}
}

// Lines written with their own time (access lines) come out by that time
// across shards; within a shard, never before a line written earlier.
func TestShardsMergeByLineTime(t *testing.T) {
	var out bytes.Buffer
	base := time.Now()
	b := &Writer{w: &out, base: base}
	at := func(ms int) time.Time { return base.Add(time.Duration(ms) * time.Millisecond) }
	writes := []struct {
		shard, ms int
		line      string
	}{
		{0, 30, "c\n"}, {1, 10, "a\n"}, {2, 20, "b\n"},
		{1, 40, "d\n"},
		// written after d into d's shard, with an earlier time: after d
		{1, 35, "e\n"},
		{0, 50, "f\n"},
	}
	for _, w := range writes {
		if _, err := b.writeShardAt(w.shard, []byte(w.line), at(w.ms)); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "a\nb\nc\nd\ne\nf\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
