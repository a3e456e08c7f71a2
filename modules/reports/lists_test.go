package reports_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// TestEveryListExports reads lists of other modules as CSV and XLSX: the
// whole list over several pages (more items than a page holds), with the
// list's filters, typed cells, its own 404 for another workspace's
// property, and a 400 for an unknown format.
func TestEveryListExports(t *testing.T) {
	app := testkit.Start(t)
	p := generate(t, app, 2, 3)
	for i := 0; i < 205; i++ {
		app.Post("/api/v1/properties", p.user.Token, map[string]any{"name": fmt.Sprintf("+Extra %03d", i), "country_code": "DE"}).
			Expect(http.StatusCreated)
	}
	ids := app.Walk("/api/v1/properties", p.user.Token, "properties", 50)
	rows := readCSV(t, app.Get("/api/v1/properties?format=csv&per_page=3&page=2", p.user.Token).Expect(http.StatusOK).Body)
	if len(rows)-1 != len(ids) || len(ids) != 207 {
		t.Fatalf("properties: %d csv rows, %d walked", len(rows)-1, len(ids))
	}
	idCol := indexOf(rows[0], "id")
	nameCol := indexOf(rows[0], "name")
	for i, id := range ids {
		if rows[i+1][idCol] != id {
			t.Fatalf("row %d: %s, walk %s", i, rows[i+1][idCol], id)
		}
		if strings.HasPrefix(rows[i+1][nameCol], "+") {
			t.Fatalf("row %d: name %q not escaped", i, rows[i+1][nameCol])
		}
	}
	x := openXLSX(t, app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/properties", Token: p.user.Token,
		Headers: map[string]string{"Accept": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}}).Expect(http.StatusOK).Body)
	if len(x.Rows) != len(rows) || x.Sheet != "properties" {
		t.Fatalf("xlsx: %d rows in %q", len(x.Rows), x.Sheet)
	}
	created := indexOf(rows[0], "created_at")
	if c := x.Rows[1][created]; c.T != "date" {
		t.Errorf("created_at is %+v, not a date-time", c)
	}

	// A property's unpaid charges, filtered as the JSON list is.
	u := p.units[0]
	var want []charge
	for _, c := range p.charges(t, u) {
		if c.Status == "unpaid" {
			want = append(want, c)
		}
	}
	path := "/api/v1/properties/" + u.ID + "/charges?status=unpaid"
	rows = readCSV(t, app.Get(path+"&format=csv", p.user.Token).Expect(http.StatusOK).Body)
	x = openXLSX(t, app.Get(path+"&format=xlsx", p.user.Token).Expect(http.StatusOK).Body)
	if len(rows)-1 != len(want) || len(x.Rows) != len(rows) || len(want) == 0 {
		t.Fatalf("charges: %d csv rows, %d xlsx, %d unpaid", len(rows)-1, len(x.Rows)-1, len(want))
	}
	amount, due := indexOf(rows[0], "amount"), indexOf(rows[0], "due_date")
	for i, c := range want {
		if rows[i+1][amount] != fmt.Sprintf("%.2f", c.Amount) || rows[i+1][due] != c.DueDate {
			t.Errorf("csv row %d: %v, charge %+v", i, rows[i+1], c)
		}
		a, d := x.Rows[i+1][amount], x.Rows[i+1][due]
		if a.T != "num" || fmt.Sprintf("%.2f", a.V) != fmt.Sprintf("%.2f", c.Amount) || !strings.Contains(a.F, u.Currency) ||
			d.T != "date" || d.V != c.DueDate {
			t.Errorf("xlsx row %d: %+v %+v, charge %+v", i, a, d, c)
		}
	}

	other := generate(t, app, 1, 4)
	// The list's own refusal, as JSON.
	foreign := "/api/v1/properties/" + other.units[0].ID + "/charges"
	refused := app.Get(foreign, p.user.Token)
	if refused.Status < 400 || app.Get(foreign+"?format=csv", p.user.Token).Expect(refused.Status).String() != refused.String() {
		t.Errorf("another workspace's charges: %d %s", refused.Status, refused.String())
	}
	app.Get("/api/v1/properties?format=ods", p.user.Token).Expect(http.StatusBadRequest)
	app.Get("/api/v1/properties?format=csv", "").Expect(http.StatusUnauthorized)
	// JSON stays as it was.
	var page struct {
		Properties []any   `json:"properties"`
		Next       *string `json:"next"`
	}
	app.Get("/api/v1/properties?format=json", p.user.Token).Expect(http.StatusOK).JSON(&page)
	if len(page.Properties) != 50 || page.Next == nil {
		t.Errorf("json page: %d items", len(page.Properties))
	}
}

func indexOf(header []string, name string) int {
	for i, h := range header {
		if h == name {
			return i
		}
	}
	panic("no column " + name)
}
