package workspaces_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/testkit"
)

type activityEntry struct {
	ID         int64            `json:"id"`
	UserID     *int64           `json:"user_id"`
	UserName   *string          `json:"user_name"`
	Action     string           `json:"action"`
	RecordType string           `json:"record_type"`
	RecordID   string           `json:"record_id"`
	Changes    map[string][]any `json:"changes"`
	CreatedAt  string           `json:"created_at"`
}

type activityPage struct {
	Activity []activityEntry `json:"activity"`
	Next     *string         `json:"next"`
}

// feed reads one page of the workspace's log as token.
func feed(t *testing.T, app *testkit.App, ws int64, token, query string) activityPage {
	t.Helper()
	var p activityPage
	app.Get(fmt.Sprintf("/api/v1/workspaces/%d/activity%s", ws, query), token).Expect(http.StatusOK).JSON(&p)
	return p
}

// logRows counts the rows of the activity table: what a refused write must
// leave as it was.
func logRows(t *testing.T, app *testkit.App) int {
	t.Helper()
	n, err := database.Count(context.Background(), app.DB, app.DB.NewSelect().Table("activity"))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A manager's writes show in the owner's feed, newest first, with the
// manager's id and only the fields each write changed; refused writes
// (400, 409, and the guard's 403) leave nothing.
func TestActivityOfATeamsWrites(t *testing.T) {
	app := testkit.Start(t)
	owner, manager, viewer := accountstest.NewUser(t, app), accountstest.NewUser(t, app), accountstest.NewUser(t, app)
	ws := workspaceOf(t, app, owner.Token)
	join(t, app, ws, manager, auth.Manager)
	join(t, app, ws, viewer, auth.Viewer)
	rows := logRows(t, app)

	id := created(t, in(app, ws, http.MethodPost, "/api/v1/properties", manager.Token, map[string]any{"name": "Flat", "country_code": "DE", "city": "Berlin"}))
	in(app, ws, http.MethodPut, "/api/v1/properties/"+id, manager.Token, map[string]any{"name": "Flat 2", "country_code": "DE"}).Expect(200)
	// The same values again change nothing and log nothing.
	in(app, ws, http.MethodPut, "/api/v1/properties/"+id, manager.Token, map[string]any{"name": "Flat 2"}).Expect(200)

	// Refused: bad input, a conflict, and the guard's role check.
	in(app, ws, http.MethodPost, "/api/v1/properties", manager.Token, map[string]any{"name": "X", "country_code": "ZZ"}).Expect(400)
	in(app, ws, http.MethodPut, "/api/v1/properties/"+id, manager.Token, map[string]any{"currency": "nope"}).Expect(400)
	tenant := created(t, in(app, ws, http.MethodPost, "/api/v1/contragents", manager.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Tenant"}))
	contract := map[string]any{"property_id": id, "tenant_id": tenant, "number": "L-1"}
	cid := created(t, in(app, ws, http.MethodPost, "/api/v1/contracts", manager.Token, contract))
	if res := in(app, ws, http.MethodPost, "/api/v1/contracts", manager.Token, contract).Expect(http.StatusConflict); errorCode(t, res) != "number_exists" {
		t.Fatalf("a second L-1: %s", res.Body)
	}
	in(app, ws, http.MethodPost, "/api/v1/properties", viewer.Token, map[string]any{"name": "Y", "country_code": "DE"}).Expect(http.StatusForbidden)
	in(app, ws, http.MethodDelete, "/api/v1/properties/"+id, viewer.Token, nil).Expect(http.StatusForbidden)

	in(app, ws, http.MethodDelete, "/api/v1/contracts/"+cid, manager.Token, nil).Expect(http.StatusNoContent)
	in(app, ws, http.MethodDelete, "/api/v1/properties/"+id, manager.Token, nil).Expect(http.StatusNoContent)

	// Exactly the successful writes: property created, updated, contragent
	// created, contract created and deleted, property deleted.
	if got := logRows(t, app) - rows; got != 6 {
		t.Fatalf("%d new activity rows, want 6", got)
	}
	page := feed(t, app, ws, owner.Token, "")
	var got []string
	for _, e := range page.Activity {
		got = append(got, e.Action+" "+e.RecordType)
		if e.UserID == nil || *e.UserID != manager.ID || e.UserName == nil || *e.UserName == "" {
			t.Errorf("entry %d: user %v (%v), want the manager %d", e.ID, e.UserID, e.UserName, manager.ID)
		}
		if e.CreatedAt == "" {
			t.Errorf("entry %d has no created_at", e.ID)
		}
	}
	want := []string{"deleted property", "deleted contract", "created contract", "created contragent", "updated property", "created property"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("feed %v\nwant %v", got, want)
	}
	if page.Next != nil {
		t.Errorf("one page, yet next %q", *page.Next)
	}
	byAction := map[string]activityEntry{}
	for _, e := range page.Activity {
		if e.RecordType == "property" {
			byAction[e.Action] = e
		}
	}
	if upd := byAction["updated"]; upd.RecordID != id || !reflect.DeepEqual(upd.Changes, map[string][]any{"name": {"Flat", "Flat 2"}}) {
		t.Errorf("update entry %+v, want only name Flat -> Flat 2", upd)
	}
	made := byAction["created"].Changes
	if made["name"][1] != "Flat" || made["city"][1] != "Berlin" || made["currency"][1] != "EUR" || made["name"][0] != nil {
		t.Errorf("create entry changes %v", made)
	}
	for _, skip := range []string{"id", "created_at", "updated_at", "address", "archived_at"} {
		if _, ok := made[skip]; ok {
			t.Errorf("create entry carries %s: %v", skip, made)
		}
	}
	if gone := byAction["deleted"].Changes; gone["name"][0] != "Flat 2" || gone["name"][1] != nil {
		t.Errorf("delete entry changes %v", gone)
	}
}

// Owner and manager read the feed; accountant, viewer, a stranger and no
// token do not.
func TestActivityFeedNeedsAManager(t *testing.T) {
	app := testkit.Start(t)
	owner, manager, accountant, viewer, stranger := accountstest.NewUser(t, app), accountstest.NewUser(t, app),
		accountstest.NewUser(t, app), accountstest.NewUser(t, app), accountstest.NewUser(t, app)
	ws := workspaceOf(t, app, owner.Token)
	join(t, app, ws, manager, auth.Manager)
	join(t, app, ws, accountant, auth.Accountant)
	join(t, app, ws, viewer, auth.Viewer)
	path := fmt.Sprintf("/api/v1/workspaces/%d/activity", ws)
	app.Get(path, owner.Token).Expect(200)
	app.Get(path, manager.Token).Expect(200)
	app.Get(path, accountant.Token).Expect(http.StatusForbidden)
	app.Get(path, viewer.Token).Expect(http.StatusForbidden)
	if res := app.Get(path, stranger.Token).Expect(http.StatusForbidden); errorCode(t, res) != "not_a_member" {
		t.Errorf("a stranger: %s", res.Body)
	}
	app.Get(path, "").Expect(http.StatusUnauthorized)
}

// Newest first, keyset pages with next, filters by record; bad paging and
// filters are a 400.
func TestActivityPagingAndFilter(t *testing.T) {
	app := testkit.Start(t)
	owner := accountstest.NewUser(t, app)
	ws := workspaceOf(t, app, owner.Token)
	var ids []string
	for i := range 5 {
		ids = append(ids, created(t, app.Post("/api/v1/properties", owner.Token, map[string]any{"name": fmt.Sprintf("P%d", i), "country_code": "DE"})))
	}
	app.Put("/api/v1/properties/"+ids[2], owner.Token, map[string]any{"name": "Renamed"}).Expect(200)
	app.Post("/api/v1/properties/"+ids[2]+"/archive", owner.Token, nil).Expect(200)

	var seen []int64
	var records []string
	query := "?per_page=2"
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("the pages do not end")
		}
		p := feed(t, app, ws, owner.Token, query)
		if len(p.Activity) > 2 {
			t.Fatalf("%d entries on a page of 2", len(p.Activity))
		}
		for _, e := range p.Activity {
			seen = append(seen, e.ID)
			records = append(records, e.Action+" "+e.RecordID)
		}
		if p.Next == nil {
			break
		}
		query = "?per_page=2&after=" + *p.Next
	}
	if len(seen) != 7 {
		t.Fatalf("walked %d entries, want 7: %v", len(seen), records)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] >= seen[i-1] {
			t.Fatalf("not newest first: %v", seen)
		}
	}
	if records[0] != "archived "+ids[2] || records[1] != "updated "+ids[2] || records[6] != "created "+ids[0] {
		t.Errorf("order %v", records)
	}

	one := feed(t, app, ws, owner.Token, "?record_type=property&record_id="+ids[2])
	if len(one.Activity) != 3 {
		t.Fatalf("record filter gave %d entries, want 3", len(one.Activity))
	}
	for _, e := range one.Activity {
		if e.RecordID != ids[2] {
			t.Errorf("record filter let %s through", e.RecordID)
		}
	}
	if arch := one.Activity[0]; arch.Action != "archived" || arch.Changes["archived_at"][0] != nil || arch.Changes["archived_at"][1] == nil {
		t.Errorf("archive entry %+v", arch)
	}
	if n := len(feed(t, app, ws, owner.Token, "?record_type=payment").Activity); n != 0 {
		t.Errorf("%d payment entries", n)
	}
	base := fmt.Sprintf("/api/v1/workspaces/%d/activity", ws)
	for _, bad := range []string{"?page=2", "?per_page=0", "?per_page=201", "?after=xyz", "?record_id=" + ids[0],
		"?record_type=" + strings.Repeat("p", 33)} {
		if res := app.Get(base+bad, owner.Token); res.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", bad, res.Status, res.Body)
		}
	}
}

// A payment and its reversal are logged; a document's entry carries its
// fields, never its bytes.
func TestActivityOfPaymentsAndDocuments(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "documents")
	app := testkit.Start(t, testkit.WithConfig("modules.documents.storage", "file:"+dir))
	owner := accountstest.NewUser(t, app)
	ws := workspaceOf(t, app, owner.Token)
	prop := created(t, app.Post("/api/v1/properties", owner.Token, map[string]any{"name": "Flat", "country_code": "DE"}))
	base := "/api/v1/properties/" + prop
	charge := created(t, app.Post(base+"/charges", owner.Token, map[string]any{"name": "Rent", "amount": 300, "due_date": "2026-11-01"}))
	pay := created(t, app.Post(base+"/payments", owner.Token, map[string]any{"amount": 120, "method": "cash"}))
	app.Post(base+"/payments/"+pay+"/reverse", owner.Token, map[string]any{"reason": "bounced"}).Expect(200)

	p := feed(t, app, ws, owner.Token, "?record_type=payment&record_id="+pay)
	if len(p.Activity) != 2 || p.Activity[0].Action != "reversed" || p.Activity[1].Action != "created" {
		t.Fatalf("payment entries %+v", p.Activity)
	}
	made := p.Activity[1].Changes
	if fmt.Sprint(made["amount"][1]) != "120" || made["method"][1] != "cash" || made["status"][1] != "posted" {
		t.Errorf("payment created %v", made)
	}
	if rev := p.Activity[0].Changes; rev["status"][0] != "posted" || rev["status"][1] != "reversed" || rev["reversal_reason"][1] != "bounced" {
		t.Errorf("payment reversed %v", rev)
	}
	if c := feed(t, app, ws, owner.Token, "?record_type=charge&record_id="+charge).Activity; len(c) != 1 || fmt.Sprint(c[0].Changes["amount"][1]) != "300" {
		t.Errorf("charge entries %+v", c)
	}

	secret := "%PDF-1.4\n% the-bytes-of-the-document\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	_ = w.WriteField("title", "Lease scan")
	_ = w.WriteField("category", "other")
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="lease.pdf"`)
	h.Set("Content-Type", "application/pdf")
	part, _ := w.CreatePart(h)
	_, _ = part.Write([]byte(secret))
	_ = w.Close()
	doc := created(t, app.Do(testkit.Request{Method: http.MethodPost, Path: base + "/documents", Token: owner.Token,
		Body: body.Bytes(), Headers: map[string]string{"Content-Type": w.FormDataContentType()}}))
	app.Put(base+"/documents/"+doc, owner.Token, map[string]any{"title": "Lease", "category": "other"}).Expect(200)
	app.Delete(base+"/documents/"+doc, owner.Token).Expect(http.StatusNoContent)

	res := app.Get(fmt.Sprintf("/api/v1/workspaces/%d/activity?record_type=document&record_id=%s", ws, doc), owner.Token).Expect(200)
	if bytes.Contains(res.Body, []byte("the-bytes-of-the-document")) || bytes.Contains(res.Body, []byte("PDF-1.4")) {
		t.Fatalf("the log holds the document's bytes: %s", res.Body)
	}
	var d activityPage
	res.JSON(&d)
	if len(d.Activity) != 3 {
		t.Fatalf("document entries %+v", d.Activity)
	}
	up := d.Activity[2].Changes
	if d.Activity[2].Action != "created" || up["title"][1] != "Lease scan" || up["filename"][1] != "lease.pdf" || up["size"] == nil {
		t.Errorf("upload entry %+v", d.Activity[2])
	}
	for k := range up {
		if strings.Contains(k, "content") {
			t.Errorf("upload entry carries %s", k)
		}
	}
	if upd := d.Activity[1].Changes; !reflect.DeepEqual(upd, map[string][]any{"title": {"Lease scan", "Lease"}}) {
		t.Errorf("document update %v", upd)
	}
}

// An entry belongs to the transaction of its write: when the transaction
// rolls back after the entry was written, the entry is gone with it.
func TestActivityCommitsWithTheWrite(t *testing.T) {
	app := testkit.Start(t)
	owner := accountstest.NewUser(t, app)
	ws := workspaceOf(t, app, owner.Token)
	ctx := auth.NewContext(context.Background(), auth.Principal{UserID: owner.ID, WorkspaceID: ws, Landlord: owner.ID, Role: auth.Owner})
	rows := logRows(t, app)
	boom := errors.New("the write fails after its entry")
	err := database.RunInTx(ctx, app.DB, func(ctx context.Context, tx bun.Tx) error {
		if err := activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "property", RecordID: "x"}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if n := logRows(t, app); n != rows {
		t.Fatalf("a rolled-back write left %d entries", n-rows)
	}
	err = database.RunInTx(ctx, app.DB, func(ctx context.Context, tx bun.Tx) error {
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "property", RecordID: "x",
			Changes: activity.Diff(nil, map[string]any{"name": "A", "password": "p", "token": "t"})})
	})
	if err != nil {
		t.Fatal(err)
	}
	p := feed(t, app, ws, owner.Token, "")
	if len(p.Activity) != 1 || !reflect.DeepEqual(p.Activity[0].Changes, map[string][]any{"name": {nil, "A"}}) {
		t.Fatalf("committed entry %+v", p.Activity)
	}
	// Work without a principal names no user.
	err = database.RunInTx(context.Background(), app.DB, func(ctx context.Context, tx bun.Tx) error {
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "property", RecordID: "x", WorkspaceID: ws})
	})
	if err != nil {
		t.Fatal(err)
	}
	if e := feed(t, app, ws, owner.Token, "").Activity[0]; e.UserID != nil || e.UserName != nil || e.Action != "updated" {
		t.Fatalf("entry without a principal %+v", e)
	}
}

// Role changes, removals and leaving are logged on the member; an import
// logs each row it made; a refused import (one bad line) logs nothing.
func TestActivityOfMembersAndImports(t *testing.T) {
	app := testkit.Start(t)
	owner, a, b := accountstest.NewUser(t, app), accountstest.NewUser(t, app), accountstest.NewUser(t, app)
	ws := workspaceOf(t, app, owner.Token)
	join(t, app, ws, a, auth.Viewer)
	join(t, app, ws, b, auth.Manager)
	members := fmt.Sprintf("/api/v1/workspaces/%d/members/", ws)
	app.Do(testkit.Request{Method: http.MethodPatch, Path: members + fmt.Sprint(a.ID), Token: owner.Token, Body: map[string]any{"role": "accountant"}}).Expect(200)
	app.Delete(members+fmt.Sprint(a.ID), owner.Token).Expect(http.StatusNoContent)
	app.Post(fmt.Sprintf("/api/v1/workspaces/%d/leave", ws), b.Token, nil).Expect(http.StatusNoContent)
	// The last owner cannot go: a 409, and no entry.
	app.Post(fmt.Sprintf("/api/v1/workspaces/%d/leave", ws), owner.Token, nil).Expect(http.StatusConflict)

	p := feed(t, app, ws, owner.Token, "?record_type=member")
	var got []string
	for _, e := range p.Activity {
		got = append(got, fmt.Sprintf("%s %s %v", e.Action, e.RecordID, e.Changes["role"]))
	}
	want := []string{
		fmt.Sprintf("left %d [manager <nil>]", b.ID),
		fmt.Sprintf("removed %d [accountant <nil>]", a.ID),
		fmt.Sprintf("role_changed %d [viewer accountant]", a.ID),
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("member entries %q\nwant %q", got, want)
	}
	if u := p.Activity[0].UserID; u == nil || *u != b.ID {
		t.Errorf("leaving is logged as %v, want the member %d", u, b.ID)
	}

	rows := logRows(t, app)
	csv := func(body string) *testkit.Response {
		return app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/contragents/import", Token: owner.Token, Body: body,
			Headers: map[string]string{"Content-Type": "text/csv; charset=utf-8"}})
	}
	csv("roles,name,kind\ntenant,Ann,person\nprovider,Bob,nope\n").Expect(http.StatusBadRequest)
	if n := logRows(t, app); n != rows {
		t.Fatalf("a refused import logged %d entries", n-rows)
	}
	csv("roles,name,kind\ntenant,Ann,person\nprovider,Bob,company\n").Expect(http.StatusCreated)
	imported := feed(t, app, ws, owner.Token, "?record_type=contragent").Activity
	if len(imported) != 2 || imported[0].Action != "imported" || imported[1].Changes["name"][1] != "Ann" {
		t.Fatalf("import entries %+v", imported)
	}
}
