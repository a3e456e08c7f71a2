package contragents_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

type contragent struct {
	ID        string   `json:"id"`
	Kind      string   `json:"kind"`
	Roles     []string `json:"roles"`
	Name      string   `json:"name"`
	Email     string   `json:"email"`
	Phone     string   `json:"phone"`
	Address   string   `json:"address"`
	TaxID     string   `json:"tax_id"`
	Notes     string   `json:"notes"`
	CreatedAt string   `json:"created_at"`
	UpdatedAt string   `json:"updated_at"`
}

type contragentList struct {
	Contragents []contragent `json:"contragents"`
	Total       int          `json:"total"`
	Page        int          `json:"page"`
	PerPage     int          `json:"per_page"`
}

const base = "/api/v1/contragents"

func create(t *testing.T, app *testkit.App, token string, body map[string]any) contragent {
	t.Helper()
	var c contragent
	app.Post(base, token, body).Expect(http.StatusCreated).JSON(&c)
	return c
}

func tenant(name string) map[string]any {
	return map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": name}
}

// snapshot is every row of contragents.
func snapshot(t *testing.T, app *testkit.App) []map[string]any {
	t.Helper()
	var rows []map[string]any
	if err := app.DB.NewSelect().Table("contragents").Order("id").Scan(context.Background(), &rows); err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return rows
}

func importCSV(app *testkit.App, token, body string) *testkit.Response {
	return app.Do(testkit.Request{Method: http.MethodPost, Path: base + "/import", Token: token, Body: body,
		Headers: map[string]string{"Content-Type": "text/csv; charset=utf-8"}})
}

func newUser(t testing.TB, app *testkit.App, roles ...string) accountstest.User {
	return accountstest.NewUser(t, app, roles...)
}
