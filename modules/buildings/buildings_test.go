package buildings_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

func id(t testing.TB, r *testkit.Response) string {
	t.Helper()
	var v struct {
		ID string `json:"id"`
	}
	r.JSON(&v)
	return v.ID
}

// A building with two flats: the unit data and the household sizes are
// kept, bad input is refused and changes nothing.
func TestBuildingUnitsAndHouseholds(t *testing.T) {
	app := testkit.Start(t)
	token := accountstest.NewUser(t, app).Token
	b := id(t, app.Post("/api/v1/buildings", token, map[string]any{"name": "Lindenstraße 5", "address": "Lindenstraße 5",
		"postal_code": "10969", "city": "Berlin", "country_code": "de"}).Expect(http.StatusCreated))
	app.Post("/api/v1/buildings", token, map[string]any{"name": " ", "country_code": "Germany"}).Expect(http.StatusBadRequest)
	flat := id(t, app.Post("/api/v1/properties", token, map[string]any{"name": "WE 1", "country_code": "DE", "living_area": 62.5}).Expect(http.StatusCreated))

	unit := app.Put("/api/v1/buildings/"+b+"/units/"+flat, token, map[string]any{"rooms": 3, "floor": 1, "share": 125.25, "heating_type": "central"}).
		Expect(http.StatusOK).String()
	for _, want := range []string{`"share":125.25`, `"living_area":62.50`, `"heating_type":"central"`, `"rooms":3`, `"use":"residential"`} {
		if !strings.Contains(unit, want) {
			t.Errorf("unit lacks %s: %s", want, unit)
		}
	}
	app.Put("/api/v1/buildings/"+b+"/units/"+flat, token, map[string]any{"heating_type": "coal"}).Expect(http.StatusBadRequest)
	app.Put("/api/v1/buildings/"+b+"/units/"+flat, token, map[string]any{"use": "shop"}).Expect(http.StatusBadRequest)
	// A unit let as an office: its CO2 cost goes 50/50 (opcosts).
	if got := app.Put("/api/v1/buildings/"+b+"/units/"+flat, token, map[string]any{"use": "non_residential"}).Expect(http.StatusOK).String(); !strings.Contains(got, `"use":"non_residential"`) {
		t.Errorf("use: %s", got)
	}
	app.Put("/api/v1/buildings/"+b+"/units/"+flat, token, map[string]any{"use": "residential"}).Expect(http.StatusOK)
	app.Put("/api/v1/buildings/"+b+"/units/"+flat, token, map[string]any{"share": 1.23456}).Expect(http.StatusBadRequest)
	// Left out, the other fields keep their value.
	unit = app.Put("/api/v1/buildings/"+b+"/units/"+flat, token, map[string]any{"floor": 2}).Expect(http.StatusOK).String()
	if !strings.Contains(unit, `"share":125.25`) || !strings.Contains(unit, `"floor":2`) || !strings.Contains(unit, `"heating_type":"central"`) {
		t.Errorf("partial change: %s", unit)
	}
	if got := app.Get("/api/v1/buildings/"+b+"/units", token).Expect(http.StatusOK).String(); !strings.Contains(got, flat) {
		t.Errorf("units: %s", got)
	}
	var page struct {
		Buildings []struct {
			ID, CountryCode string
		} `json:"buildings"`
	}
	app.Get("/api/v1/buildings", token).Expect(http.StatusOK).JSON(&page)
	if len(page.Buildings) != 1 || page.Buildings[0].ID != b {
		t.Errorf("list: %+v", page)
	}
	// Another landlord sees nothing of it.
	other := accountstest.NewUser(t, app).Token
	app.Get("/api/v1/buildings/"+b, other).Expect(http.StatusForbidden)
	app.Put("/api/v1/buildings/"+b+"/units/"+flat, other, map[string]any{"floor": 3}).Expect(http.StatusForbidden)

	tenant := id(t, app.Post("/api/v1/contragents", token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Anna"}).Expect(http.StatusCreated))
	contract := id(t, app.Post("/api/v1/contracts", token, map[string]any{"property_id": flat, "tenant_id": tenant, "number": "B-1", "locale": "de",
		"terms": []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 700}, {"code": "CONTRACT_START_DATE", "value": "2025-01-01"}}}).Expect(http.StatusCreated))
	app.Post("/api/v1/contracts/"+contract+"/household", token, map[string]any{"persons": 2, "from": "2025-01-01"}).Expect(http.StatusCreated)
	app.Post("/api/v1/contracts/"+contract+"/household", token, map[string]any{"persons": 3, "from": "2025-07-01"}).Expect(http.StatusCreated)
	app.Post("/api/v1/contracts/"+contract+"/household", token, map[string]any{"persons": 4, "from": "2025-07-01"}).Expect(http.StatusConflict)
	app.Post("/api/v1/contracts/"+contract+"/household", token, map[string]any{"persons": -1, "from": "2025-08-01"}).Expect(http.StatusBadRequest)
	var hh struct {
		Household []struct {
			Persons int    `json:"persons"`
			From    string `json:"from"`
		} `json:"household"`
	}
	app.Get("/api/v1/contracts/"+contract+"/household", token).Expect(http.StatusOK).JSON(&hh)
	if len(hh.Household) != 2 || hh.Household[0].Persons != 2 || hh.Household[1].From != "2025-07-01" {
		t.Errorf("household: %+v", hh)
	}

	app.Delete("/api/v1/buildings/"+b+"/units/"+flat, token).Expect(http.StatusNoContent)
	app.Delete("/api/v1/buildings/"+b+"/units/"+flat, token).Expect(http.StatusNotFound)
	app.Delete("/api/v1/buildings/"+b, token).Expect(http.StatusNoContent)
	app.Get("/api/v1/properties/"+flat, token).Expect(http.StatusOK)
}

func importUnits(app *testkit.App, token, building, query, body string) *testkit.Response {
	return app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/buildings/" + building + "/units/import" + query,
		Token: token, Body: body, Headers: map[string]string{"Content-Type": "text/csv"}})
}

type importAnswer struct {
	DryRun                    bool `json:"dry_run"`
	Added, Updated, Unchanged int
	Lines                     []struct {
		Line           int      `json:"line"`
		PropertyID     string   `json:"property_id"`
		Action         string   `json:"action"`
		Changed        []string `json:"changed"`
		FromBuildingID *string  `json:"from_building_id"`
	} `json:"lines"`
}

// A German spreadsheet (semicolons, decimal commas, German headers) and a
// French one (tantièmes) import units: a dry run writes nothing, bad lines
// name their line and column and change nothing, a second import of the
// same file changes nothing.
func TestImportUnitsFromCSV(t *testing.T) {
	t.Parallel()
	app := testkit.Start(t)
	token := accountstest.NewUser(t, app).Token
	b := id(t, app.Post("/api/v1/buildings", token, map[string]any{"name": "Lindenstraße 5", "country_code": "DE"}).Expect(http.StatusCreated))
	other := id(t, app.Post("/api/v1/buildings", token, map[string]any{"name": "Hof", "country_code": "DE"}).Expect(http.StatusCreated))
	we1 := id(t, app.Post("/api/v1/properties", token, map[string]any{"name": "WE 1", "country_code": "DE"}).Expect(http.StatusCreated))
	we2 := id(t, app.Post("/api/v1/properties", token, map[string]any{"name": "WE 2", "country_code": "DE", "living_area": 80}).Expect(http.StatusCreated))
	app.Put("/api/v1/buildings/"+other+"/units/"+we2, token, map[string]any{"rooms": 4}).Expect(http.StatusOK)

	file := "\ufeffEinheit;Wohnfläche (m²);Zimmer;Etage;MEA;Heizungsart\r\n" +
		"we 1;62,5;3;0;125,5;central\r\n" +
		we2 + ";80;;1;160;Central\r\n"
	units := func() string { return app.Get("/api/v1/buildings/"+b+"/units", token).Expect(http.StatusOK).String() }
	before := units()

	var dry importAnswer
	importUnits(app, token, b, "?dry_run=true", file).Expect(http.StatusOK).JSON(&dry)
	if !dry.DryRun || dry.Added != 2 || len(dry.Lines) != 2 || dry.Lines[0].Line != 2 || dry.Lines[0].PropertyID != we1 ||
		strings.Join(dry.Lines[0].Changed, ",") != "living_area,rooms,floor,share,heating_type" ||
		strings.Join(dry.Lines[1].Changed, ",") != "floor,share,heating_type" || dry.Lines[1].FromBuildingID == nil || *dry.Lines[1].FromBuildingID != other {
		t.Fatalf("dry run: %+v", dry)
	}
	if got := units(); got != before {
		t.Fatalf("a dry run wrote: %s", got)
	}

	var done importAnswer
	importUnits(app, token, b, "", file).Expect(http.StatusOK).JSON(&done)
	if done.DryRun || done.Added != 2 || done.Updated != 0 {
		t.Fatalf("import: %+v", done)
	}
	got := units()
	for _, want := range []string{`"name":"WE 1","living_area":62.50,"rooms":3,"floor":0,"share":125.5,"heating_type":"central"`,
		`"name":"WE 2","living_area":80.00,"rooms":4,"floor":1,"share":160,"heating_type":"central"`} {
		if !strings.Contains(got, want) {
			t.Errorf("units lack %s: %s", want, got)
		}
	}
	if strings.Contains(app.Get("/api/v1/buildings/"+other+"/units", token).Expect(http.StatusOK).String(), we2) {
		t.Error("WE 2 stayed in the other building")
	}
	// Again: nothing changes.
	var again importAnswer
	importUnits(app, token, b, "", file).Expect(http.StatusOK).JSON(&again)
	if again.Unchanged != 2 || again.Added+again.Updated != 0 || len(again.Lines[0].Changed) != 0 {
		t.Fatalf("second import: %+v", again)
	}
	// French headers, a comma file: only the tantièmes change.
	var fr importAnswer
	importUnits(app, token, b, "", "lot,tantièmes,surface habitable\nWE 1,130,62.50\n").Expect(http.StatusOK).JSON(&fr)
	if fr.Updated != 1 || strings.Join(fr.Lines[0].Changed, ",") != "share" {
		t.Fatalf("French import: %+v", fr)
	}
	after := units()

	// Bad lines: every problem named by line and column, nothing written.
	bad := importUnits(app, token, b, "", "property,living_area,rooms,floor,share,heating_type\n"+
		"WE 1,62.555,3,0,1,central\n"+
		"WE 2,80,x,1,1.23456,coal\n").Expect(http.StatusBadRequest).String()
	for _, want := range []string{"line 2: living_area:", "line 3: rooms:", "line 3: share:", "line 3: heating_type:"} {
		if !strings.Contains(bad, want) {
			t.Errorf("errors lack %q: %s", want, bad)
		}
	}
	bad = importUnits(app, token, b, "", "unit,rooms\nWE 1,2\nWE 9,2\nwe 1,3\n").Expect(http.StatusBadRequest).String()
	for _, want := range []string{`line 3: property: no property of this workspace is named \"WE 9\"`, "line 4: property: names the same property as line 2"} {
		if !strings.Contains(bad, want) {
			t.Errorf("errors lack %q: %s", want, bad)
		}
	}
	importUnits(app, token, b, "", "colour\nred\n").Expect(http.StatusBadRequest)
	importUnits(app, token, b, "", "rooms\n3\n").Expect(http.StatusBadRequest)
	importUnits(app, token, b, "", "property\n").Expect(http.StatusBadRequest)
	importUnits(app, token, b, "?dry_run=maybe", file).Expect(http.StatusBadRequest)
	app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/buildings/" + b + "/units/import", Token: token,
		Body: file, Headers: map[string]string{"Content-Type": "application/json"}}).Expect(http.StatusUnsupportedMediaType)
	var many strings.Builder
	many.WriteString("property\n")
	for range 2001 {
		many.WriteString("WE 1\n")
	}
	if got := importUnits(app, token, b, "", many.String()).Expect(http.StatusBadRequest).String(); !strings.Contains(got, "more than 2000 rows") {
		t.Errorf("too many rows: %s", got)
	}
	if got := units(); got != after {
		t.Fatalf("a refused import wrote: %s", got)
	}
	// Another workspace's property by id, and another landlord's building.
	stranger := accountstest.NewUser(t, app).Token
	theirs := id(t, app.Post("/api/v1/properties", stranger, map[string]any{"name": "X", "country_code": "DE"}).Expect(http.StatusCreated))
	importUnits(app, token, b, "", "property\n"+theirs+"\n").Expect(http.StatusBadRequest)
	importUnits(app, stranger, b, "", file).Expect(http.StatusForbidden)
}

// The same import as the field "file" of a multipart form.
func TestImportUnitsMultipart(t *testing.T) {
	t.Parallel()
	app := testkit.Start(t)
	token := accountstest.NewUser(t, app).Token
	b := id(t, app.Post("/api/v1/buildings", token, map[string]any{"name": "Rue Victor Hugo 3", "country_code": "FR"}).Expect(http.StatusCreated))
	lot := id(t, app.Post("/api/v1/properties", token, map[string]any{"name": "Lot 12", "country_code": "FR"}).Expect(http.StatusCreated))
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	f, _ := w.CreateFormFile("file", "lots.csv")
	_, _ = f.Write([]byte("numéro de lot;surface;pièces;étage;quote-part;chauffage\nLot 12;45,2;2;3;312;district\n"))
	_ = w.Close()
	var res importAnswer
	app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/buildings/" + b + "/units/import", Token: token,
		Body: buf.Bytes(), Headers: map[string]string{"Content-Type": w.FormDataContentType()}}).Expect(http.StatusOK).JSON(&res)
	if res.Added != 1 || res.Lines[0].PropertyID != lot {
		t.Fatalf("multipart import: %+v", res)
	}
	if got := app.Get("/api/v1/buildings/"+b+"/units", token).Expect(http.StatusOK).String(); !strings.Contains(got, `"living_area":45.20,"rooms":2,"floor":3,"share":312,"heating_type":"district"`) {
		t.Errorf("units: %s", got)
	}
}
