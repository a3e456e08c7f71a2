package activity_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/propman/propman/platform/activity"
)

type view struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Notes     string   `json:"notes"`
	Amount    int64    `json:"amount"`
	Roles     []string `json:"roles"`
	Password  string   `json:"password_hash"`
	Content   string   `json:"content"`
	UpdatedAt string   `json:"updated_at"`
}

func TestDiffKeepsChangedFieldsOnly(t *testing.T) {
	before := view{ID: "1", Name: "A", Amount: 10, Roles: []string{"tenant"}, Password: "x", Content: "bytes", UpdatedAt: "t1"}
	after := before
	after.Name, after.Password, after.Content, after.UpdatedAt = "B", "y", "other bytes", "t2"
	got := activity.Diff(before, &after)
	if want := map[string]activity.Change{"name": {"A", "B"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("diff %v, want %v", got, want)
	}
	if d := activity.Diff(before, before); d != nil {
		t.Errorf("no change gave %v", d)
	}
}

func TestDiffOfANewRecordLeavesOutEmptyFields(t *testing.T) {
	got := activity.Diff(nil, view{ID: "1", Name: "A", Amount: 12345678901234567})
	if len(got) != 2 || got["name"] != (activity.Change{nil, "A"}) || fmt.Sprint(got["amount"][1]) != "12345678901234567" {
		t.Fatalf("diff %v", got)
	}
	// A number is a value even when zero; an empty string or list is not.
	if gone := activity.Diff(&view{Name: "A"}, nil); fmt.Sprint(gone) != "map[amount:[0 <nil>] name:[A <nil>]]" {
		t.Fatalf("deleted diff %v", gone)
	}
}

func TestDiffIsBounded(t *testing.T) {
	long := strings.Repeat("é", 500)
	got := activity.Diff(view{}, view{Notes: long, Roles: strings.Split(strings.Repeat("tenant,", 100), ",")})
	notes := got["notes"][1].(string)
	if utf8.RuneCountInString(notes) != activity.MaxText+1 || !strings.HasSuffix(notes, "…") {
		t.Errorf("notes kept %d characters", utf8.RuneCountInString(notes))
	}
	if roles, ok := got["roles"][1].(string); !ok || !strings.HasSuffix(roles, "…") {
		t.Errorf("a long list is kept whole: %v", got["roles"][1])
	}
	wide := map[string]any{}
	for i := range 100 {
		wide[fmt.Sprintf("f%03d", i)] = i
	}
	if n := len(activity.Diff(nil, wide)); n != activity.MaxFields {
		t.Errorf("%d fields kept, want %d", n, activity.MaxFields)
	}
}
