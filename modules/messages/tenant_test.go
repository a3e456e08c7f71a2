package messages_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/google/uuid"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/mail/mailtest"
)

var tokenInMail = regexp.MustCompile(`token=([A-Za-z0-9_-]{43})`)

// A linked tenant reads their contract's thread without the landlord's
// notes, and writes to it through the portal; nobody else reaches it.
func TestTenantReadsAndWritesTheirThread(t *testing.T) {
	srv := mailtest.Start(t)
	app := start(t, srv)
	tenant := accountstest.NewUser(t, app)
	l := newLease(t, app, tenant.Email)
	app.Post("/api/v1/contragents/"+l.tenant+"/portal-invitation", l.landlord.Token, nil).Expect(http.StatusCreated)
	inv, ok := app.Mail.Last(tenant.Email)
	if !ok {
		t.Fatal("no invitation mail")
	}
	app.Post("/api/v1/tenancy/invitations/"+tokenInMail.FindStringSubmatch(inv.Text)[1]+"/accept", tenant.Token, nil).Expect(http.StatusOK)

	tok := l.landlord.Token
	note := decode(t, app.Post(l.messages(), tok, map[string]any{"contract_id": l.contract, "direction": "note", "body": "internal"}).Expect(http.StatusCreated))
	portal := decode(t, app.Post(l.messages(), tok, map[string]any{"contract_id": l.contract, "channel": "portal",
		"subject": "Heating", "body": "The heating is serviced on Monday."}).Expect(http.StatusCreated))
	mine := "/api/v1/tenancy/contracts/" + l.contract + "/messages"
	seen := list(t, app, mine, tenant.Token)
	if len(seen) != 1 || seen[0].ID != portal.ID {
		t.Fatalf("the tenant sees %+v, want the portal message only (not note %s)", seen, note.ID)
	}
	reply := decode(t, app.Post(mine, tenant.Token, map[string]any{"body": "Thanks,\nI will be home."}).Expect(http.StatusCreated))
	if reply.Direction != "in" || reply.Channel == nil || *reply.Channel != "portal" || reply.Author.ContragentID == nil ||
		*reply.Author.ContragentID != l.tenant || reply.Author.UserID == nil || *reply.Author.UserID != tenant.ID {
		t.Fatalf("tenant message %+v", reply)
	}
	landlordSees := list(t, app, l.messages()+"?direction=in", tok)
	if len(landlordSees) != 1 || landlordSees[0].ID != reply.ID || landlordSees[0].ThreadID != portal.ThreadID {
		t.Fatalf("the landlord sees %+v", landlordSees)
	}
	app.Post(mine, tenant.Token, map[string]any{"body": ""}).Expect(http.StatusBadRequest)

	// Not theirs: another user, the landlord (no tenant), an unknown contract.
	stranger := accountstest.NewUser(t, app)
	app.Get(mine, stranger.Token).Expect(http.StatusNotFound)
	app.Post(mine, stranger.Token, map[string]any{"body": "hi"}).Expect(http.StatusNotFound)
	app.Get(mine, tok).Expect(http.StatusNotFound)
	app.Get("/api/v1/tenancy/contracts/"+uuid.NewString()+"/messages", tenant.Token).Expect(http.StatusNotFound)
	// And the landlord's routes are 404 to the tenant.
	app.Get(l.messages(), tenant.Token).Expect(http.StatusNotFound)
}
