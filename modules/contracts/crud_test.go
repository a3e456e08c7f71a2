package contracts_test

import (
	"net/http"
	"reflect"
	"testing"
	"time"
)

func TestCreateGetUpdateDelete(t *testing.T) {
	f := start(t)
	created := f.create(t, " 2026/001 ", term{"monthly_rent_amount", 950.5}, term{"CONTRACT_START_DATE", "2026-12-01"},
		term{"CONTRACT_END_DATE", "2027-11-30"}, term{"DEPOSIT_MONTHS", 2}, term{"PETS_ALLOWED", true},
		term{"SPECIAL_CONDITIONS", "  No parties. "}, term{"DE_KAUTION_MONTHS", 3}, term{"LATE_FEE_PERCENTAGE", 1.25})
	if created.Status != "draft" || created.Number != "2026/001" || created.Currency != "EUR" || created.Locale != "en" ||
		created.PropertyID != f.property || created.TenantID != f.tenant || len(created.ID) != 36 || created.ID[14] != '7' {
		t.Fatalf("created %+v", created)
	}
	if *created.StartDate != "2026-12-01" || *created.EndDate != "2027-11-30" || created.Rent != 950.5 ||
		created.Deposit != 1901.0 || created.DueDay != 1 || created.TerminatedOn != nil || created.TerminationReason != nil {
		t.Fatalf("derived fields %+v", created)
	}
	wantTerms := []term{{"MONTHLY_RENT_AMOUNT", 950.5}, {"CONTRACT_START_DATE", "2026-12-01"}, {"CONTRACT_END_DATE", "2027-11-30"},
		{"DEPOSIT_MONTHS", 2.0}, {"PETS_ALLOWED", true}, {"SPECIAL_CONDITIONS", "No parties."}, {"DE_KAUTION_MONTHS", 3.0},
		{"LATE_FEE_PERCENTAGE", 1.25}}
	if !reflect.DeepEqual(created.Terms, wantTerms) {
		t.Fatalf("terms %+v\nwant  %+v", created.Terms, wantTerms)
	}
	// Money terms keep 2 decimals in the body.
	res := f.app.Get(base+"/"+created.ID, f.user.Token).Expect(http.StatusOK)
	var got contract
	res.JSON(&got)
	if !reflect.DeepEqual(got, created) {
		t.Fatalf("get %+v\nwant %+v", got, created)
	}
	if !contains(res.String(), `"value":950.50`) || !contains(res.String(), `"rent":950.50`) {
		t.Fatalf("money not written with 2 decimals: %s", res.String())
	}

	f.app.Clock.Advance(time.Minute)
	var updated contract
	f.app.Put(base+"/"+created.ID, f.user.Token, map[string]any{"number": "2026/002", "locale": "DE",
		"terms": []term{{"MONTHLY_RENT_AMOUNT", 1000}, {"PAYMENT_DAY_OF_MONTH", 5}}}).Expect(http.StatusOK).JSON(&updated)
	if updated.Number != "2026/002" || updated.Locale != "de" || updated.Rent != 1000.0 || updated.DueDay != 5 ||
		updated.StartDate != nil || updated.Deposit != nil || len(updated.Terms) != 2 || updated.UpdatedAt != "2026-11-22T10:01:00Z" {
		t.Fatalf("updated %+v", updated)
	}

	var l contractList
	f.app.Get(base, f.user.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 1 || l.Contracts[0].ID != created.ID {
		t.Fatalf("list %+v", l)
	}
	f.app.Delete(base+"/"+created.ID, f.user.Token).Expect(http.StatusNoContent)
	f.app.Get(base+"/"+created.ID, f.user.Token).Expect(http.StatusNotFound)
}

func contains(s, sub string) bool {
	return len(s) >= len(sub) && (len(sub) == 0 || indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func TestNumberIsUniquePerOwner(t *testing.T) {
	f := start(t)
	f.create(t, "A-1")
	f.app.Post(base, f.user.Token, f.body("A-1")).Expect(http.StatusConflict)
	other := f.create(t, "A-2")
	res := f.app.Put(base+"/"+other.ID, f.user.Token, map[string]any{"number": "A-1"}).Expect(http.StatusConflict)
	if res.Map()["error"] != "number_exists" {
		t.Fatalf("%s", res.String())
	}
	// Another owner may use the same number.
	g := fixture{app: f.app}
	g.user = newUserFor(t, f)
	g.property = newProperty(t, f.app, g.user.Token, "FR")
	g.tenant = newContragent(t, f.app, g.user.Token, "tenant")
	g.create(t, "A-1")
}

func TestListFilters(t *testing.T) {
	f := start(t)
	other := newProperty(t, f.app, f.user.Token, "DE")
	a := f.create(t, "1", rentTerms("2026-01-01")...)
	f.create(t, "2")
	b := f.body("3")
	b["property_id"] = other
	f.app.Post(base, f.user.Token, b).Expect(http.StatusCreated)
	f.app.Post(base+"/"+a.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)

	count := func(q string) int {
		var l contractList
		f.app.Get(base+q, f.user.Token).Expect(http.StatusOK).JSON(&l)
		return l.Total
	}
	for q, want := range map[string]int{"": 3, "?status=draft": 2, "?status=active": 1, "?status=ended": 0,
		"?property_id=" + other: 1, "?property_id=" + f.property + "&status=draft": 1, "?tenant_id=" + f.tenant: 3,
		"?tenant_id=019a0000-0000-7000-8000-000000000000": 0, "?per_page=1&page=2": 3} {
		if got := count(q); got != want {
			t.Errorf("%s: %d, want %d", q, got, want)
		}
	}
	f.app.Get(base+"?status=open", f.user.Token).Expect(http.StatusBadRequest)
	f.app.Get(base+"?property_id=nope", f.user.Token).Expect(http.StatusBadRequest)
}
