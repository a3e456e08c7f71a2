package tenancy_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/testkit"
)

// lease is a landlord's let property: a tenant contragent with the
// tenant-to-be's email, an active contract with its charges and a payment
// (and so a receipt).
type lease struct {
	landlord accountstest.User
	ws       int64
	property string
	tenant   string // the contragent
	contract string
}

func created(t *testing.T, res *testkit.Response) string {
	t.Helper()
	res.Expect(http.StatusCreated)
	return res.Map()["id"].(string)
}

func newLease(t *testing.T, app *testkit.App, tenantEmail string) lease {
	t.Helper()
	l := lease{landlord: accountstest.NewUser(t, app)}
	var p struct {
		DefaultWorkspaceID int64 `json:"default_workspace_id"`
	}
	app.Get("/api/v1/user/profile", l.landlord.Token).Expect(200).JSON(&p)
	l.ws = p.DefaultWorkspaceID
	tok := l.landlord.Token
	l.property = created(t, app.Post("/api/v1/properties", tok, map[string]any{"name": "Flat 3", "country_code": "DE"}))
	l.tenant = created(t, app.Post("/api/v1/contragents", tok, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Anna Tenant", "email": tenantEmail}))
	l.contract = created(t, app.Post("/api/v1/contracts", tok, map[string]any{"property_id": l.property, "tenant_id": l.tenant,
		"number": "L-1", "terms": []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 950},
			{"code": "CONTRACT_START_DATE", "value": "2026-11-01"}, {"code": "PAYMENT_DAY_OF_MONTH", "value": 3}}}))
	app.Post("/api/v1/contracts/"+l.contract+"/activate", tok, nil).Expect(200)
	app.Post("/api/v1/properties/"+l.property+"/expenses/refresh-all", tok, nil).Expect(200)
	created(t, app.Post("/api/v1/properties/"+l.property+"/payments", tok, map[string]any{"amount": 300, "method": "bank_transfer", "contract_id": l.contract}))
	return l
}

var tokenInMail = regexp.MustCompile(`token=([A-Za-z0-9_-]{43})`)

// invite sends the portal invitation and returns the token of its mail.
func (l lease) invite(t *testing.T, app *testkit.App, email string) string {
	t.Helper()
	app.Post("/api/v1/contragents/"+l.tenant+"/portal-invitation", l.landlord.Token, nil).Expect(http.StatusCreated)
	m, ok := app.Mail.Last(email)
	if !ok {
		t.Fatalf("no invitation mail to %s", email)
	}
	got := tokenInMail.FindStringSubmatch(m.Text)
	if got == nil {
		t.Fatalf("no token in the mail: %s", m.Text)
	}
	return got[1]
}

func accept(app *testkit.App, token, userToken string) *testkit.Response {
	return app.Post("/api/v1/tenancy/invitations/"+token+"/accept", userToken, nil)
}

func code(res *testkit.Response) string { s, _ := res.Map()["error"].(string); return s }

// A tenant invited by their landlord accepts and reads their own tenancy:
// the contract, its charges, balance and receipts.
func TestTenantReadsTheirTenancy(t *testing.T) {
	app := testkit.Start(t)
	tenant := accountstest.NewUser(t, app)
	l := newLease(t, app, tenant.Email)
	token := l.invite(t, app, tenant.Email)

	var hashes []string
	if err := app.DB.NewRaw("SELECT token_hash FROM portal_invitations").Scan(context.Background(), &hashes); err != nil {
		t.Fatal(err)
	}
	for _, h := range hashes {
		if strings.Contains(h, token) {
			t.Fatal("the token is stored as it is")
		}
	}
	inv := accept(app, token, tenant.Token).Expect(200).Map()
	if inv["status"] != "accepted" || inv["contragent_id"] != l.tenant {
		t.Fatalf("accepted: %v", inv)
	}
	// The landlord's log says who invited and who became the tenant.
	for _, kind := range []string{"portal_invitation", "tenant"} {
		feed := app.Get(fmt.Sprintf("/api/v1/workspaces/%d/activity?record_type=%s", l.ws, kind), l.landlord.Token).Expect(200).Map()
		if entries, _ := feed["activity"].([]any); len(entries) != 1 {
			t.Errorf("%d %s entries in the landlord's activity, want 1: %v", len(entries), kind, feed)
		}
	}

	var list struct {
		Contracts []struct {
			ID string `json:"id"`
		} `json:"contracts"`
	}
	app.Get("/api/v1/tenancy/contracts", tenant.Token).Expect(200).JSON(&list)
	if len(list.Contracts) != 1 || list.Contracts[0].ID != l.contract {
		t.Fatalf("the tenant's contracts: %+v", list)
	}
	base := "/api/v1/tenancy/contracts/" + l.contract
	app.Get(base, tenant.Token).Expect(200)
	charges := app.Get(base+"/charges", tenant.Token).Expect(200).Map()["charges"].([]any)
	if len(charges) == 0 {
		t.Fatal("the tenant sees no charges")
	}
	bal := app.Get(base+"/balance", tenant.Token).Expect(200).Map()
	landlordBal := app.Get("/api/v1/properties/"+l.property+"/balance?contract_id="+l.contract, l.landlord.Token).Expect(200).Map()
	if bal["paid"] != landlordBal["paid"] || bal["outstanding"] != landlordBal["outstanding"] {
		t.Fatalf("the tenant's balance %v differs from the landlord's %v", bal, landlordBal)
	}
	receipts := app.Get(base+"/receipts", tenant.Token).Expect(200).Map()["receipts"].([]any)
	if len(receipts) != 1 {
		t.Fatalf("the tenant sees %d receipts, want 1", len(receipts))
	}

	// Another user's token reads none of it.
	other := accountstest.NewUser(t, app)
	for _, p := range []string{base, base + "/charges", base + "/balance", base + "/receipts"} {
		app.Get(p, other.Token).Expect(http.StatusNotFound)
	}
	app.Get("/api/v1/tenancy/contracts/"+uuid.NewString(), tenant.Token).Expect(http.StatusNotFound)
}

// A token works once, for the invited address, until it expires or a
// newer invitation replaces it; each refusal changes nothing.
func TestPortalInvitationIsSingleUse(t *testing.T) {
	app := testkit.Start(t)
	tenant, stranger := accountstest.NewUser(t, app), accountstest.NewUser(t, app)
	l := newLease(t, app, tenant.Email)
	links := func() int {
		n, err := app.DB.NewSelect().Table("tenant_links").Count(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return int(n)
	}

	old := l.invite(t, app, tenant.Email)
	token := l.invite(t, app, tenant.Email)
	if res := accept(app, old, tenant.Token); res.Status != http.StatusNotFound || code(res) != "invitation_not_found" {
		t.Fatalf("a replaced token: %d %s", res.Status, res.Body)
	}
	if res := accept(app, token, stranger.Token); res.Status != http.StatusForbidden || code(res) != "email_mismatch" {
		t.Fatalf("another address: %d %s", res.Status, res.Body)
	}
	for _, bad := range []string{"nope", strings.Repeat("a", 43)} {
		if res := accept(app, bad, tenant.Token); res.Status != http.StatusNotFound {
			t.Fatalf("token %q: %d", bad, res.Status)
		}
	}
	if links() != 0 {
		t.Fatal("a refused accept linked someone")
	}

	// Two accepts at once: one wins.
	var wg sync.WaitGroup
	statuses := make([]int, 4)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = accept(app, token, tenant.Token).Status
		}()
	}
	wg.Wait()
	ok := 0
	for _, s := range statuses {
		if s == http.StatusOK {
			ok++
		} else if s != http.StatusNotFound {
			t.Errorf("a concurrent accept: %d", s)
		}
	}
	if ok != 1 || links() != 1 {
		t.Fatalf("%d accepts succeeded, %d links", ok, links())
	}

	// Expired after 7 days.
	late := l.invite(t, app, tenant.Email)
	app.Clock.Advance(7*24*time.Hour + time.Second)
	fresh, err := app.Tokens.Issue(tenant.ID, 0, app.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if res := accept(app, late, fresh); res.Status != http.StatusNotFound {
		t.Fatalf("an expired token: %d %s", res.Status, res.Body)
	}

	// A contragent without an email, or of another workspace, gets none.
	landlord, err := app.Tokens.Issue(l.landlord.ID, 0, app.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	strangerToken, err := app.Tokens.Issue(stranger.ID, 0, app.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	noMail := created(t, app.Post("/api/v1/contragents", landlord, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "No Mail"}))
	app.Post("/api/v1/contragents/"+noMail+"/portal-invitation", landlord, nil).Expect(http.StatusBadRequest)
	app.Post("/api/v1/contragents/"+l.tenant+"/portal-invitation", strangerToken, nil).Expect(http.StatusForbidden)
	count := func(table, where string) int {
		n, err := app.DB.NewSelect().Table(table).Where(where).Count(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return int(n)
	}
	invitations, entries := count("portal_invitations", "1 = 1"), count("activity", "record_type = 'portal_invitation'")
	app.Mail.Fail(errors.New("smtp down"))
	app.Post("/api/v1/contragents/"+l.tenant+"/portal-invitation", landlord, nil).Expect(http.StatusServiceUnavailable)
	if count("portal_invitations", "1 = 1") != invitations || count("activity", "record_type = 'portal_invitation'") != entries {
		t.Fatal("an invitation whose mail failed was kept, or its log entry")
	}
}

// A tenant's token on every landlord route of their landlord's workspace
// gets 404, not 403: with the workspace named in X-Workspace-ID, and in
// their own workspace with the ids of the landlord's records.
func TestTenantSeesNothingOfTheLandlord(t *testing.T) {
	var guard *auth.Guard
	app := testkit.Start(t, testkit.WithPopulate(&guard))
	tenant := accountstest.NewUser(t, app)
	l := newLease(t, app, tenant.Email)
	accept(app, l.invite(t, app, tenant.Email), tenant.Token).Expect(200)

	var receipts struct {
		Receipts []struct {
			ID string `json:"id"`
		} `json:"receipts"`
	}
	app.Get("/api/v1/properties/"+l.property+"/receipts", l.landlord.Token).Expect(200).JSON(&receipts)
	ids := map[string]string{
		"workspaceId": strconv.FormatInt(l.ws, 10), "propertyId": l.property, "contragentId": l.tenant,
		"contractId": l.contract, "receiptId": receipts.Receipts[0].ID, "userId": strconv.FormatInt(l.landlord.ID, 10),
	}
	checked := 0
	for _, d := range guard.Declared() {
		if !d.Need.InWorkspace() {
			continue // public, the user's own, or the service administrator's
		}
		var body any
		if d.Method != http.MethodGet && d.Method != http.MethodDelete {
			body = map[string]any{}
		}
		parts := strings.Split(d.Path, "/")
		named := false
		for i, s := range parts {
			if name, ok := strings.CutPrefix(s, ":"); ok {
				if v := ids[name]; v != "" {
					parts[i], named = v, true
				} else {
					parts[i] = uuid.NewString()
				}
			}
		}
		path := "/api/v1" + strings.Join(parts, "/")
		res := app.Do(testkit.Request{Method: d.Method, Path: path, Token: tenant.Token, Body: body,
			Headers: map[string]string{auth.WorkspaceHeader: strconv.FormatInt(l.ws, 10)}})
		if res.Status != http.StatusNotFound {
			t.Errorf("%s %s in the landlord's workspace: %d %s, want 404", d.Method, d.Path, res.Status, res.Body)
		}
		checked++
		if !named || strings.HasPrefix(d.Path, "/workspaces/") {
			continue // a list of the tenant's own workspace
		}
		res = app.Do(testkit.Request{Method: d.Method, Path: path, Token: tenant.Token, Body: body})
		if res.Status != http.StatusNotFound {
			t.Errorf("%s %s with the landlord's ids: %d %s, want 404", d.Method, d.Path, res.Status, res.Body)
		}
	}
	if checked < 60 {
		t.Fatalf("only %d routes checked", checked)
	}
	// Nothing the walk sent changed the landlord's records.
	n, err := database.Count(context.Background(), app.DB, app.DB.NewSelect().Table("properties").Where("workspace_id = ?", database.Param{V: l.ws}))
	if err != nil || n != 1 {
		t.Fatalf("the landlord has %d properties (%v)", n, err)
	}
}

// The portal invitation is written in the tenant's language (their
// contract's) and names the landlord who invites.
func TestPortalInvitationInTheTenantsLanguage(t *testing.T) {
	app := testkit.Start(t)
	l := newLease(t, app, "anna@example.com")
	tok := l.landlord.Token
	app.Put("/api/v1/user/profile", tok, map[string]any{"name": "Lena Vermieterin"}).Expect(http.StatusOK)
	// Anna's contract is in English; Bernd's in German.
	app.Post("/api/v1/contragents/"+l.tenant+"/portal-invitation", tok, nil).Expect(http.StatusCreated)
	m, _ := app.Mail.Last("anna@example.com")
	if m.Subject != "Lena Vermieterin invites you to your tenant portal" || !strings.Contains(m.Text, "your landlord Lena Vermieterin invites you") {
		t.Errorf("the English invitation:\n%s\n%s", m.Subject, m.Text)
	}
	bernd := created(t, app.Post("/api/v1/contragents", tok, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Bernd Mieter", "email": "bernd@example.com"}))
	flat := created(t, app.Post("/api/v1/properties", tok, map[string]any{"name": "Flat 4", "country_code": "DE"}))
	c := created(t, app.Post("/api/v1/contracts", tok, map[string]any{"property_id": flat, "tenant_id": bernd, "number": "L-2", "locale": "de",
		"terms": []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 950}, {"code": "CONTRACT_START_DATE", "value": "2028-01-01"}}}))
	app.Post("/api/v1/contracts/"+c+"/activate", tok, nil).Expect(http.StatusOK)
	app.Post("/api/v1/contragents/"+bernd+"/portal-invitation", tok, nil).Expect(http.StatusCreated)
	m, _ = app.Mail.Last("bernd@example.com")
	if m.Subject != "Lena Vermieterin lädt Sie in Ihr Mieterportal ein" || !strings.Contains(m.Text, "Guten Tag Bernd Mieter,") ||
		!strings.Contains(m.Text, "Ihr Vermieter Lena Vermieterin lädt Sie in das Mieterportal ein") {
		t.Errorf("the German invitation:\n%s\n%s", m.Subject, m.Text)
	}
}
