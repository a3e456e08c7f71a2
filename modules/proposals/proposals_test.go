package proposals_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

func TestPublicPageShowsListingOnly(t *testing.T) {
	f := start(t)
	res := f.app.Get(f.proposal.PublicPath, "").Expect(http.StatusOK)
	body := res.String()
	for _, hidden := range []string{"Parkstraße", "Flat 3", f.user.Email, "owner", "property_id"} {
		if strings.Contains(body, hidden) {
			t.Errorf("public page shows %q: %s", hidden, body)
		}
	}
	for _, shown := range []string{`"city":"Berlin"`, `"postal_code":"10115"`, `"rent":950.00`, `"deposit":2850.00`} {
		if !strings.Contains(body, shown) {
			t.Errorf("public page lacks %s: %s", shown, body)
		}
	}
	etag := res.Header.Get("ETag")
	if etag == "" || !strings.Contains(res.Header.Get("Cache-Control"), "max-age=60") {
		t.Fatalf("headers: ETag %q Cache-Control %q", etag, res.Header.Get("Cache-Control"))
	}
	f.app.Do(testkit.Request{Method: http.MethodGet, Path: f.proposal.PublicPath, Headers: map[string]string{"If-None-Match": etag}}).
		Expect(http.StatusNotModified)

	// A draft and a closed proposal are not public.
	draft := f.create(t)
	f.app.Get("/api/v1/public/proposals/"+draft.Slug, "").Expect(http.StatusNotFound)
	f.app.Post(f.base()+"/"+f.proposal.ID+"/close", f.user.Token, nil).Expect(http.StatusOK)
	f.app.Get(f.proposal.PublicPath, "").Expect(http.StatusNotFound)
	f.app.Get("/api/v1/public/proposals/NOT-a-slug", "").Expect(http.StatusNotFound)
}

func TestLifecycle(t *testing.T) {
	f := start(t)
	// Published: no more changes, no second publish.
	f.app.Put(f.base()+"/"+f.proposal.ID, f.user.Token, map[string]any{"rent": 990}).Expect(http.StatusConflict)
	f.app.Post(f.base()+"/"+f.proposal.ID+"/publish", f.user.Token, nil).Expect(http.StatusConflict)
	draft := f.create(t)
	var p proposal
	f.app.Put(f.base()+"/"+draft.ID, f.user.Token, map[string]any{"rent": 990.5, "deposit_months": 2}).Expect(http.StatusOK).JSON(&p)
	if p.Deposit != 1981.0 {
		t.Errorf("deposit %v, want 1981.00", p.Deposit)
	}
	f.app.Post(f.base()+"/"+draft.ID+"/close", f.user.Token, nil).Expect(http.StatusConflict)
	// Terms and photos are checked inside the update's transaction.
	f.app.Put(f.base()+"/"+draft.ID, f.user.Token, map[string]any{"terms": []map[string]any{{"code": "PETS_ALLOWED", "value": true}},
		"photos": []string{}}).Expect(http.StatusOK)
	f.app.Put(f.base()+"/"+draft.ID, f.user.Token, map[string]any{"photos": []string{"019a4f3e-7c1d-7a2b-9c3d-2e4f5a6b7c8d"}}).
		Expect(http.StatusBadRequest)
	var list struct {
		Proposals []proposal `json:"proposals"`
	}
	f.app.Get(f.base()+"?status=draft", f.user.Token).Expect(http.StatusOK).JSON(&list)
	if len(list.Proposals) != 1 || list.Proposals[0].ID != draft.ID {
		t.Errorf("drafts: %+v", list.Proposals)
	}
}

func TestBadProposalsStoreNothing(t *testing.T) {
	f := start(t)
	before := count(t, f.app, "proposals")
	for name, body := range map[string]map[string]any{
		"no title":      {"rent": 900, "available_from": "2027-01-01"},
		"zero rent":     {"title": "x", "rent": 0, "available_from": "2027-01-01"},
		"bad date":      {"title": "x", "rent": 900, "available_from": "soon"},
		"deposit":       {"title": "x", "rent": 900, "available_from": "2027-01-01", "deposit_months": 13},
		"unknown term":  {"title": "x", "rent": 900, "available_from": "2027-01-01", "terms": []map[string]any{{"code": "NO_SUCH", "value": 1}}},
		"foreign photo": {"title": "x", "rent": 900, "available_from": "2027-01-01", "photos": []string{"019a4f3e-7c1d-7a2b-9c3d-2e4f5a6b7c8d"}},
		"long title":    {"title": strings.Repeat("x", 201), "rent": 900, "available_from": "2027-01-01"},
	} {
		t.Run(name, func(t *testing.T) {
			f.app.Post(f.base(), f.user.Token, body).Expect(http.StatusBadRequest)
		})
	}
	if n := count(t, f.app, "proposals"); n != before {
		t.Errorf("proposals %d, want %d", n, before)
	}
}

func TestAnotherWorkspaceIsRefused(t *testing.T) {
	f := start(t)
	other := accountstest.NewUser(t, f.app)
	f.app.Get(f.base(), other.Token).Expect(http.StatusForbidden)
	f.app.Get(f.base()+"/"+f.proposal.ID, other.Token).Expect(http.StatusForbidden)
	f.app.Post(f.base()+"/"+f.proposal.ID+"/close", other.Token, nil).Expect(http.StatusForbidden)
	id, code := f.apply(t, "anna@example.com")
	f.confirm(id, code).Expect(http.StatusOK)
	f.app.Post(f.base()+"/"+f.proposal.ID+"/applications/"+id+"/decline", other.Token, nil).Expect(http.StatusForbidden)
	// The other landlord's own property does not reach this proposal.
	theirs := newProperty(t, f.app, other.Token)
	f.app.Get("/api/v1/properties/"+theirs+"/proposals/"+f.proposal.ID, other.Token).Expect(http.StatusNotFound)
	f.app.Post("/api/v1/properties/"+theirs+"/proposals/"+f.proposal.ID+"/applications/"+id+"/shortlist", other.Token, nil).
		Expect(http.StatusNotFound)
	if got := f.applications(t); len(got) != 1 || got[0].Status != "new" {
		t.Errorf("applications: %+v", got)
	}
}
