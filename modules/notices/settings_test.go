package notices_test

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/platform/testkit"
)

func (w *world) patch(path string, body any) *testkit.Response {
	return w.app.Do(testkit.Request{Method: http.MethodPatch, Path: path, Token: w.landlord.Token, Body: body})
}

// The settings: defaults until changed, every problem of a change named
// in one 400 that changes nothing, a contract's own choice over the
// workspace's, null to follow it again.
func TestNoticeSettings(t *testing.T) {
	w := newWorld(t, time.Date(2026, 11, 26, 10, 0, 0, 0, berlin), "en", "2026-12-01", "2027-11-30")
	const path = "/api/v1/notice-settings"
	defaults := w.app.Get(path, w.landlord.Token).Expect(http.StatusOK).Map()
	want := map[string]any{"rent_call": true, "rent_call_days_before": 5.0, "reminder": true, "reminder_days_after": []any{1.0, 7.0, 14.0},
		"reminder_step2_days": 7.0, "reminder_step3_days": 14.0, "receipt": true, "contract_end": true, "contract_end_days_before": 60.0, "rent_change": true, "updated_at": nil}
	if !reflect.DeepEqual(defaults, want) {
		t.Fatalf("defaults %v", defaults)
	}
	for _, bad := range []struct {
		body    any
		details int
	}{
		{map[string]any{}, 1},
		{map[string]any{"laundry": true, "reminder": "yes", "rent_call_days_before": 29}, 3},
		{map[string]any{"contract_end_days_before": -1, "receipt": nil}, 2},
		{map[string]any{"reminder_step2_days": 0, "reminder_step3_days": 91}, 2},
		{map[string]any{"reminder_step2_days": 7.5, "reminder_step3_days": "14"}, 2},
		{[]any{true}, 1},
	} {
		res := w.patch(path, bad.body).Expect(http.StatusBadRequest)
		if d, _ := res.Map()["details"].([]any); len(d) != bad.details {
			t.Errorf("%v: %s", bad.body, res.Body)
		}
	}
	if got := w.app.Get(path, w.landlord.Token).Expect(http.StatusOK).Map(); !reflect.DeepEqual(got, defaults) {
		t.Fatalf("a refused change changed %v into %v", defaults, got)
	}
	got := w.patch(path, map[string]any{"rent_call_days_before": 7, "reminder": false, "reminder_step2_days": 10}).Expect(http.StatusOK).Map()
	if got["rent_call_days_before"] != 7.0 || got["reminder"] != false || got["updated_at"] == nil || got["receipt"] != true ||
		got["reminder_step2_days"] != 10.0 || !reflect.DeepEqual(got["reminder_days_after"], []any{1.0, 10.0, 14.0}) {
		t.Fatalf("changed: %v", got)
	}

	cpath := "/api/v1/contracts/" + w.contract + "/notice-settings"
	c := w.app.Get(cpath, w.landlord.Token).Expect(http.StatusOK).Map()
	own, eff := c["own"].(map[string]any), c["effective"].(map[string]any)
	if own["reminder"] != nil || eff["reminder"] != false || eff["rent_call"] != true {
		t.Fatalf("contract settings %v", c)
	}
	w.patch(cpath, map[string]any{"reminder": "on"}).Expect(http.StatusBadRequest)
	w.patch(cpath, map[string]any{"rent_call_days_before": 3}).Expect(http.StatusBadRequest)
	c = w.patch(cpath, map[string]any{"reminder": true, "rent_call": false}).Expect(http.StatusOK).Map()
	own, eff = c["own"].(map[string]any), c["effective"].(map[string]any)
	if own["reminder"] != true || eff["reminder"] != true || eff["rent_call"] != false || own["receipt"] != nil {
		t.Fatalf("contract settings after the change %v", c)
	}
	c = w.patch(cpath, map[string]any{"reminder": nil}).Expect(http.StatusOK).Map()
	if eff = c["effective"].(map[string]any); eff["reminder"] != false {
		t.Fatalf("null did not follow the workspace again: %v", c)
	}
	// The ladder's delays: the contract's own over the workspace's, null
	// to follow it again; out of range refused.
	if c["reminder_step2_days"] != nil || !reflect.DeepEqual(c["reminder_days_after"], []any{1.0, 10.0, 14.0}) {
		t.Fatalf("contract delays %v", c)
	}
	w.patch(cpath, map[string]any{"reminder_step3_days": 0}).Expect(http.StatusBadRequest)
	c = w.patch(cpath, map[string]any{"reminder_step3_days": 21}).Expect(http.StatusOK).Map()
	if c["reminder_step3_days"] != 21.0 || !reflect.DeepEqual(c["reminder_days_after"], []any{1.0, 10.0, 21.0}) {
		t.Fatalf("contract delays after the change %v", c)
	}
	c = w.patch(cpath, map[string]any{"reminder_step3_days": nil}).Expect(http.StatusOK).Map()
	if c["reminder_step3_days"] != nil || !reflect.DeepEqual(c["reminder_days_after"], []any{1.0, 10.0, 14.0}) {
		t.Fatalf("contract delays back to the workspace's %v", c)
	}
	w.app.Get("/api/v1/contracts/00000000-0000-0000-0000-000000000000/notice-settings", w.landlord.Token).Expect(http.StatusNotFound)
}

// A kind switched off for a contract is not written for it (the run
// counts it), and is written once switched on again; a tenant without an
// email address reads the notice in the portal, in English here.
func TestSwitchedOffAndPortal(t *testing.T) {
	w := newWorld(t, time.Date(2026, 11, 26, 10, 0, 0, 0, berlin), "en", "2026-12-01", "2027-11-30")
	w.app.Do(testkit.Request{Method: http.MethodPut, Path: "/api/v1/contragents/" + w.tenant, Token: w.landlord.Token,
		Body: map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Anna Schmidt", "email": ""}}).Expect(http.StatusOK)
	w.patch("/api/v1/contracts/"+w.contract+"/notice-settings", map[string]any{"rent_call": false}).Expect(http.StatusOK)
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, berlin)
	w.at(t, day, 0, 30)
	w.at(t, day, 8, 0)
	var runs struct {
		Runs []struct {
			Kind   string         `json:"kind"`
			Counts map[string]int `json:"counts"`
		} `json:"runs"`
	}
	w.app.Get(fmt.Sprintf("/api/v1/workspaces/%d/runs?kind=notices", w.ws), w.landlord.Token).Expect(http.StatusOK).JSON(&runs)
	if len(runs.Runs) != 1 || runs.Runs[0].Counts["switched_off"] != 1 || runs.Runs[0].Counts["rent_calls"] != 0 {
		t.Fatalf("runs %+v", runs.Runs)
	}
	if m := w.messages(t); len(m) != 0 {
		t.Fatalf("a notice switched off was written: %+v", m)
	}
	w.patch("/api/v1/contracts/"+w.contract+"/notice-settings", map[string]any{"rent_call": nil}).Expect(http.StatusOK)
	w.at(t, day.AddDate(0, 0, 1), 8, 0)
	msgs := w.messages(t)
	if len(msgs) != 1 || msgs[0].Channel == nil || *msgs[0].Channel != "portal" || msgs[0].Subject != "Payment due on 2026-12-03 (agreement L-7)" ||
		!strings.Contains(msgs[0].Body, "Dear Anna Schmidt,") || !strings.Contains(msgs[0].Body, "- Rent, contract L-7 (2026-12): €950.00\nTotal: €950.00") {
		t.Fatalf("notices %+v", msgs)
	}
	if len(w.srv.Received()) != 0 {
		t.Fatalf("a portal notice went by mail")
	}
}

// Changes from many clients at once, more than the pool has connections:
// each is answered (every read of a change goes through its transaction,
// so none waits on the pool while holding one), and the last state is one
// of the changes, whole.
func TestSettingsChangedAtOnce(t *testing.T) {
	w := newWorld(t, time.Date(2026, 11, 26, 10, 0, 0, 0, berlin), "en", "2026-12-01", "2027-11-30",
		testkit.WithConfig("database.maxopen", 4), testkit.WithConfig("database.maxidle", 4))
	var wg sync.WaitGroup
	for i := range 24 {
		wg.Go(func() {
			path, body := "/api/v1/notice-settings", map[string]any{"rent_call_days_before": i % 10, "reminder": i%2 == 0}
			if i%2 == 1 {
				path, body = "/api/v1/contracts/"+w.contract+"/notice-settings", map[string]any{"receipt": i%4 == 1}
			}
			if res := w.patch(path, body); res.Status != http.StatusOK {
				t.Errorf("%s: %d %s", path, res.Status, res.Body)
			}
		})
	}
	wg.Wait()
	got := w.app.Get("/api/v1/notice-settings", w.landlord.Token).Expect(http.StatusOK).Map()
	if days := int(got["rent_call_days_before"].(float64)); got["reminder"] != (days%2 == 0) {
		t.Fatalf("the settings mix two changes: %v", got)
	}
}
