package bankaccounts_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

type account struct {
	ID          string `json:"id"`
	Holder      string `json:"holder"`
	IBAN        string `json:"iban"`
	IBANDisplay string `json:"iban_display"`
	BIC         string `json:"bic"`
	BankName    string `json:"bank_name"`
	Label       string `json:"label"`
	Currency    string `json:"currency"`
	IsDefault   bool   `json:"is_default"`
}

const base = "/api/v1/bank-accounts"

func create(t *testing.T, app *testkit.App, token string, body map[string]any) account {
	t.Helper()
	var a account
	app.Post(base, token, body).Expect(http.StatusCreated).JSON(&a)
	return a
}

func rows(t *testing.T, app *testkit.App) int64 {
	t.Helper()
	n, err := app.DB.NewSelect().Table("bank_accounts").Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// refused expects a 400 validation_failed whose only detail is about field.
func refused(t *testing.T, res *testkit.Response, field string) string {
	t.Helper()
	var body struct {
		Error   string   `json:"error"`
		Details []string `json:"details"`
	}
	res.Expect(http.StatusBadRequest).JSON(&body)
	if body.Error != "validation_failed" || len(body.Details) != 1 || !strings.HasPrefix(body.Details[0], field+": ") {
		t.Fatalf("want one detail on %s, got %s", field, res.String())
	}
	return body.Details[0]
}

func TestIBANIsCheckedAndNormalized(t *testing.T) {
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)

	for _, tc := range []struct{ in, iban, display string }{
		{"de89 3704 0044 0532 0130 00", "DE89370400440532013000", "DE89 3704 0044 0532 0130 00"},
		{"FR76 3000 6000 0112 3456 7890 189", "FR7630006000011234567890189", "FR76 3000 6000 0112 3456 7890 189"},
		{"gb29nwbk60161331926819", "GB29NWBK60161331926819", "GB29 NWBK 6016 1331 9268 19"},
	} {
		a := create(t, app, u.Token, map[string]any{"holder": "Anna Schmidt", "iban": tc.in})
		if a.IBAN != tc.iban || a.IBANDisplay != tc.display || a.Currency != "EUR" {
			t.Errorf("%q: got %+v", tc.in, a)
		}
	}
	stored := rows(t, app)
	for _, tc := range []struct{ in, why string }{
		{"DE88 3704 0044 0532 0130 00", "check digits"},      // one digit off
		{"DE89 3704 0044 0532 0130 0", "must have 22"},       // a digit short
		{"DE89 3704 0044 0532 0130 000", "must have 22"},     // a digit too many
		{"FR76 3000 6000 0112 3456 7890 18", "must have 27"}, // French, 26
		{"XX89 3704 0044 0532 0130 00", "XX does not"},       // no such country
		{"US12 3456 7890 1234 5678 90", "US does not"},       // a country without IBANs
		{"not an iban!", "must be an IBAN"},
		{"DE", "must be an IBAN"},
		{"  ", "is required"},
	} {
		why := refused(t, app.Post(base, u.Token, map[string]any{"holder": "Anna Schmidt", "iban": tc.in}), "iban")
		if !strings.Contains(why, tc.why) {
			t.Errorf("%q: %q, want it to say %q", tc.in, why, tc.why)
		}
	}
	refused(t, app.Post(base, u.Token, map[string]any{"iban": "DE89370400440532013000"}), "holder")
	refused(t, app.Post(base, u.Token, map[string]any{"holder": "A"}), "iban")
	refused(t, app.Post(base, u.Token, map[string]any{"holder": strings.Repeat("a", 71), "iban": "DE75512108001245126199"}), "holder")
	refused(t, app.Post(base, u.Token, map[string]any{"holder": "A", "iban": "DE75512108001245126199", "currency": "EURO"}), "currency")
	if n := rows(t, app); n != stored {
		t.Fatalf("%d rows after refused requests, want %d", n, stored)
	}

	// The same IBAN, written otherwise, is the same account.
	res := app.Post(base, u.Token, map[string]any{"holder": "B", "iban": "DE 8937 0400 4405 3201 3000"}).Expect(http.StatusConflict)
	if m := res.Map(); m["code"] != "iban_exists" && m["error"] != "iban_exists" {
		t.Fatalf("conflict body %s", res.String())
	}
	// An update is checked the same way and changes nothing when refused.
	first := create(t, app, u.Token, map[string]any{"holder": "C", "iban": "DE75512108001245126199"})
	refused(t, app.Put(base+"/"+first.ID, u.Token, map[string]any{"iban": "DE75512108001245126198"}), "iban")
	var got account
	app.Get(base+"/"+first.ID, u.Token).Expect(http.StatusOK).JSON(&got)
	if got.IBAN != "DE75512108001245126199" {
		t.Fatalf("refused update changed the IBAN: %+v", got)
	}
	app.Put(base+"/"+first.ID, u.Token, map[string]any{"iban": "gb29 nwbk 6016 1331 9268 19"}).Expect(http.StatusConflict)
}

func TestBICShape(t *testing.T) {
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)
	for _, tc := range []struct{ in, want string }{
		{"COBADEFF", "COBADEFF"},
		{"cobadeffxxx", "COBADEFFXXX"},
		{"BNPA FRPP XXX", "BNPAFRPPXXX"},
		{"", ""},
	} {
		a := create(t, app, u.Token, map[string]any{"holder": "A", "iban": "FR7630006000011234567890189", "bic": tc.in})
		if a.BIC != tc.want {
			t.Errorf("bic %q stored as %q, want %q", tc.in, a.BIC, tc.want)
		}
		app.Delete(base+"/"+a.ID, u.Token).Expect(http.StatusNoContent)
	}
	for _, bad := range []string{"COBADE", "COBADEFFX", "COBADEFFXX", "COBADEFFXXXX", "12BADEFF", "COBA1EFF", "COBADEF-"} {
		refused(t, app.Post(base, u.Token, map[string]any{"holder": "A", "iban": "FR7630006000011234567890189", "bic": bad}), "bic")
	}
	if n := rows(t, app); n != 0 {
		t.Fatalf("%d rows, want 0", n)
	}
}

func TestOneDefaultPerWorkspace(t *testing.T) {
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)
	other := accountstest.NewUser(t, app)

	first := create(t, app, u.Token, map[string]any{"holder": "A", "iban": "DE89370400440532013000", "is_default": false})
	if !first.IsDefault {
		t.Fatal("the first account is not the default")
	}
	second := create(t, app, u.Token, map[string]any{"holder": "A", "iban": "DE75512108001245126199"})
	if second.IsDefault {
		t.Fatal("a second account took the default without asking")
	}
	third := create(t, app, u.Token, map[string]any{"holder": "A", "iban": "GB29NWBK60161331926819", "is_default": true, "currency": "gbp"})
	if !third.IsDefault || third.Currency != "GBP" {
		t.Fatalf("third: %+v", third)
	}
	defaults := func() []string {
		var page struct {
			Accounts []account `json:"bank_accounts"`
		}
		app.Get(base, u.Token).Expect(http.StatusOK).JSON(&page)
		var ids []string
		for _, a := range page.Accounts {
			if a.IsDefault {
				ids = append(ids, a.ID)
			}
		}
		return ids
	}
	if d := defaults(); len(d) != 1 || d[0] != third.ID {
		t.Fatalf("defaults %v, want only %s", d, third.ID)
	}
	// The default cannot be unset, only moved.
	refused(t, app.Put(base+"/"+third.ID, u.Token, map[string]any{"is_default": false}), "is_default")
	app.Put(base+"/"+second.ID, u.Token, map[string]any{"is_default": true}).Expect(http.StatusOK)
	if d := defaults(); len(d) != 1 || d[0] != second.ID {
		t.Fatalf("defaults %v, want only %s", d, second.ID)
	}
	// Deleting the default hands the mark to the oldest remaining.
	app.Delete(base+"/"+second.ID, u.Token).Expect(http.StatusNoContent)
	if d := defaults(); len(d) != 1 || d[0] != first.ID {
		t.Fatalf("after deleting the default: defaults %v, want %s", d, first.ID)
	}

	// Another workspace neither sees nor changes them.
	app.Get(base+"/"+first.ID, other.Token).Expect(http.StatusForbidden)
	app.Put(base+"/"+first.ID, other.Token, map[string]any{"label": "x"}).Expect(http.StatusForbidden)
	app.Delete(base+"/"+first.ID, other.Token).Expect(http.StatusForbidden)
	var page struct {
		Accounts []account `json:"bank_accounts"`
	}
	app.Get(base, other.Token).Expect(http.StatusOK).JSON(&page)
	if len(page.Accounts) != 0 {
		t.Fatalf("another workspace lists %d accounts", len(page.Accounts))
	}
	// Its own first account is its default: defaults are per workspace.
	if a := create(t, app, other.Token, map[string]any{"holder": "B", "iban": "DE89370400440532013000"}); !a.IsDefault {
		t.Fatal("another workspace's first account is not its default")
	}
}
