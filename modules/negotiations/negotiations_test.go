package negotiations_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

type round struct {
	Round             int    `json:"round"`
	Side              string `json:"side"`
	LandlordAccepted  bool   `json:"landlord_accepted"`
	ApplicantAccepted bool   `json:"applicant_accepted"`
	Terms             []struct {
		Code  string `json:"code"`
		Value any    `json:"value"`
	} `json:"terms"`
}

type negotiation struct {
	ID           string  `json:"id"`
	Status       string  `json:"status"`
	CurrentRound int     `json:"current_round"`
	AgreedRound  *int    `json:"agreed_round"`
	ContractID   *string `json:"contract_id"`
	Rounds       []round `json:"rounds"`
}

type contract struct {
	ID       string `json:"id"`
	TenantID string `json:"tenant_id"`
	Status   string `json:"status"`
	Rent     any    `json:"rent"`
	Locale   string `json:"locale"`
}

// fixture is a landlord with a property, a published proposal and a
// shortlisted application from maria@example.com (locale de).
type fixture struct {
	app         *testkit.App
	user        accountstest.User
	property    string
	proposal    string
	slug        string
	application string
}

var (
	codePattern = regexp.MustCompile(`\b[0-9]{6}\b`)
	// The mail links to the web app's page (clients/web) under the public
	// URL (localhost while http.publicurl is unset), which reads the API.
	linkPattern = regexp.MustCompile(`http://localhost:8080/negotiations/([A-Za-z0-9._-]+)`)
)

func start(t testing.TB, opts ...testkit.Option) fixture {
	t.Helper()
	app := testkit.Start(t, append([]testkit.Option{testkit.WithConfig("ratelimit.enabled", false)}, opts...)...)
	f := fixture{app: app, user: accountstest.NewUser(t, app)}
	var p struct {
		ID   string `json:"id"`
		Slug string `json:"slug"`
	}
	app.Post("/api/v1/properties", f.user.Token, map[string]any{"name": "Flat", "country_code": "DE",
		"address": "Parkstraße 7", "city": "Berlin", "postal_code": "10115"}).Expect(http.StatusCreated).JSON(&p)
	f.property = p.ID
	app.Post(f.proposals(), f.user.Token, map[string]any{"title": "Two rooms", "rent": 950, "deposit_months": 2,
		"available_from": "2027-01-01", "terms": []map[string]any{{"code": "PAYMENT_DAY_OF_MONTH", "value": 3}}}).
		Expect(http.StatusCreated).JSON(&p)
	f.proposal, f.slug = p.ID, p.Slug
	app.Post(f.proposals()+"/"+f.proposal+"/publish", f.user.Token, nil).Expect(http.StatusOK)
	f.application = f.applicant(t, "maria@example.com")
	app.Post(f.proposals()+"/"+f.proposal+"/applications/"+f.application+"/shortlist", f.user.Token, nil).Expect(http.StatusOK)
	return f
}

// applicant sends and confirms an application from email.
func (f fixture) applicant(t testing.TB, email string) string {
	t.Helper()
	var a struct {
		ApplicationID string `json:"application_id"`
	}
	path := "/api/v1/public/proposals/" + f.slug + "/applications"
	f.app.Post(path, "", map[string]any{"name": "Maria Muster", "email": email, "locale": "de", "desired_start": "2027-02-01"}).
		Expect(http.StatusAccepted).JSON(&a)
	m, _ := f.app.Mail.Last(email)
	f.app.Post(path+"/"+a.ApplicationID+"/confirm", "", map[string]any{"code": codePattern.FindString(m.Text)}).Expect(http.StatusOK)
	return a.ApplicationID
}

func (f fixture) proposals() string { return "/api/v1/properties/" + f.property + "/proposals" }

func (f fixture) base() string { return "/api/v1/properties/" + f.property + "/negotiations" }

func (f fixture) open(t testing.TB, body map[string]any) negotiation {
	t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	body["application_id"] = f.application
	var n negotiation
	f.app.Post(f.base(), f.user.Token, body).Expect(http.StatusCreated).JSON(&n)
	return n
}

// link waits for the mail with the applicant's link and returns the API
// path its page reads.
func link(t testing.TB, app *testkit.App, email string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, m := range app.Mail.Messages() {
			if m.To == email {
				if l := linkPattern.FindStringSubmatch(m.Text); l != nil {
					return "/api/v1/public/negotiations/" + l[1]
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("no link mailed")
	return ""
}

func count(t testing.TB, app *testkit.App, table string) int {
	t.Helper()
	n, err := app.DB.NewSelect().Table(table).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func offer(round int, rent float64) map[string]any {
	return map[string]any{"round": round, "message": "Our offer", "terms": []map[string]any{
		{"code": "MONTHLY_RENT_AMOUNT", "value": rent}, {"code": "CONTRACT_START_DATE", "value": "2027-02-01"},
		{"code": "PAYMENT_DAY_OF_MONTH", "value": 3}}}
}

func TestRoundsToAgreementAndContract(t *testing.T) {
	f := start(t)
	n := f.open(t, nil)
	if n.Status != "open" || n.CurrentRound != 1 || len(n.Rounds) != 1 || !n.Rounds[0].LandlordAccepted {
		t.Fatalf("opened: %+v", n)
	}
	codes := map[string]any{}
	for _, term := range n.Rounds[0].Terms {
		codes[term.Code] = term.Value
	}
	if codes["MONTHLY_RENT_AMOUNT"] != 950.0 || codes["CONTRACT_START_DATE"] != "2027-02-01" || codes["DEPOSIT_MONTHS"] != 2.0 {
		t.Errorf("default terms: %v", codes)
	}
	public := link(t, f.app, "maria@example.com")
	var pub negotiation
	f.app.Get(public, "").Expect(http.StatusOK).JSON(&pub)
	if pub.ID != n.ID || len(pub.Rounds) != 1 {
		t.Fatalf("public: %+v", pub)
	}
	// A forged or altered token opens nothing.
	f.app.Get(public[:len(public)-2]+"xx", "").Expect(http.StatusNotFound)
	f.app.Get("/api/v1/public/negotiations/"+n.ID+".AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "").Expect(http.StatusNotFound)

	// The applicant answers with round 2; the same round again is stale,
	// and so is the landlord accepting round 1 now.
	f.app.Post(public+"/offers", "", offer(2, 900)).Expect(http.StatusCreated).JSON(&pub)
	if pub.CurrentRound != 2 || !pub.Rounds[1].ApplicantAccepted || pub.Rounds[1].LandlordAccepted {
		t.Fatalf("round 2: %+v", pub)
	}
	res := f.app.Post(public+"/offers", "", offer(2, 880)).Expect(http.StatusConflict)
	if !strings.Contains(res.String(), "stale_round") {
		t.Errorf("stale offer: %s", res.String())
	}
	f.app.Post(f.base()+"/"+n.ID+"/accept", f.user.Token, map[string]any{"round": 1}).Expect(http.StatusConflict)
	f.app.Post(f.base()+"/"+n.ID+"/contract", f.user.Token, nil).Expect(http.StatusConflict)

	f.app.Post(f.base()+"/"+n.ID+"/accept", f.user.Token, map[string]any{"round": 2}).Expect(http.StatusOK).JSON(&n)
	if n.Status != "agreed" || n.AgreedRound == nil || *n.AgreedRound != 2 {
		t.Fatalf("agreed: %+v", n)
	}
	// The link replayed after the end writes nothing.
	f.app.Post(public+"/offers", "", offer(3, 800)).Expect(http.StatusConflict)
	f.app.Post(public+"/decline", "", nil).Expect(http.StatusConflict)

	before := count(t, f.app, "contragents")
	var k contract
	f.app.Post(f.base()+"/"+n.ID+"/contract", f.user.Token, nil).Expect(http.StatusCreated).JSON(&k)
	if k.Status != "draft" || k.Rent != 900.0 || k.Locale != "de" {
		t.Errorf("contract: %+v", k)
	}
	var again contract
	f.app.Post(f.base()+"/"+n.ID+"/contract", f.user.Token, nil).Expect(http.StatusOK).JSON(&again)
	if again.ID != k.ID || count(t, f.app, "contragents") != before+1 || count(t, f.app, "contracts") != 1 {
		t.Errorf("second call made more: %+v", again)
	}
	var tenant struct {
		Email string   `json:"email"`
		Roles []string `json:"roles"`
	}
	f.app.Get("/api/v1/contragents/"+k.TenantID, f.user.Token).Expect(http.StatusOK).JSON(&tenant)
	if tenant.Email != "maria@example.com" || len(tenant.Roles) != 1 || tenant.Roles[0] != "tenant" {
		t.Errorf("tenant: %+v", tenant)
	}
	f.app.Get(f.base()+"/"+n.ID, f.user.Token).Expect(http.StatusOK).JSON(&n)
	if n.ContractID == nil || *n.ContractID != k.ID {
		t.Errorf("negotiation: %+v", n)
	}
}

func TestOpeningNeedsAShortlistedApplication(t *testing.T) {
	f := start(t)
	other := f.applicant(t, "other@example.com")
	before := count(t, f.app, "negotiations")
	f.app.Post(f.base(), f.user.Token, map[string]any{"application_id": other}).Expect(http.StatusConflict)
	f.app.Post(f.base(), f.user.Token, map[string]any{"application_id": "019a4f3e-7c1d-7a2b-9c3d-2e4f5a6b7c8d"}).Expect(http.StatusBadRequest)
	f.app.Post(f.base(), f.user.Token, map[string]any{"application_id": f.application, "message": strings.Repeat("x", 2001)}).Expect(http.StatusBadRequest)
	f.app.Post(f.base(), f.user.Token, map[string]any{"application_id": f.application,
		"terms": []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": "lots"}}}).Expect(http.StatusBadRequest)
	stranger := accountstest.NewUser(t, f.app)
	f.app.Post(f.base(), stranger.Token, map[string]any{"application_id": f.application}).Expect(http.StatusForbidden)
	if n := count(t, f.app, "negotiations"); n != before {
		t.Errorf("negotiations %d, want %d", n, before)
	}
	n := f.open(t, nil)
	f.app.Post(f.base(), f.user.Token, map[string]any{"application_id": f.application}).Expect(http.StatusConflict)
	f.app.Get(f.base()+"/"+n.ID, stranger.Token).Expect(http.StatusForbidden)
	f.app.Post(f.base()+"/"+n.ID+"/decline", stranger.Token, nil).Expect(http.StatusForbidden)
	f.app.Post(f.base()+"/"+n.ID+"/decline", f.user.Token, nil).Expect(http.StatusOK).JSON(&n)
	if n.Status != "declined" {
		t.Errorf("status %s", n.Status)
	}
	var l struct {
		Negotiations []negotiation `json:"negotiations"`
	}
	f.app.Get(f.base()+"?status=declined", f.user.Token).Expect(http.StatusOK).JSON(&l)
	if len(l.Negotiations) != 1 {
		t.Errorf("list: %+v", l)
	}
}

func TestExpiredByTheJob(t *testing.T) {
	f := start(t, testkit.WithConfig("modules.negotiations.sweep", "100ms"))
	n := f.open(t, map[string]any{"expires_in_days": 1})
	public := link(t, f.app, "maria@example.com")
	f.app.Clock.Advance(25 * time.Hour)
	// Past its time it takes nothing, even before the job ran.
	f.app.Post(public+"/accept", "", map[string]any{"round": 1}).Expect(http.StatusConflict)
	// The landlord's token expired with the day: read the row.
	var status string
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if err := f.app.DB.NewSelect().Table("negotiations").Column("status").Where("id = ?", n.ID).
			Scan(context.Background(), &status); err != nil {
			t.Fatal(err)
		}
		if status == "expired" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("status %s, want expired", status)
}

// TestContractOnceUnderConcurrency: more callers than connections, one
// contract.
func TestContractOnceUnderConcurrency(t *testing.T) {
	f := start(t, testkit.WithConfig("database.maxopen", 4))
	n := f.open(t, nil)
	public := link(t, f.app, "maria@example.com")
	f.app.Post(public+"/accept", "", map[string]any{"round": 1}).Expect(http.StatusOK)
	var wg sync.WaitGroup
	var mu sync.Mutex
	status := map[int]int{}
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := f.app.Do(testkit.Request{Method: http.MethodPost, Path: f.base() + "/" + n.ID + "/contract", Token: f.user.Token})
			mu.Lock()
			status[res.Status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if status[http.StatusCreated] != 1 || status[http.StatusOK] != 11 {
		t.Errorf("statuses %v", status)
	}
	if c := count(t, f.app, "contracts"); c != 1 {
		t.Errorf("%d contracts", c)
	}
}
