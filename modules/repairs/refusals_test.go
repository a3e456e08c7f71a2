package repairs_test

import (
	"bytes"
	"context"
	"errors"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// upload stores a file of the property and returns its document id.
func upload(t *testing.T, app *testkit.App, l lease, name string, content []byte) string {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	_ = w.WriteField("title", name)
	_ = w.WriteField("category", "photo")
	fw, _ := w.CreateFormFile("file", name)
	_, _ = fw.Write(content)
	_ = w.Close()
	return created(t, app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/properties/" + l.property + "/documents",
		Token: l.landlord.Token, Body: buf.Bytes(), Headers: map[string]string{"Content-Type": w.FormDataContentType()}}))
}

func count(t *testing.T, app *testkit.App, table string) int {
	t.Helper()
	var n int
	if err := app.DB.NewRaw("SELECT COUNT(*) FROM "+table).Scan(context.Background(), &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Bad input is a 400 that records nothing; another tenant, another
// workspace and a wrong state are refused; an unknown or expired link
// opens nothing.
func TestRepairRefusals(t *testing.T) {
	app := start(t, testkit.WithConfig("modules.documents.storage", "file:"+filepath.Join(t.TempDir(), "documents")))
	l := newLease(t, app, "en", "jobs@fixit.example")
	other := newLease(t, app, "en", "jobs@other.example")
	good := map[string]any{"title": "Window does not close", "description": "The bedroom window.", "category": "windows_doors", "urgency": "normal"}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for a, b := range good {
			m[a] = b
		}
		m[k] = v
		return m
	}
	text := upload(t, app, l, "notes.txt", []byte("not a picture\n"))
	png := upload(t, app, l, "window.png", append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 64)...))
	theirs := upload(t, app, other, "theirs.png", append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 64)...))
	before := count(t, app, "repair_requests")
	for name, body := range map[string]map[string]any{
		"category":                  with("category", "roof"),
		"urgency":                   with("urgency", "asap"),
		"title":                     with("title", ""),
		"photo not image":           with("photos", []string{text}),
		"photo of another property": with("photos", []string{theirs}),
		"photo not an id":           with("photos", []string{"x"}),
	} {
		if res := app.Post(l.tenantPath(), l.tenant.Token, body); res.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, res.Status, res.Body)
		}
	}
	if res := app.Post(l.memberPath(), l.landlord.Token, with("contract_id", other.contract)); res.Status != http.StatusBadRequest {
		t.Errorf("another property's contract: %d", res.Status)
	}
	if n := count(t, app, "repair_requests"); n != before {
		t.Fatalf("bad input recorded %d requests", n-before)
	}
	var r request
	app.Post(l.tenantPath(), l.tenant.Token, with("photos", []string{png})).Expect(http.StatusCreated).JSON(&r)
	one := l.memberPath() + "/" + r.ID

	// Another tenant: not through my contract, not through theirs.
	app.Get(l.tenantPath(), other.tenant.Token).Expect(http.StatusNotFound)
	app.Post(l.tenantPath(), other.tenant.Token, good).Expect(http.StatusNotFound)
	app.Get(other.tenantPath()+"/"+r.ID, other.tenant.Token).Expect(http.StatusNotFound)
	app.Post(other.tenantPath()+"/"+r.ID+"/slot", other.tenant.Token, map[string]any{"start": "2026-11-24T08:00:00Z"}).Expect(http.StatusNotFound)
	// A tenant reaching the member routes: 404, as for every property route.
	app.Get(one, l.tenant.Token).Expect(http.StatusNotFound)
	// Another workspace's landlord: the answers of every property route.
	app.Get(one, other.landlord.Token).Expect(http.StatusForbidden)
	app.Get(l.memberPath(), other.landlord.Token).Expect(http.StatusForbidden)
	app.Post(one+"/transition", other.landlord.Token, map[string]any{"to": "triaged"}).Expect(http.StatusForbidden)
	stranger := accountstest.NewUser(t, app)
	app.Get(l.tenantPath(), stranger.Token).Expect(http.StatusNotFound)
	// A request of another property under mine is not found.
	var theirsReq request
	app.Post(other.tenantPath(), other.tenant.Token, good).Expect(http.StatusCreated).JSON(&theirsReq)
	app.Get(l.memberPath()+"/"+theirsReq.ID, l.landlord.Token).Expect(http.StatusNotFound)

	// Wrong transitions.
	for _, to := range []string{"closed"} {
		if res := app.Post(one+"/transition", l.landlord.Token, map[string]any{"to": to}).Expect(http.StatusConflict); code(res) != "invalid_transition" {
			t.Errorf("reported to %s: %s", to, res.Body)
		}
	}
	app.Post(one+"/transition", l.landlord.Token, map[string]any{"to": "scheduled"}).Expect(http.StatusBadRequest)
	if res := app.Post(one+"/work-orders", l.landlord.Token, map[string]any{"provider_id": l.provider}).Expect(http.StatusConflict); code(res) != "invalid_transition" {
		t.Errorf("ordering a reported request: %s", res.Body)
	}
	app.Post(one+"/transition", l.landlord.Token, map[string]any{"to": "triaged"}).Expect(http.StatusOK)
	// Only a provider of this workspace.
	app.Post(one+"/work-orders", l.landlord.Token, map[string]any{"provider_id": other.provider}).Expect(http.StatusBadRequest)
	var tenantCG struct {
		Contragents []struct {
			ID string `json:"id"`
		} `json:"contragents"`
	}
	app.Get("/api/v1/contragents?role=tenant", l.landlord.Token).Expect(http.StatusOK).JSON(&tenantCG)
	app.Post(one+"/work-orders", l.landlord.Token, map[string]any{"provider_id": tenantCG.Contragents[0].ID}).Expect(http.StatusBadRequest)
	app.Get(one, l.landlord.Token).Expect(http.StatusOK).JSON(&r)
	if r.Status != "triaged" || r.WorkOrder != nil {
		t.Fatalf("a refused order changed the request: %+v", r)
	}

	// A mail that cannot go takes the order back, and the tenant hears nothing.
	app.Mail.Fail(errors.New("the mail server is down"))
	app.Post(one+"/work-orders", l.landlord.Token, map[string]any{"provider_id": l.provider}).Expect(http.StatusServiceUnavailable)
	app.Mail.Fail(nil)
	app.Get(one, l.landlord.Token).Expect(http.StatusOK).JSON(&r)
	if r.Status != "triaged" || r.WorkOrder != nil || count(t, app, "repair_work_orders") != 0 {
		t.Fatalf("a work order whose mail failed is kept: %+v", r)
	}
	for _, m := range l.thread(t, app) {
		if strings.HasPrefix(m.Subject, "Tradesperson instructed") {
			t.Error("the tenant is told of an order whose mail failed")
		}
	}

	token := l.order(t, app, r.ID)
	page := "/api/v1/work-orders/" + token
	// The English mail, to the word.
	m, _ := app.Mail.Last(l.email)
	for _, want := range []string{"Dear Klempnerei Wasser GmbH,", "Category: Windows and doors\nUrgency: Normal\nTo be completed by: 6 December 2026, 10:00 (UTC)\n",
		"Open this link to accept or decline the order, propose appointment times and report the work as completed:\nhttp://localhost:8080/work-orders/" + token,
		"The link is valid until 22 December 2026, 10:00 (UTC)."} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("the English work order mail lacks %q:\n%s", want, m.Text)
		}
	}
	if m.Subject != "Repair order: Window does not close" {
		t.Errorf("subject %q", m.Subject)
	}
	app.Post(page+"/accept", "", nil).Expect(http.StatusOK)
	app.Post(page+"/slots", "", map[string]any{"slots": []map[string]any{{"start": "2026-11-24T08:00:00Z", "end": "2026-11-24T07:00:00Z"}}}).
		Expect(http.StatusBadRequest)
	app.Post(page+"/slots", "", map[string]any{"slots": []map[string]any{{"start": "2026-11-24T08:00:00Z", "end": "2026-11-24T10:00:00Z"},
		{"start": "2026-11-24T12:00:00Z", "end": "2026-11-24T13:00:00Z"}}}).Expect(http.StatusOK)

	// Two picks at once: one wins.
	mine := l.tenantPath() + "/" + r.ID + "/slot"
	statuses := make([]int, 2)
	var wg sync.WaitGroup
	for i, start := range []string{"2026-11-24T08:00:00Z", "2026-11-24T12:00:00Z"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = app.Post(mine, l.tenant.Token, map[string]any{"start": start}).Status
		}()
	}
	wg.Wait()
	if !(statuses[0] == http.StatusOK) != (statuses[1] == http.StatusOK) || (statuses[0] != http.StatusConflict && statuses[1] != http.StatusConflict) {
		t.Errorf("two picks answered %v, want one 200 and one 409", statuses)
	}

	// Unknown tokens, then the real one once expired (30 days).
	for _, bad := range []string{"nope", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"} {
		if res := app.Get("/api/v1/work-orders/"+bad, "").Expect(http.StatusNotFound); code(res) != "work_order_not_found" {
			t.Errorf("unknown token: %s", res.Body)
		}
	}
	app.Get(page, "").Expect(http.StatusOK)
	app.Clock.Advance(30*24*time.Hour + time.Second)
	if res := app.Get(page, "").Expect(http.StatusNotFound); code(res) != "work_order_not_found" {
		t.Errorf("expired token: %s", res.Body)
	}
	app.Post(page+"/done", "", map[string]any{"note": "late"}).Expect(http.StatusNotFound)
	app.Get(one, l.landlord.Token).Expect(http.StatusOK).JSON(&r)
	if r.Status != "scheduled" {
		t.Errorf("an expired link changed the request: %s", r.Status)
	}
}

// The overdue list follows the clock: an emergency is overdue after 24
// hours, a normal request after 14 days, neither once closed or rejected,
// and only the workspace's own.
func TestOverdueRepairs(t *testing.T) {
	app := start(t)
	l := newLease(t, app, "en", "jobs@fixit.example")
	other := newLease(t, app, "en", "jobs@other.example")
	var emergency, normal, rejected request
	app.Post(l.memberPath(), l.landlord.Token, map[string]any{"title": "Burst pipe", "description": "Water everywhere.",
		"category": "plumbing", "urgency": "emergency", "contract_id": l.contract}).Expect(http.StatusCreated).JSON(&emergency)
	app.Post(l.tenantPath(), l.tenant.Token, map[string]any{"title": "Squeaky door", "description": "Front door.",
		"category": "windows_doors", "urgency": "normal"}).Expect(http.StatusCreated).JSON(&normal)
	app.Post(l.memberPath(), l.landlord.Token, map[string]any{"title": "Mice", "description": "In the cellar.",
		"category": "pests", "urgency": "urgent"}).Expect(http.StatusCreated).JSON(&rejected)
	app.Post(other.tenantPath(), other.tenant.Token, map[string]any{"title": "Theirs", "description": "x",
		"category": "other", "urgency": "emergency"}).Expect(http.StatusCreated)
	thread := l.thread(t, app)
	if len(thread) != 2 || thread[0].Subject != "Repair request received: Burst pipe" ||
		thread[0].Body != "We have recorded the repair request \u201cBurst pipe\u201d (Plumbing, urgency: Emergency). We will arrange the repair "+
			"and aim to have it done by 23 November 2026, 10:00 (UTC), and will keep you informed of every step." {
		t.Errorf("the English thread: %+v", thread)
	}
	overdue := func(query string) []string {
		t.Helper()
		var got list
		app.Get("/api/v1/repair-requests/overdue"+query, l.landlord.Token).Expect(http.StatusOK).JSON(&got)
		var ids []string
		for _, r := range got.Requests {
			ids = append(ids, r.ID)
		}
		return ids
	}
	if got := overdue(""); len(got) != 0 {
		t.Fatalf("overdue at once: %v", got)
	}
	app.Clock.Advance(24 * time.Hour)
	if got := overdue(""); len(got) != 0 {
		t.Fatalf("overdue at the deadline itself: %v", got)
	}
	app.Clock.Advance(time.Second)
	if got := overdue(""); len(got) != 1 || got[0] != emergency.ID {
		t.Fatalf("after 24 hours: %v, want the emergency", got)
	}
	app.Post(l.memberPath()+"/"+rejected.ID+"/transition", l.landlord.Token, map[string]any{"to": "rejected", "reason": "Pest control is the tenant's under the lease."}).
		Expect(http.StatusOK)
	app.Clock.Advance(14 * 24 * time.Hour)
	if got := overdue(""); len(got) != 2 || got[0] != emergency.ID || got[1] != normal.ID {
		t.Fatalf("after 15 days: %v, want the emergency then the normal one", got)
	}
	if got := overdue("?urgency=normal"); len(got) != 1 || got[0] != normal.ID {
		t.Errorf("normal only: %v", got)
	}
	// Keyset paging walks the same list.
	if ids := app.Walk("/api/v1/repair-requests/overdue", l.landlord.Token, "repair_requests", 1); len(ids) != 2 {
		t.Errorf("the walk: %v", ids)
	}
	app.Post(l.memberPath()+"/"+emergency.ID+"/transition", l.landlord.Token, map[string]any{"to": "rejected", "reason": "Duplicate."}).
		Expect(http.StatusOK)
	if got := overdue(""); len(got) != 1 || got[0] != normal.ID {
		t.Errorf("after rejecting the emergency: %v", got)
	}
	// The property's list filters by status and urgency.
	var got list
	app.Get(l.memberPath()+"?status=rejected", l.landlord.Token).Expect(http.StatusOK).JSON(&got)
	if len(got.Requests) != 2 {
		t.Errorf("rejected: %d", len(got.Requests))
	}
	app.Get(l.memberPath()+"?urgency=soon", l.landlord.Token).Expect(http.StatusBadRequest)
	// The tenant lists their contract's requests, the member-recorded one too.
	app.Get(l.tenantPath(), l.tenant.Token).Expect(http.StatusOK).JSON(&got)
	if len(got.Requests) != 2 {
		t.Errorf("the tenant sees %d requests, want 2 (the one without contract is not theirs)", len(got.Requests))
	}
}
