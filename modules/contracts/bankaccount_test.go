package contracts_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
)

func newBankAccount(t testing.TB, f fixture, token, iban string) string {
	t.Helper()
	var a struct {
		ID string `json:"id"`
	}
	f.app.Post("/api/v1/bank-accounts", token, map[string]any{"holder": "Anna Vermieterin", "iban": iban}).
		Expect(http.StatusCreated).JSON(&a)
	return a.ID
}

func bankAccountOf(t testing.TB, f fixture, id string) *string {
	t.Helper()
	var c struct {
		BankAccountID *string `json:"bank_account_id"`
	}
	f.app.Get(base+"/"+id, f.user.Token).Expect(http.StatusOK).JSON(&c)
	return c.BankAccountID
}

func TestContractNamesABankAccountOfItsWorkspace(t *testing.T) {
	f := start(t)
	mine := newBankAccount(t, f, f.user.Token, "DE89370400440532013000")
	stranger := accountstest.NewUser(t, f.app)
	theirs := newBankAccount(t, f, stranger.Token, "DE75512108001245126199")

	// Without one, the contract names none (its workspace's default is printed).
	c := f.create(t, "2026/001", rentTerms("2026-12-01")...)
	if got := bankAccountOf(t, f, c.ID); got != nil {
		t.Fatalf("a new contract names account %s", *got)
	}

	// Another workspace's account, an unknown one or garbage: a 400 line,
	// nothing written.
	before := snapshot(t, f.app)
	for _, bad := range []string{theirs, "0190f3a2-7c4e-7000-8000-000000000000", "not-a-uuid"} {
		body := f.body("2026/002", rentTerms("2026-12-01")...)
		body["bank_account_id"] = bad
		res := f.app.Post(base, f.user.Token, body).Expect(http.StatusBadRequest)
		if !strings.Contains(res.String(), "bank_account_id: must be a bank account of the contract's workspace") {
			t.Fatalf("%s: %s", bad, res.String())
		}
		f.app.Put(base+"/"+c.ID, f.user.Token, map[string]any{"bank_account_id": bad}).Expect(http.StatusBadRequest)
	}
	if after := snapshot(t, f.app); !reflect.DeepEqual(before, after) {
		t.Fatal("a refused bank account changed the database")
	}

	body := f.body("2026/002", rentTerms("2026-12-01")...)
	body["bank_account_id"] = mine
	var made contract
	f.app.Post(base, f.user.Token, body).Expect(http.StatusCreated).JSON(&made)
	if got := bankAccountOf(t, f, made.ID); got == nil || *got != mine {
		t.Fatalf("created with %s, reads %v", mine, got)
	}

	// An active contract still changes the account, like its money settings.
	f.app.Post(base+"/"+c.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	f.app.Put(base+"/"+c.ID, f.user.Token, map[string]any{"bank_account_id": mine}).Expect(http.StatusOK)
	if got := bankAccountOf(t, f, c.ID); got == nil || *got != mine {
		t.Fatalf("active contract: account %v, want %s", got, mine)
	}
	f.app.Put(base+"/"+c.ID, f.user.Token, map[string]any{"bank_account_id": theirs}).Expect(http.StatusBadRequest)

	// The account a contract names is not deleted under it.
	res := f.app.Delete("/api/v1/bank-accounts/"+mine, f.user.Token).Expect(http.StatusConflict)
	if !strings.Contains(res.String(), "in_use") {
		t.Fatalf("delete of a named account: %s", res.String())
	}
	f.app.Put(base+"/"+c.ID, f.user.Token, map[string]any{"bank_account_id": ""}).Expect(http.StatusOK)
	if got := bankAccountOf(t, f, c.ID); got != nil {
		t.Fatalf("\"\" left account %s", *got)
	}
	f.app.Delete(base+"/"+made.ID, f.user.Token).Expect(http.StatusNoContent)
	f.app.Delete("/api/v1/bank-accounts/"+mine, f.user.Token).Expect(http.StatusNoContent)
}
