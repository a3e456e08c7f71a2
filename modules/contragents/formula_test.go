package contragents_test

import (
	"net/http"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// Cells a spreadsheet would run are data here: the import stores them as
// written, a leading quote included (JSON answers carry them as strings;
// a CSV the service writes escapes them through platform/csvcell).
func TestImportKeepsFormulaLikeCellsVerbatim(t *testing.T) {
	app := testkit.Start(t)
	u := newUser(t, app)
	names := []string{"=1+1", "+49 Anna", "-Bob", "@SUM(A1:A2)", "'=already quoted", "-12.50"}
	body := "name,kind,roles,notes\n"
	for _, n := range names {
		body += `"` + n + `",person,tenant,"=HYPERLINK(""http://evil.example"",""x"")"` + "\n"
	}
	importCSV(app, u.Token, body).Expect(http.StatusCreated)
	var l contragentList
	app.Get(base+"?per_page=100", u.Token).Expect(http.StatusOK).JSON(&l)
	got := map[string]contragent{}
	for _, c := range l.Contragents {
		got[c.Name] = c
	}
	for _, n := range names {
		c, ok := got[n]
		if !ok {
			t.Errorf("%q not stored as written; stored: %v", n, l.Contragents)
			continue
		}
		if c.Notes != `=HYPERLINK("http://evil.example","x")` {
			t.Errorf("%q: notes %q", n, c.Notes)
		}
	}
}
