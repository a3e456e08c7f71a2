package workspaces_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

var linkPattern = regexp.MustCompile(`http://localhost:8080/accept-invitation\?token=([A-Za-z0-9_-]{43})\b`)

type invitation struct {
	ID          int64  `json:"id"`
	WorkspaceID int64  `json:"workspace_id"`
	Email       string `json:"email"`
	Role        string `json:"role"`
	Status      string `json:"status"`
	InvitedBy   *int64 `json:"invited_by"`
	AcceptedBy  *int64 `json:"accepted_by"`
	ExpiresAt   string `json:"expires_at"`
	CreatedAt   string `json:"created_at"`
}

type workspace struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	Role       string `json:"role"`
	IsDefault  bool   `json:"is_default"`
	LandlordID int64  `json:"landlord_id"`
}

// ownWorkspace returns the id of the user's own workspace (made on their
// first request).
func ownWorkspace(t *testing.T, app *testkit.App, u accountstest.User) int64 {
	t.Helper()
	var out struct {
		Workspaces []workspace `json:"workspaces"`
	}
	app.Get("/api/v1/workspaces", u.Token).Expect(http.StatusOK).JSON(&out)
	for _, w := range out.Workspaces {
		if w.LandlordID == u.ID {
			return w.ID
		}
	}
	t.Fatalf("user %d has no own workspace: %+v", u.ID, out.Workspaces)
	return 0
}

// resign gives u a token signed at the clock's now, after the test moved
// it past the old token's lifetime.
func resign(t *testing.T, app *testkit.App, u *accountstest.User) {
	t.Helper()
	token, err := app.Tokens.Issue(u.ID, 0, app.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	u.Token = token
}

func invitationsPath(ws int64) string { return fmt.Sprintf("/api/v1/workspaces/%d/invitations", ws) }

func acceptPath(token string) string { return "/api/v1/invitations/" + token + "/accept" }

// invite invites email to ws as owner and returns the invitation and the
// token of the link mailed to it.
func invite(t *testing.T, app *testkit.App, owner accountstest.User, ws int64, email, role string) (invitation, string) {
	t.Helper()
	var inv invitation
	res := app.Post(invitationsPath(ws), owner.Token, map[string]any{"email": email, "role": role}).Expect(http.StatusCreated)
	res.JSON(&inv)
	m, ok := app.Mail.Last(inv.Email)
	if !ok {
		t.Fatalf("no mail to %s", inv.Email)
	}
	found := linkPattern.FindStringSubmatch(m.Text)
	if found == nil || !strings.Contains(m.HTML, found[0]) {
		t.Fatalf("mail to %s: no link in both parts:\n%s\n%s", inv.Email, m.Text, m.HTML)
	}
	token := found[1]
	if strings.Contains(res.String(), token) {
		t.Fatalf("the answer carries the token: %s", res)
	}
	return inv, token
}

func expectError(t *testing.T, res *testkit.Response, status int, code string) {
	t.Helper()
	res.Expect(status)
	if got := errorCode(t, res); got != code {
		t.Fatalf("error %q, want %q: %s", got, code, res)
	}
}

func listInvitations(t *testing.T, app *testkit.App, owner accountstest.User, ws int64) []invitation {
	t.Helper()
	var out struct {
		Invitations []invitation `json:"invitations"`
	}
	app.Get(invitationsPath(ws)+"?per_page=200", owner.Token).Expect(http.StatusOK).JSON(&out)
	return out.Invitations
}

func countInvitations(t *testing.T, app *testkit.App) int {
	t.Helper()
	n, err := app.DB.NewSelect().Table("workspace_invitations").Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func TestInviteAcceptAndActAsManager(t *testing.T) {
	app := testkit.Start(t)
	a := accountstest.NewUser(t, app)
	b := accountstest.NewUser(t, app)
	wsA := ownWorkspace(t, app, a)

	inv, token := invite(t, app, a, wsA, "  "+strings.ToUpper(b.Email)+" ", "manager")
	want := invitation{ID: inv.ID, WorkspaceID: wsA, Email: b.Email, Role: "manager", Status: "pending",
		InvitedBy: &a.ID, ExpiresAt: "2026-11-29T10:00:00Z", CreatedAt: "2026-11-22T10:00:00Z"}
	if inv.InvitedBy == nil || *inv.InvitedBy != a.ID {
		t.Fatalf("invited_by %v, want %d", inv.InvitedBy, a.ID)
	}
	want.InvitedBy = inv.InvitedBy
	if inv != want {
		t.Fatalf("invitation %+v, want %+v", inv, want)
	}

	// Only the hash is stored; the token is nowhere in the table.
	var hashes []string
	if err := app.DB.NewSelect().Table("workspace_invitations").Column("token_hash").Scan(context.Background(), &hashes); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(token))
	if len(hashes) != 1 || hashes[0] != hex.EncodeToString(sum[:]) {
		t.Fatalf("stored %v, want the SHA-256 of the token", hashes)
	}
	n, err := app.DB.NewSelect().Table("workspace_invitations").
		Where("token_hash = ? OR email = ? OR role = ? OR status = ?", token, token, token, token).Count(context.Background())
	if err != nil || n != 0 {
		t.Fatalf("the token is stored in plain: %d rows (%v)", n, err)
	}

	// b's first request is the accept: b keeps an own workspace, the
	// default, and joins a's as a manager.
	var joined workspace
	app.Post(acceptPath(token), b.Token, nil).Expect(http.StatusOK).JSON(&joined)
	if joined.ID != wsA || joined.Role != "manager" || joined.IsDefault || joined.LandlordID != a.ID {
		t.Fatalf("joined %+v", joined)
	}
	wsB := ownWorkspace(t, app, b)
	if wsB == wsA {
		t.Fatal("b has no own workspace")
	}

	// Single use.
	expectError(t, app.Post(acceptPath(token), b.Token, nil), http.StatusNotFound, "invitation_not_found")

	// The manager writes into a's workspace; a sees it.
	var prop struct {
		ID string `json:"id"`
	}
	app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/properties", Token: b.Token,
		Headers: map[string]string{"X-Workspace-ID": fmt.Sprint(wsA)},
		Body:    map[string]any{"name": "Flat 1", "address": "Hauptstr. 5", "city": "Berlin", "postal_code": "10115", "country_code": "DE"},
	}).Expect(http.StatusCreated).JSON(&prop)
	var props struct {
		Properties []struct {
			ID string `json:"id"`
		} `json:"properties"`
	}
	app.Get("/api/v1/properties", a.Token).Expect(http.StatusOK).JSON(&props)
	if len(props.Properties) != 1 || props.Properties[0].ID != prop.ID {
		t.Fatalf("a lists %+v, want the manager's property %s", props.Properties, prop.ID)
	}

	// A manager does not invite and does not list invitations.
	expectError(t, app.Post(invitationsPath(wsA), b.Token, map[string]any{"email": "x@example.com", "role": "viewer"}),
		http.StatusForbidden, "forbidden")
	expectError(t, app.Get(invitationsPath(wsA), b.Token), http.StatusForbidden, "forbidden")

	list := listInvitations(t, app, a, wsA)
	if len(list) != 1 || list[0].Status != "accepted" || list[0].AcceptedBy == nil || *list[0].AcceptedBy != b.ID {
		t.Fatalf("list %+v", list)
	}
	// A member's address: 409, nothing sent.
	before := len(app.Mail.Messages())
	expectError(t, app.Post(invitationsPath(wsA), a.Token, map[string]any{"email": b.Email, "role": "viewer"}),
		http.StatusConflict, "already_member")
	expectError(t, app.Post(invitationsPath(wsA), a.Token, map[string]any{"email": a.Email, "role": "owner"}),
		http.StatusConflict, "already_member")
	if len(app.Mail.Messages()) != before || countInvitations(t, app) != 1 {
		t.Fatal("a refused invitation was sent or stored")
	}
}

func TestAcceptRefusals(t *testing.T) {
	app := testkit.Start(t)
	a := accountstest.NewUser(t, app)
	b := accountstest.NewUser(t, app)
	c := accountstest.NewUser(t, app)
	wsA := ownWorkspace(t, app, a)

	t.Run("another address", func(t *testing.T) {
		_, token := invite(t, app, a, wsA, b.Email, "viewer")
		expectError(t, app.Post(acceptPath(token), c.Token, nil), http.StatusForbidden, "email_mismatch")
		// Still pending for b.
		app.Post(acceptPath(token), b.Token, nil).Expect(http.StatusOK)
	})
	t.Run("unknown and malformed tokens", func(t *testing.T) {
		expectError(t, app.Post(acceptPath(strings.Repeat("A", 43)), c.Token, nil), http.StatusNotFound, "invitation_not_found")
		expectError(t, app.Post(acceptPath("short"), c.Token, nil), http.StatusNotFound, "invitation_not_found")
	})
	t.Run("without a token", func(t *testing.T) {
		app.Post(acceptPath(strings.Repeat("A", 43)), "", nil).Expect(http.StatusUnauthorized)
	})
	t.Run("revoked", func(t *testing.T) {
		inv, token := invite(t, app, a, wsA, c.Email, "viewer")
		path := fmt.Sprintf("%s/%d", invitationsPath(wsA), inv.ID)
		app.Delete(path, a.Token).Expect(http.StatusNoContent)
		expectError(t, app.Post(acceptPath(token), c.Token, nil), http.StatusNotFound, "invitation_not_found")
		expectError(t, app.Delete(path, a.Token), http.StatusConflict, "invitation_not_pending")
		app.Delete(invitationsPath(wsA)+"/999999", a.Token).Expect(http.StatusNotFound)
		app.Delete(invitationsPath(wsA)+"/abc", a.Token).Expect(http.StatusNotFound)
	})
	t.Run("expired", func(t *testing.T) {
		_, token := invite(t, app, a, wsA, c.Email, "viewer")
		app.Clock.Advance(7 * 24 * time.Hour)
		resign(t, app, &a)
		resign(t, app, &c)
		expectError(t, app.Post(acceptPath(token), c.Token, nil), http.StatusNotFound, "invitation_not_found")
		list := listInvitations(t, app, a, wsA)
		if list[0].Email != c.Email || list[0].Status != "expired" {
			t.Fatalf("newest %+v, want c's expired", list[0])
		}
	})
	t.Run("replaced", func(t *testing.T) {
		_, old := invite(t, app, a, wsA, c.Email, "viewer")
		_, token := invite(t, app, a, wsA, c.Email, "accountant")
		expectError(t, app.Post(acceptPath(old), c.Token, nil), http.StatusNotFound, "invitation_not_found")
		var joined workspace
		app.Post(acceptPath(token), c.Token, nil).Expect(http.StatusOK).JSON(&joined)
		if joined.Role != "accountant" {
			t.Fatalf("joined %+v", joined)
		}
		pending := 0
		for _, inv := range listInvitations(t, app, a, wsA) {
			if inv.Email == c.Email && inv.Status == "pending" {
				pending++
			}
		}
		if pending != 0 {
			t.Fatalf("%d pending invitations of c left", pending)
		}
	})
}

func TestInviteRefusals(t *testing.T) {
	app := testkit.Start(t)
	a := accountstest.NewUser(t, app)
	stranger := accountstest.NewUser(t, app)
	wsA := ownWorkspace(t, app, a)

	for _, body := range []map[string]any{
		{"email": "not-an-address", "role": "viewer"},
		{"email": "", "role": "viewer"},
		{"email": "x@example.com", "role": "admin"},
		{"email": "x@example.com"},
		{"email": "x@example.com", "role": "Owner"},
	} {
		expectError(t, app.Post(invitationsPath(wsA), a.Token, body), http.StatusBadRequest, "validation_failed")
	}
	expectError(t, app.Post(invitationsPath(wsA), stranger.Token, map[string]any{"email": "x@example.com", "role": "viewer"}),
		http.StatusForbidden, "not_a_member")
	expectError(t, app.Get(invitationsPath(wsA), stranger.Token), http.StatusForbidden, "not_a_member")
	app.Post(invitationsPath(wsA), "", map[string]any{"email": "x@example.com", "role": "viewer"}).Expect(http.StatusUnauthorized)

	app.Mail.Fail(errors.New("smtp down"))
	expectError(t, app.Post(invitationsPath(wsA), a.Token, map[string]any{"email": "x@example.com", "role": "viewer"}),
		http.StatusServiceUnavailable, "unavailable")
	app.Mail.Fail(nil)
	if n := countInvitations(t, app); n != 0 || len(app.Mail.Messages()) != 0 {
		t.Fatalf("refused invitations left %d rows, %d mails", n, len(app.Mail.Messages()))
	}
	// Nor an entry in the log: the one of the invitation whose mail failed
	// was taken back with it.
	if n, err := app.DB.NewSelect().Table("activity").Where("record_type = 'invitation'").Count(context.Background()); err != nil || n != 0 {
		t.Fatalf("%d invitation entries in the log (%v)", n, err)
	}
}

func TestPendingInvitationsAreBounded(t *testing.T) {
	app := testkit.Start(t)
	a := accountstest.NewUser(t, app)
	wsA := ownWorkspace(t, app, a)
	for i := range 100 {
		app.Post(invitationsPath(wsA), a.Token, map[string]any{"email": fmt.Sprintf("p%d@example.com", i), "role": "viewer"}).
			Expect(http.StatusCreated)
	}
	expectError(t, app.Post(invitationsPath(wsA), a.Token, map[string]any{"email": "one-more@example.com", "role": "viewer"}),
		http.StatusConflict, "too_many_invitations")
	// Replacing one is no new one.
	app.Post(invitationsPath(wsA), a.Token, map[string]any{"email": "p7@example.com", "role": "manager"}).Expect(http.StatusCreated)
	list := listInvitations(t, app, a, wsA)
	if len(list) != 100 || list[0].Email != "p7@example.com" {
		t.Fatalf("%d listed, newest %+v", len(list), list[0])
	}
	// Walked by cursor, 30 a page, the list is the same, in the same order.
	var walked []int64
	after := ""
	for pages := 0; pages < 10; pages++ {
		var page struct {
			Invitations []invitation `json:"invitations"`
			Next        *string      `json:"next"`
		}
		u := invitationsPath(wsA) + "?per_page=30"
		if after != "" {
			u += "&after=" + url.QueryEscape(after)
		}
		app.Get(u, a.Token).Expect(http.StatusOK).JSON(&page)
		for _, inv := range page.Invitations {
			walked = append(walked, inv.ID)
		}
		if page.Next == nil {
			break
		}
		after = *page.Next
	}
	if len(walked) != len(list) {
		t.Fatalf("the walk saw %d invitations, the list %d", len(walked), len(list))
	}
	for i := range walked {
		if walked[i] != list[i].ID {
			t.Fatalf("invitation %d: walked %d, listed %d", i, walked[i], list[i].ID)
		}
	}
	expectError(t, app.Get(invitationsPath(wsA)+"?after=nonsense", a.Token), http.StatusBadRequest, "validation_failed")
	// Expired ones do not count.
	app.Clock.Advance(7*24*time.Hour + time.Second)
	resign(t, app, &a)
	app.Post(invitationsPath(wsA), a.Token, map[string]any{"email": "one-more@example.com", "role": "viewer"}).Expect(http.StatusCreated)
}

func TestConcurrentAcceptsOneWins(t *testing.T) {
	app := testkit.Start(t, testkit.WithListener())
	a := accountstest.NewUser(t, app)
	b := accountstest.NewUser(t, app)
	wsA := ownWorkspace(t, app, a)
	ownWorkspace(t, app, b)
	_, token := invite(t, app, a, wsA, b.Email, "accountant")

	const n = 8
	statuses := make([]int, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := testkit.KeepAliveClient(t)
			<-start
			statuses[i] = app.Do(testkit.Request{Method: http.MethodPost, Path: acceptPath(token), Token: b.Token, Client: client}).Status
		}()
	}
	close(start)
	wg.Wait()
	won := 0
	for _, s := range statuses {
		switch s {
		case http.StatusOK:
			won++
		case http.StatusNotFound:
		default:
			t.Fatalf("statuses %v", statuses)
		}
	}
	if won != 1 {
		t.Fatalf("%d accepts won, want 1: %v", won, statuses)
	}
	// b's workspaces: their own and a's, as an accountant, once.
	var mine struct {
		Workspaces []workspace `json:"workspaces"`
	}
	app.Get("/api/v1/workspaces", b.Token).Expect(http.StatusOK).JSON(&mine)
	if len(mine.Workspaces) != 2 || mine.Workspaces[0].ID != wsA || mine.Workspaces[0].Role != "accountant" {
		t.Fatalf("b's workspaces %+v", mine.Workspaces)
	}
}

func TestInviteURLIsConfigured(t *testing.T) {
	app := testkit.Start(t, testkit.WithConfig("modules.workspaces.inviteurl", "https://app.example.com/join#t="))
	a := accountstest.NewUser(t, app)
	wsA := ownWorkspace(t, app, a)
	app.Post(invitationsPath(wsA), a.Token, map[string]any{"email": "new@example.com", "role": "viewer"}).Expect(http.StatusCreated)
	m, ok := app.Mail.Last("new@example.com")
	if !ok || !regexp.MustCompile(`https://app\.example\.com/join#t=[A-Za-z0-9_-]{43}\n`).MatchString(m.Text) {
		t.Fatalf("mail %+v", m)
	}
}

// The invitation names who invites and the workspace, in the inviter's
// language, with the role in words.
func TestInvitationNamesWhoInvites(t *testing.T) {
	app := testkit.Start(t)
	owner := accountstest.NewUser(t, app)
	app.Put("/api/v1/user/profile", owner.Token, map[string]any{"name": "Lena Vermieterin", "locale": "de"}).Expect(http.StatusOK)
	ws := workspaceOf(t, app, owner.Token)
	app.Do(testkit.Request{Method: http.MethodPatch, Path: fmt.Sprintf("/api/v1/workspaces/%d", ws), Token: owner.Token,
		Body: map[string]any{"name": "Hausverwaltung Lindenhof"}}).Expect(http.StatusOK)
	app.Post(invitationsPath(ws), owner.Token, map[string]any{"email": "sam@example.com", "role": "accountant"}).Expect(http.StatusCreated)
	m, ok := app.Mail.Last("sam@example.com")
	if !ok {
		t.Fatal("no mail")
	}
	if m.Subject != "Lena Vermieterin lädt Sie zu Hausverwaltung Lindenhof auf propman ein" {
		t.Errorf("subject %q", m.Subject)
	}
	for _, want := range []string{"Lena Vermieterin lädt Sie in den Arbeitsbereich „Hausverwaltung Lindenhof“ auf propman ein, als Buchhalter.",
		"angemeldet mit dieser Adresse (sam@example.com)", "Der Link gilt einmal, 7 Tage lang."} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("the mail lacks %q:\n%s", want, m.Text)
		}
	}
	if !strings.Contains(m.HTML, "Lena Vermieterin") || strings.Contains(m.HTML, "accountant") {
		t.Errorf("html:\n%s", m.HTML)
	}
}

// The invitation's link is absolute under http.publicurl, the one address
// every mailed link is built from.
func TestInviteLinkUnderPublicURL(t *testing.T) {
	app := testkit.Start(t, testkit.WithConfig("http.publicurl", "https://propman.example.com/"))
	a := accountstest.NewUser(t, app)
	ws := ownWorkspace(t, app, a)
	app.Post(invitationsPath(ws), a.Token, map[string]any{"email": "new@example.com", "role": "viewer"}).Expect(http.StatusCreated)
	m, ok := app.Mail.Last("new@example.com")
	if !ok || !regexp.MustCompile(`https://propman\.example\.com/accept-invitation\?token=[A-Za-z0-9_-]{43}\n`).MatchString(m.Text) {
		t.Fatalf("mail %+v", m)
	}
}
