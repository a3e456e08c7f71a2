// Package activity is the workspace's activity log: every write to a
// workspace's records adds one row saying who did what to which record,
// with a short diff of the fields it changed. The row is written through
// the handle of the change itself (its transaction), so the log and the
// records cannot disagree: a write that rolls back leaves no entry, and an
// entry that fails to be written fails the write.
//
// Who and where come from the request's context (auth.FromContext). Work
// without a principal (a command, a job, a test fixture writing directly)
// is logged with no user when the entry names its workspace, and not at
// all when it does not: a row needs a workspace to belong to.
package activity

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
)

// Actions, the verbs of Entry.Action the modules use.
const (
	Created    = "created"
	Updated    = "updated"
	Deleted    = "deleted"
	Archived   = "archived"
	Unarchived = "unarchived"
	Activated  = "activated"
	Terminated = "terminated"
	Reversed   = "reversed"
	Imported   = "imported"
	Refreshed  = "refreshed"
	Left       = "left"
	Removed    = "removed"
)

// Bounds of a diff: a log row stays small whatever the record holds.
const (
	// MaxFields is how many fields a diff keeps (the first in name order).
	MaxFields = 30
	// MaxText is how many characters a string value keeps; a longer one is
	// cut and ends with "…". A list or an object whose JSON is longer is
	// replaced by its cut JSON text.
	MaxText = 200
)

// Change is a field's value before and after the write; nil on the side
// where the record did not exist.
type Change = [2]any

// Entry is one write.
type Entry struct {
	// Action is the verb (Created, Updated, ...).
	Action string
	// RecordType names the kind of record ("property", "payment", ...).
	RecordType string
	// RecordID is the record's id as clients see it.
	RecordID string
	// Changes is the diff of the write (see Diff); nil for none.
	Changes map[string]Change
	// WorkspaceID is the workspace the record belongs to; 0 means the
	// workspace of the request's principal. An admin changing another
	// workspace's record names it here, so the entry lands in that log.
	WorkspaceID int64
}

// Row is a stored entry.
type Row struct {
	bun.BaseModel `bun:"table:activity,alias:a"`

	ID          int64             `bun:"id,pk,autoincrement"`
	WorkspaceID int64             `bun:"workspace_id,notnull"`
	UserID      *int64            `bun:"user_id"`
	Action      string            `bun:"action,notnull"`
	RecordType  string            `bun:"record_type,notnull"`
	RecordID    string            `bun:"record_id,notnull"`
	Changes     map[string]Change `bun:"changes,type:json,notnull"`
	CreatedAt   time.Time         `bun:"created_at,notnull"`
}

// Record writes e through db, which must be the handle of the change: the
// transaction it runs in, or, for a change of one statement, the caller
// wraps change and Record in database.RunInTx so that both commit together.
func Record(ctx context.Context, db bun.IDB, e Entry) error {
	return RecordAll(ctx, db, []Entry{e})
}

// insertBatch is how many rows one INSERT of RecordAll carries.
const insertBatch = 500

// RecordAll writes entries as Record does, with multi-row inserts: a
// write of many records (an import) logs each of them.
func RecordAll(ctx context.Context, db bun.IDB, entries []Entry) error {
	p, signedIn := auth.FromContext(ctx)
	var user *int64
	if signedIn && p.UserID != 0 {
		user = &p.UserID
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	rows := make([]Row, 0, len(entries))
	for _, e := range entries {
		ws := e.WorkspaceID
		if ws == 0 && signedIn {
			ws = p.WorkspaceID
		}
		if ws == 0 {
			continue
		}
		changes := e.Changes
		if changes == nil {
			changes = map[string]Change{}
		}
		rows = append(rows, Row{
			WorkspaceID: ws, UserID: user, Action: e.Action, RecordType: e.RecordType, RecordID: e.RecordID,
			Changes: changes, CreatedAt: now,
		})
	}
	for start := 0; start < len(rows); start += insertBatch {
		batch := rows[start:min(start+insertBatch, len(rows))]
		if _, err := database.Exec(ctx, db, db.NewInsert().Model(&batch).ExcludeColumn("id")); err != nil {
			return fmt.Errorf("record activity: %w", err)
		}
	}
	return nil
}

// Withdraw deletes, through db (the transaction that undoes the change),
// the entries of a record whose making was undone before anyone could use
// it: an invitation whose mail could not be sent, so that the log does not
// tell of one that never existed.
func Withdraw(ctx context.Context, db bun.IDB, workspaceID int64, recordType, recordID string) error {
	_, err := database.Exec(ctx, db, db.NewDelete().Model((*Row)(nil)).
		Where("workspace_id = ?", database.Param{V: workspaceID}).
		Where("record_type = ?", recordType).Where("record_id = ?", recordID))
	if err != nil {
		return fmt.Errorf("withdraw activity: %w", err)
	}
	return nil
}

// denied are the words of a field name whose value never goes into the
// log: secrets, and a document's bytes.
var denied = []string{"password", "token", "hash", "secret", "content", "bytes"}

// skipped are fields every record has that say nothing about the change.
var skipped = map[string]bool{"id": true, "created_at": true, "updated_at": true}

// Diff compares two views of a record, each anything that marshals to a
// JSON object (the module's response DTO, say), and returns the top-level
// fields whose values differ, as [before, after]. A nil view is a record
// that does not exist: Diff(nil, created) lists the new record's fields,
// Diff(deleted, nil) the old one's (fields without a value left out).
// Fields whose name contains a denied word are dropped; values and the
// number of fields are bounded (MaxText, MaxFields).
func Diff(before, after any) map[string]Change {
	b, a := view(before), view(after)
	names := make([]string, 0, len(a)+len(b))
	for k := range b {
		names = append(names, k)
	}
	for k := range a {
		if _, dup := b[k]; !dup {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	out := map[string]Change{}
	for _, k := range names {
		if skipped[k] || isDenied(k) {
			continue
		}
		bv, av := b[k], a[k]
		if reflect.DeepEqual(bv, av) || (b == nil && empty(av)) || (a == nil && empty(bv)) {
			continue
		}
		if len(out) == MaxFields {
			break
		}
		out[k] = Change{bound(bv), bound(av)}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// view marshals v and reads it back as a JSON object; numbers stay
// json.Number, so an amount in minor units keeps every digit.
func view(v any) map[string]any {
	if v == nil {
		return nil
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
		return nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil
	}
	return m
}

// empty is a value that says nothing about a record that is made or gone.
func empty(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case string:
		return t == ""
	case []any:
		return len(t) == 0
	case map[string]any:
		return len(t) == 0
	}
	return false
}

func isDenied(name string) bool {
	name = strings.ToLower(name)
	for _, d := range denied {
		if strings.Contains(name, d) {
			return true
		}
	}
	return false
}

// bound keeps v short: a long string is cut, a long list or object becomes
// its cut JSON text.
func bound(v any) any {
	switch t := v.(type) {
	case string:
		return cut(t)
	case []any, map[string]any:
		raw, err := json.Marshal(t)
		if err != nil || utf8.RuneCount(raw) > MaxText {
			return cut(string(raw))
		}
	}
	return v
}

func cut(s string) string {
	if utf8.RuneCountInString(s) <= MaxText {
		return s
	}
	r := []rune(s)
	return string(r[:MaxText]) + "…"
}
