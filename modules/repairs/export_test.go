package repairs_test

import (
	"archive/zip"
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The requests list as files: CSV with the API's names and codes, every
// request a row; XLSX for a German reader with German headers and codes
// (a repair's category is "Kategorie", not the bills' "Kostenart"); the
// tenant's own list and the overdue list too.
func TestRepairExport(t *testing.T) {
	t.Parallel()
	app := start(t)
	l := newLease(t, app, "de", "auftrag@klempner.example")
	l.done(t, app, "Wasserhahn tropft", "plumbing", 12.5)
	app.Post(l.tenantPath(), l.tenant.Token, map[string]any{"title": "Schimmel im Bad", "description": "Ecke über der Dusche.",
		"category": "damp_mould", "urgency": "emergency"}).Expect(http.StatusCreated)

	csv := app.Get(l.memberPath()+"?format=csv", l.landlord.Token).Expect(http.StatusOK).String()
	lines := strings.Split(strings.TrimSpace(strings.TrimPrefix(csv, "\ufeff")), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "id,property_id,contract_id,source,title,description,category,urgency,") ||
		!strings.Contains(lines[1], ",tenant,Wasserhahn tropft,Bitte reparieren.,plumbing,normal,") ||
		!strings.Contains(lines[1], `""bill_id""`) || !strings.Contains(lines[2], ",damp_mould,emergency,") {
		t.Fatalf("csv:\n%s", csv)
	}
	if got := app.Get(l.tenantPath()+"?format=csv", l.tenant.Token).Expect(http.StatusOK).String(); strings.Count(strings.TrimSpace(got), "\n") != 2 ||
		strings.Contains(got, "bill_id") {
		t.Errorf("the tenant's csv:\n%s", got)
	}

	sheet := func(path string) string {
		body := app.Get(path, l.landlord.Token).Expect(http.StatusOK).Body
		zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(rc)
			_ = rc.Close()
			out.Write(b)
		}
		return out.String()
	}
	de := sheet(l.memberPath() + "?format=xlsx&locale=de")
	for _, want := range []string{"Kategorie", "Dringlichkeit", "Zu erledigen bis", "Sanitär", "ausgeführt", "Feuchtigkeit und Schimmel", "Notfall", "gemeldet", "Mieter"} {
		if !strings.Contains(de, want) {
			t.Errorf("the German sheet lacks %q", want)
		}
	}
	if strings.Contains(de, "Kostenart") {
		t.Error("a repair's category is headed as a bill's cost category")
	}
	app.Clock.Advance(25 * time.Hour)
	if fr := sheet("/api/v1/repair-requests/overdue?format=xlsx&locale=fr"); !strings.Contains(fr, "Catégorie") ||
		!strings.Contains(fr, "humidité et moisissures") || !strings.Contains(fr, "signalée") {
		t.Errorf("the French overdue sheet lacks its words")
	}
}
