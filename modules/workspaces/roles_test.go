package workspaces_test

import (
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/testkit"
)

// The platform's own routes (service information, health, this document
// and its page) are public and registered by boot, not by a module table.
var platformRoutes = map[string]bool{
	"GET /api/v1/": true, "GET /api/v1/health": true, "GET /api/v1/doc.json": true,
	"GET /api/v1/doc": true, "GET /api/v1/doc/*": true,
}

func declarations(t *testing.T) (*testkit.App, map[string]auth.Declaration) {
	var guard *auth.Guard
	app := testkit.Start(t, testkit.WithPopulate(&guard))
	out := map[string]auth.Declaration{}
	for _, d := range guard.Declared() {
		out[d.Method+" /api/v1"+d.Path] = d
	}
	return app, out
}

// Every route a module serves declares the least role it needs in its
// route table, and the served document says it as x-propman-role.
func TestEveryRouteDeclaresARole(t *testing.T) {
	app, declared := declarations(t)
	stubs := map[string]bool{}
	for _, e := range modules.Catalog() {
		if e.Status == module.Stub {
			for _, p := range e.Prefixes {
				stubs["/api/v1"+p], stubs["/api/v1"+p+"/*"] = true, true
			}
		}
	}
	var doc map[string]any
	if err := json.Unmarshal(app.Doc.JSON, &doc); err != nil {
		t.Fatal(err)
	}
	paths := doc["paths"].(map[string]any)
	n := 0
	for _, r := range app.RoutesUnder("/api/v1") {
		key := r[0] + " " + r[1]
		if platformRoutes[key] || stubs[r[1]] {
			continue
		}
		n++
		d, ok := declared[key]
		if !ok {
			t.Errorf("%s declares no role: register it through guard.Routes with the least role it needs", key)
			continue
		}
		path := "/api/v1" + fiberToDoc(d.Path)
		item, ok := paths[path].(map[string]any)
		if !ok {
			t.Errorf("%s: doc.json has no path %s", key, path)
			continue
		}
		op, _ := item[strings.ToLower(r[0])].(map[string]any)
		if got := op["x-propman-role"]; got != d.Need.String() {
			t.Errorf("%s: doc.json says x-propman-role %v, the route table %s", key, got, d.Need)
		}
	}
	if n < 60 {
		t.Fatalf("only %d module routes seen", n)
	}
}

func fiberToDoc(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if strings.HasPrefix(s, ":") {
			// Fiber ends a parameter's name at a dot: ":token.ics".
			name, suffix, _ := strings.Cut(s[1:], ".")
			parts[i] = "{" + name + "}"
			if suffix != "" {
				parts[i] += "." + suffix
			}
		}
	}
	return strings.Join(parts, "/")
}

// world holds a landlord's records, one of each kind, by path parameter.
type world map[string]string

func newWorld(t *testing.T, app *testkit.App, token string, workspaceID int64) world {
	t.Helper()
	w := world{"workspaceId": strconv.FormatInt(workspaceID, 10)}
	w["propertyId"] = created(t, app.Post("/api/v1/properties", token, map[string]any{"name": "Flat", "country_code": "DE"}))
	prop := "/api/v1/properties/" + w["propertyId"]
	w["contragentId"] = created(t, app.Post("/api/v1/contragents", token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Anna"}))
	w["bankAccountId"] = created(t, app.Post("/api/v1/bank-accounts", token, map[string]any{"holder": "Anna", "iban": "DE89370400440532013000"}))
	w["contractId"] = created(t, app.Post("/api/v1/contracts", token, map[string]any{"property_id": w["propertyId"], "tenant_id": w["contragentId"],
		"number": "F-1", "terms": []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 950},
			{"code": "CONTRACT_START_DATE", "value": "2026-11-01"}, {"code": "PAYMENT_DAY_OF_MONTH", "value": 3}}}))
	w["expenseId"] = created(t, app.Post(prop+"/expenses", token, map[string]any{"name": "Water", "amount": 20, "type": "MONTHLY", "start_date": "2026-11-01", "due_day": 5}))
	w["paymentId"] = created(t, app.Post(prop+"/payments", token, map[string]any{"amount": 5, "method": "cash"}))
	w["counterId"] = created(t, app.Post(prop+"/counters", token, map[string]any{"kind": "electricity", "name": "Meter"}))
	w["readingId"] = created(t, app.Post(prop+"/counters/"+w["counterId"]+"/readings", token, map[string]any{"read_on": "2026-11-20", "value": 1}))
	var receipts struct {
		Receipts []struct {
			ID string `json:"id"`
		} `json:"receipts"`
	}
	app.Get(prop+"/receipts", token).Expect(200).JSON(&receipts)
	if len(receipts.Receipts) == 0 {
		t.Fatal("the payment has no receipt")
	}
	w["receiptId"] = receipts.Receipts[0].ID
	w["documentId"] = uuid.NewString() // the role check comes before the document is looked up
	w["messageId"] = uuid.NewString()
	w["proposalId"] = created(t, app.Post(prop+"/proposals", token, map[string]any{"title": "Flat", "rent": 900, "available_from": "2027-01-01"}))
	w["applicationId"] = uuid.NewString() // refused, or looked up in vain
	w["negotiationId"] = uuid.NewString()
	w["slug"] = "nosuchslug"
	w["number"] = "RR123456785DE" // tools' postal tracking number
	// assets, violations, compensations, repairs: the role check comes first too.
	for _, k := range []string{"assetId", "inspectionId", "violationId", "compensationId", "settlementId", "requestId"} {
		w[k] = uuid.NewString()
	}
	w["invoiceId"] = uuid.NewString() // billing: the role check comes before the invoice is looked up
	w["eventId"] = uuid.NewString()   // calendar: the role check comes first
	w["accountId"] = uuid.NewString() // ledger: the role check comes first
	// banking: the role check comes before the line or mapping is looked up.
	w["bankLineId"], w["mappingId"] = uuid.NewString(), uuid.NewString()
	w["billId"] = uuid.NewString() // bills: the property is read first, then no bill has this id
	w["buildingId"] = created(t, app.Post("/api/v1/buildings", token, map[string]any{"name": "House", "country_code": "DE"}))
	w["statementId"] = uuid.NewString() // opcosts: the building is read first, then no statement has this id
	w["locale"] = "en"
	w["token"] = "no-such-token"
	w["invitationId"] = "987654321" // refused before any lookup
	return w
}

// path fills the route's parameters from w, or with ids that name nothing
// when withRecords is false (the workspace stays the real one).
func (w world) path(t *testing.T, route string, withRecords bool) string {
	parts := strings.Split(route, "/")
	for i, s := range parts {
		name, ok := strings.CutPrefix(s, ":")
		if !ok {
			continue
		}
		switch {
		case name == "workspaceId":
			parts[i] = w[name]
		case name == "userId" && withRecords:
			parts[i] = w["ownerId"]
		case name == "userId":
			parts[i] = "987654321"
		case withRecords && w[name] != "":
			parts[i] = w[name]
		case !withRecords:
			parts[i] = uuid.NewString()
		default:
			t.Fatalf("no record for :%s of %s", name, route)
		}
	}
	return strings.Join(parts, "/")
}

// Every role, a non-member and a caller without a token try every route
// that acts in a workspace; each answer agrees with the route's declared
// role. A role below it is refused by the guard with real ids (nothing is
// reached); a role at or above it passes the guard, shown with ids that
// name nothing (so no record is changed): the handler's 404 or 400, never
// 401 or 403.
func TestEveryRoleOnEveryRoute(t *testing.T) {
	app, declared := declarations(t)
	owner := accountstest.NewUser(t, app)
	ws := workspaceOf(t, app, owner.Token)
	w := newWorld(t, app, owner.Token, ws)
	w["ownerId"] = strconv.FormatInt(owner.ID, 10)
	members := map[auth.Role]accountstest.User{auth.Owner: owner}
	for _, role := range []auth.Role{auth.Viewer, auth.Accountant, auth.Manager} {
		u := accountstest.NewUser(t, app)
		join(t, app, ws, u, role)
		members[role] = u
	}
	stranger := accountstest.NewUser(t, app)
	admin := accountstest.NewUser(t, app, "ROLE_USER", "ROLE_ADMIN")

	var routes []auth.Declaration
	for _, d := range declared {
		routes = append(routes, d)
	}
	// Leaving comes last: a member who left is no member any more.
	sort.Slice(routes, func(i, j int) bool {
		li, lj := strings.HasSuffix(routes[i].Path, "/leave"), strings.HasSuffix(routes[j].Path, "/leave")
		if li != lj {
			return lj
		}
		return routes[i].Method+routes[i].Path < routes[j].Method+routes[j].Path
	})
	checked, admins := 0, 0
	for _, d := range routes {
		key := d.Method + " /api/v1" + d.Path
		if d.Need == auth.Anyone {
			continue
		}
		var body any
		if d.Method != http.MethodGet && d.Method != http.MethodDelete {
			body = map[string]any{}
		}
		records := "/api/v1" + w.path(t, d.Path, true)
		if res := app.Do(testkit.Request{Method: d.Method, Path: records, Body: body}); res.Status != http.StatusUnauthorized {
			t.Errorf("%s without a token: %d, want 401", key, res.Status)
		}
		if d.Need == auth.SignedIn {
			continue
		}
		if d.Need == auth.Admin {
			// The service's administrators only: every member of a
			// workspace, its owner too, is refused; an administrator passes.
			admins++
			for _, role := range auth.WorkspaceRoles {
				res := in(app, ws, d.Method, records, members[role].Token, body)
				if res.Status != http.StatusForbidden || errorCode(t, res) != "forbidden" {
					t.Errorf("%s by a %s (needs admin): %d %s, want 403 forbidden", key, role, res.Status, res.Body)
				}
			}
			if res := app.Do(testkit.Request{Method: d.Method, Path: records, Token: admin.Token, Body: body}); res.Status == http.StatusUnauthorized || res.Status == http.StatusForbidden || res.Status >= 500 {
				t.Errorf("%s by an administrator: %d %s, want the handler's answer", key, res.Status, res.Body)
			}
			continue
		}
		checked++
		if res := in(app, ws, d.Method, records, stranger.Token, body); res.Status != http.StatusForbidden || errorCode(t, res) != "not_a_member" {
			t.Errorf("%s by a non-member: %d %s, want 403 not_a_member", key, res.Status, res.Body)
		}
		for _, role := range auth.WorkspaceRoles {
			u := members[role]
			if role < d.Need {
				res := in(app, ws, d.Method, records, u.Token, body)
				if res.Status != http.StatusForbidden || !strings.Contains(res.String(), "needs the role "+d.Need.String()) {
					t.Errorf("%s by a %s (needs %s): %d %s, want 403", key, role, d.Need, res.Status, res.Body)
				}
				continue
			}
			res := in(app, ws, d.Method, "/api/v1"+w.path(t, d.Path, false), u.Token, body)
			if res.Status == http.StatusUnauthorized || res.Status == http.StatusForbidden || res.Status >= 500 {
				t.Errorf("%s by a %s (needs %s): %d %s, want the handler's answer", key, role, d.Need, res.Status, res.Body)
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d workspace routes checked", checked)
	}
	if admins == 0 {
		t.Fatal("no administrator route checked (GET /analytics/summary is one)")
	}
}
