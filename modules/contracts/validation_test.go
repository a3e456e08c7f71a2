package contracts_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// Every broken rule is one line of details, and nothing is written.
func TestBadInputIsNamedAndNothingWritten(t *testing.T) {
	f := start(t)
	provider := newContragent(t, f.app, f.user.Token, "provider")
	f.create(t, "taken")
	long := strings.Repeat("x", 4001)
	tests := []struct {
		name string
		body map[string]any
		want []string
	}{
		{"missing", map[string]any{}, []string{"property_id: is required", "tenant_id: is required", "number: is required"}},
		{"number bounds", map[string]any{"property_id": f.property, "tenant_id": f.tenant, "number": "  "}, []string{"number: must be 1 to 50"}},
		{"number too long", map[string]any{"property_id": f.property, "tenant_id": f.tenant, "number": strings.Repeat("n", 51)}, []string{"number: must be 1 to 50"}},
		{"locale", map[string]any{"property_id": f.property, "tenant_id": f.tenant, "number": "1", "locale": "xx"}, []string{"locale:"}},
		{"unknown refs", map[string]any{"property_id": "nope", "tenant_id": "019a0000-0000-7000-8000-000000000000", "number": "1"},
			[]string{"property_id: no such property", "tenant_id: no such contragent"}},
		{"not a tenant", map[string]any{"property_id": f.property, "tenant_id": provider, "number": "1"}, []string{"tenant_id: the contragent does not have the role tenant"}},
		{"terms", f.body("1",
			term{"NO_SUCH_BLOCK", 1},
			term{"FR_ZONE_TENDUE", true},
			term{"MONTHLY_RENT_AMOUNT", "950"},
			term{"DEPOSIT_AMOUNT", 10.555},
			term{"PAYMENT_DAY_OF_MONTH", 29},
			term{"DEPOSIT_MONTHS", 1.5},
			term{"PETS_ALLOWED", "yes"},
			term{"SPECIAL_CONDITIONS", long},
			term{"CONTRACT_START_DATE", "2026-13-01"},
			term{"pets_allowed", true},
			term{"PETS_ALLOWED", false},
			term{"FURNISHED", nil},
			term{"LATE_FEE_PERCENTAGE", "1"},
		), []string{
			"terms[0].code: unknown agreement block",
			"terms[1].code: FR_ZONE_TENDUE is a block of FR; the property is in DE",
			"terms[2].value: must be a JSON number",
			"terms[3].value: must have at most 2 decimals",
			"terms[4].value: must be between 1 and 28",
			"terms[5].value: must be a JSON integer",
			"terms[6].value: must be true or false",
			"terms[7].value: must be at most 4000 characters",
			"terms[8].value: must be a date",
			"terms[9].code: PETS_ALLOWED is given twice",
			"terms[10].code: PETS_ALLOWED is given twice",
			"terms[11].value: is required",
			"terms[12].value: must be a JSON number",
		}},
		{"date order", f.body("1", term{"CONTRACT_START_DATE", "2026-12-01"}, term{"CONTRACT_END_DATE", "2026-11-30"}),
			[]string{"terms: CONTRACT_END_DATE must not be before CONTRACT_START_DATE"}},
	}
	before := snapshot(t, f.app)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.app.Post(base, f.user.Token, tt.body).Expect(http.StatusBadRequest)
			var e struct {
				Error   string
				Details []string
			}
			res.JSON(&e)
			if e.Error != "validation_failed" || len(e.Details) != len(tt.want) {
				t.Fatalf("got %s, want %d lines %v", res.String(), len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(e.Details[i], w) {
					t.Errorf("line %d: %q, want it to start with %q", i, e.Details[i], w)
				}
			}
		})
	}
	f.app.Post(base, f.user.Token, f.body("taken")).Expect(http.StatusConflict)
	if after := snapshot(t, f.app); !reflect.DeepEqual(before, after) {
		t.Fatal("a refused request wrote")
	}
}

// Another user's property or tenant: 403 on creation and update, nothing
// written; an admin may use them but not mix owners.
func TestForeignReferences(t *testing.T) {
	f := start(t)
	stranger := newUserFor(t, f)
	theirProperty := newProperty(t, f.app, stranger.Token, "DE")
	theirTenant := newContragent(t, f.app, stranger.Token, "tenant")
	mine := f.create(t, "M")
	before := snapshot(t, f.app)
	for _, body := range []map[string]any{
		{"property_id": theirProperty, "tenant_id": f.tenant, "number": "X"},
		{"property_id": f.property, "tenant_id": theirTenant, "number": "X"},
	} {
		f.app.Post(base, f.user.Token, body).Expect(http.StatusForbidden)
		f.app.Put(base+"/"+mine.ID, f.user.Token, body).Expect(http.StatusForbidden)
	}
	admin := newUserFor(t, f, "ROLE_USER", "ROLE_ADMIN")
	res := f.app.Post(base, admin.Token, map[string]any{"property_id": f.property, "tenant_id": theirTenant, "number": "X"}).
		Expect(http.StatusBadRequest)
	if !contains(res.String(), "tenant_id: must be a contragent of the property's owner") {
		t.Fatal(res.String())
	}
	if after := snapshot(t, f.app); !reflect.DeepEqual(before, after) {
		t.Fatal("a refused request wrote")
	}
	// The admin's contract belongs to the property's owner.
	var c contract
	f.app.Post(base, admin.Token, map[string]any{"property_id": f.property, "tenant_id": f.tenant, "number": "Y"}).
		Expect(http.StatusCreated).JSON(&c)
	var l contractList
	f.app.Get(base, f.user.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 2 {
		t.Fatalf("owner's list %+v", l)
	}
}

// A property's country decides which blocks fit; changing the property of a
// draft checks its terms again.
func TestCountryBlocks(t *testing.T) {
	f := start(t)
	c := f.create(t, "DE-1", term{"DE_KAUTION_MONTHS", 3})
	fr := newProperty(t, f.app, f.user.Token, "FR")
	res := f.app.Put(base+"/"+c.ID, f.user.Token, map[string]any{"property_id": fr}).Expect(http.StatusBadRequest)
	if !contains(res.String(), "DE_KAUTION_MONTHS is a block of DE; the property is in FR") {
		t.Fatal(res.String())
	}
	var moved contract
	f.app.Put(base+"/"+c.ID, f.user.Token, map[string]any{"property_id": fr, "terms": []term{{"FR_ZONE_TENDUE", true}}}).
		Expect(http.StatusOK).JSON(&moved)
	if moved.PropertyID != fr || len(moved.Terms) != 1 {
		t.Fatalf("moved %+v", moved)
	}
}
