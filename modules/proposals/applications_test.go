package proposals_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/platform/testkit"
)

func TestApplicationConfirmedWithCode(t *testing.T) {
	f := start(t)
	id, code := f.apply(t, "Maria@Example.com")
	if got := f.applications(t); len(got) != 0 {
		t.Fatalf("unconfirmed application listed: %+v", got)
	}
	wrong := "000000"
	if code == wrong {
		wrong = "000001"
	}
	res := f.confirm(id, wrong).Expect(http.StatusBadRequest)
	if !strings.Contains(res.String(), "invalid_code") {
		t.Errorf("wrong code: %s", res.String())
	}
	f.confirm(id, code).Expect(http.StatusOK)
	// Replayed: the code was used.
	f.confirm(id, code).Expect(http.StatusBadRequest)
	got := f.applications(t)
	if len(got) != 1 || got[0].Email != "maria@example.com" || got[0].Status != "new" || got[0].Locale != "de" {
		t.Fatalf("applications: %+v", got)
	}
	// A second application of the same email looks the same and keeps one.
	id2, code2 := f.apply(t, "maria@example.com")
	f.confirm(id2, code2).Expect(http.StatusOK)
	if got := f.applications(t); len(got) != 1 {
		t.Errorf("duplicate listed: %+v", got)
	}
}

func TestCodeFiveTriesAndExpiry(t *testing.T) {
	f := start(t, testkit.WithConfig("ratelimit.enabled", false))
	id, code := f.apply(t, "a@example.com")
	for i := 0; i < 5; i++ {
		wrong := fmt.Sprintf("%06d", i)
		if wrong == code {
			wrong = "999999"
		}
		f.confirm(id, wrong).Expect(http.StatusBadRequest)
	}
	f.confirm(id, code).Expect(http.StatusBadRequest)

	id, code = f.apply(t, "b@example.com")
	f.app.Clock.Advance(16 * 60 * 1e9)
	f.confirm(id, code).Expect(http.StatusBadRequest)
	if got := f.applications(t); len(got) != 0 {
		t.Errorf("applications: %+v", got)
	}
	// Malformed codes and unknown ids answer alike.
	f.confirm(id, "12345a").Expect(http.StatusBadRequest)
	f.confirm("019a4f3e-7c1d-7a2b-9c3d-2e4f5a6b7c8d", "123456").Expect(http.StatusBadRequest)
	f.confirm("x", "123456").Expect(http.StatusBadRequest)
}

func TestAbuseStoresNothing(t *testing.T) {
	f := start(t, testkit.WithConfig("ratelimit.enabled", false))
	draft := f.create(t)
	before := count(t, f.app, "proposal_applications")
	mails := len(f.app.Mail.Messages())
	long := applyBody("x@example.com")
	long["message"] = strings.Repeat("ä", 2001)
	f.app.Post(f.applyPath(), "", long).Expect(http.StatusBadRequest)
	f.app.Post("/api/v1/public/proposals/"+draft.Slug+"/applications", "", applyBody("x@example.com")).Expect(http.StatusNotFound)
	f.app.Post("/api/v1/public/proposals/nosuchslug/applications", "", applyBody("x@example.com")).Expect(http.StatusNotFound)
	bad := applyBody("not-an-email")
	f.app.Post(f.applyPath(), "", bad).Expect(http.StatusBadRequest)
	bad = applyBody("x@example.com")
	bad["household_size"] = 0
	f.app.Post(f.applyPath(), "", bad).Expect(http.StatusBadRequest)
	// The honeypot: the same answer, nothing stored, nothing sent.
	bot := applyBody("bot@example.com")
	bot["website"] = "http://spam.example"
	var a applied
	f.app.Post(f.applyPath(), "", bot).Expect(http.StatusAccepted).JSON(&a)
	if a.ApplicationID == "" || a.ExpiresIn != 900 {
		t.Errorf("honeypot answer: %+v", a)
	}
	f.app.Post(f.base()+"/"+f.proposal.ID+"/close", f.user.Token, nil).Expect(http.StatusOK)
	f.app.Post(f.applyPath(), "", applyBody("x@example.com")).Expect(http.StatusConflict)
	if n := count(t, f.app, "proposal_applications"); n != before {
		t.Errorf("applications %d, want %d", n, before)
	}
	if n := len(f.app.Mail.Messages()); n != mails {
		t.Errorf("%d mails sent", n-mails)
	}
}

func TestLimitsPerEmailAndIP(t *testing.T) {
	f := start(t)
	for i := 0; i < 3; i++ {
		f.app.Post(f.applyPath(), "", applyBody("same@example.com")).Expect(http.StatusAccepted)
	}
	res := f.app.Post(f.applyPath(), "", applyBody("same@example.com")).Expect(http.StatusTooManyRequests)
	if res.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	// Per address: 10 an hour by default; the email's four tries count
	// (the refused one too: the address is counted first).
	for i := 0; i < 6; i++ {
		f.app.Post(f.applyPath(), "", applyBody(fmt.Sprintf("p%d@example.com", i))).Expect(http.StatusAccepted)
	}
	f.app.Post(f.applyPath(), "", applyBody("fresh@example.com")).Expect(http.StatusTooManyRequests)
}

// TestProposalLimitUnderConcurrency sends many applications at once with
// fewer connections than clients: the proposal's limit holds exactly, and
// nothing fails.
func TestProposalLimitUnderConcurrency(t *testing.T) {
	const clients, limit = 60, 20
	f := start(t, testkit.WithConfig("ratelimit.enabled", false), testkit.WithConfig("database.maxopen", 4),
		testkit.WithConfig("modules.proposals.proposalperhour", limit))
	var mu sync.Mutex
	status := map[int]int{}
	var wg sync.WaitGroup
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res := f.app.Do(testkit.Request{Method: http.MethodPost, Path: f.applyPath(), Body: applyBody(fmt.Sprintf("c%d@example.com", i))})
			mu.Lock()
			status[res.Status]++
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	if status[http.StatusAccepted] != limit || status[http.StatusTooManyRequests] != clients-limit {
		t.Errorf("statuses %v, want %d accepted and the rest 429", status, limit)
	}
	if n := count(t, f.app, "proposal_applications"); n != limit {
		t.Errorf("%d stored, want %d", n, limit)
	}
}

func TestDecisionsMailTheApplicant(t *testing.T) {
	f := start(t)
	id, code := f.apply(t, "maria@example.com")
	f.confirm(id, code).Expect(http.StatusOK)
	path := f.base() + "/" + f.proposal.ID + "/applications/" + id
	var a application
	f.app.Post(path+"/shortlist", f.user.Token, nil).Expect(http.StatusOK).JSON(&a)
	if a.Status != "shortlisted" {
		t.Errorf("status %s", a.Status)
	}
	text := waitForMail(t, f.app, "maria@example.com", func(s string) bool { return strings.Contains(s, "engeren Wahl") })
	if !strings.Contains(text, "Parkstraße 7") {
		t.Errorf("shortlist mail lacks the address: %q", text)
	}
	f.app.Post(path+"/decline", f.user.Token, nil).Expect(http.StatusOK)
	waitForMail(t, f.app, "maria@example.com", func(s string) bool { return strings.HasPrefix(s, "Ihre Bewerbung") })
	f.app.Post(path+"/shortlist", f.user.Token, nil).Expect(http.StatusConflict)
	var l applicationList
	f.app.Get(f.base()+"/"+f.proposal.ID+"/applications?status=declined", f.user.Token).Expect(http.StatusOK).JSON(&l)
	if len(l.Applications) != 1 {
		t.Errorf("declined: %+v", l.Applications)
	}
}

func TestExpiredPendingApplicationsAreSwept(t *testing.T) {
	f := start(t, testkit.WithConfig("modules.proposals.sweep", "100ms"))
	f.apply(t, "late@example.com")
	id, code := f.apply(t, "quick@example.com")
	f.confirm(id, code).Expect(http.StatusOK)
	f.app.Clock.Advance(16 * time.Minute)
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) && count(t, f.app, "proposal_applications") != 1 {
		time.Sleep(100 * time.Millisecond)
	}
	if n := count(t, f.app, "proposal_applications"); n != 1 {
		t.Fatalf("%d applications, want the confirmed one", n)
	}
}
