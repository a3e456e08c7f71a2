package contracts_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/propman/propman/modules/expenses/migrations"
	"github.com/propman/propman/platform/testkit"
)

type namedCharge struct {
	Name     string `json:"name"`
	NameKind string `json:"name_kind"`
}

func namesOf(t *testing.T, app *testkit.App, path, token string) map[string]string {
	t.Helper()
	var l struct {
		Charges  []namedCharge `json:"charges"`
		Expenses []namedCharge `json:"expenses"`
	}
	app.Get(path, token).Expect(http.StatusOK).JSON(&l)
	out := map[string]string{}
	for _, c := range append(l.Charges, l.Expenses...) {
		out[c.NameKind] = c.Name
	}
	return out
}

// The service's own charges are named from their kind when read: a German
// landlord reads German, an English one what the service always wrote,
// and a charge the landlord named keeps the name as typed.
func TestGeneratedChargeNamesInTheReadersLanguage(t *testing.T) {
	f := start(t)
	c := f.create(t, "2026/001", append(rentTerms("2026-11-01"), term{"DEPOSIT_AMOUNT", 1900}, term{"UTILITY_PREPAYMENT_AMOUNT", 120})...)
	f.app.Post(base+"/"+c.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	f.refresh(t)
	f.app.Post("/api/v1/properties/"+f.property+"/charges", f.user.Token,
		map[string]any{"name": "Rent, contract 2026/001", "amount": 5, "due_date": "2026-11-10"}).Expect(http.StatusCreated)
	charges := "/api/v1/properties/" + f.property + "/charges"

	en := namesOf(t, f.app, charges, f.user.Token)
	want := map[string]string{"rent": "Rent, contract 2026/001", "deposit": "Deposit", "custom": "Rent, contract 2026/001"}
	for k, v := range want {
		if en[k] != v {
			t.Errorf("en %s: %q, want %q (all: %v)", k, en[k], v, en)
		}
	}

	for _, tc := range []struct{ locale, rent, deposit, expense string }{
		{"de", "Miete, Vertrag 2026/001", "Kaution", "Miete, Vertrag 2026/001"},
		{"fr", "Loyer, contrat 2026/001", "Dépôt de garantie", "Loyer, contrat 2026/001"},
	} {
		f.app.Put("/api/v1/user/profile", f.user.Token, map[string]any{"locale": tc.locale}).Expect(http.StatusOK)
		got := namesOf(t, f.app, charges, f.user.Token)
		if got["rent"] != tc.rent || got["deposit"] != tc.deposit {
			t.Errorf("%s: rent %q, deposit %q; want %q, %q", tc.locale, got["rent"], got["deposit"], tc.rent, tc.deposit)
		}
		// A name the landlord typed is theirs, even when it reads like one
		// of the service's.
		if got["custom"] != "Rent, contract 2026/001" {
			t.Errorf("%s: the typed name reads %q", tc.locale, got["custom"])
		}
		exp := namesOf(t, f.app, "/api/v1/properties/"+f.property+"/expenses", f.user.Token)
		if exp["rent"] != tc.expense {
			t.Errorf("%s: rent expense %q, want %q", tc.locale, exp["rent"], tc.expense)
		}
	}
}

// A charge stored by the old code (an English name, no kind) reads in
// German once the migration has read its name.
func TestMigratedEnglishNamesReadInGerman(t *testing.T) {
	f := start(t)
	c := f.create(t, "2026/001", append(rentTerms("2026-11-01"), term{"DEPOSIT_AMOUNT", 1900})...)
	f.app.Post(base+"/"+c.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	f.refresh(t)
	f.app.Put("/api/v1/user/profile", f.user.Token, map[string]any{"locale": "de"}).Expect(http.StatusOK)
	ctx := context.Background()
	// The rows as the old code left them, plus a late fee on the rent.
	for _, table := range []string{"charges", "expenses"} {
		if _, err := f.app.DB.NewUpdate().Table(table).Set("name_kind = 'custom'").Set("name_args = ''").Where("1 = 1").Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.app.DB.NewUpdate().Table("charges").Set("name = 'Late fee: Rent, contract 2026/001'").
		Where("name = 'Deposit'").Exec(ctx); err != nil {
		t.Fatal(err)
	}
	charges := "/api/v1/properties/" + f.property + "/charges"
	if got := namesOf(t, f.app, charges, f.user.Token); got["custom"] == "" || got["rent"] != "" {
		t.Fatalf("before the migration every name should be custom and English: %v", got)
	}
	if err := migrations.NameKinds(ctx, f.app.DB); err != nil {
		t.Fatal(err)
	}
	got := namesOf(t, f.app, charges, f.user.Token)
	if got["rent"] != "Miete, Vertrag 2026/001" {
		t.Errorf("migrated rent reads %q", got["rent"])
	}
	if got["late_fee"] != "Verzugszuschlag: Miete, Vertrag 2026/001" {
		t.Errorf("migrated late fee reads %q", got["late_fee"])
	}
	if _, ok := got["custom"]; ok {
		t.Errorf("a generated name stayed custom: %v", got)
	}
	if err := migrations.NameKinds(ctx, f.app.DB); err != nil {
		t.Fatalf("a second run: %v", err)
	}
}
