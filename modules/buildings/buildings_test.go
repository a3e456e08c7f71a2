package buildings_test

import (
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
	for _, want := range []string{`"share":125.25`, `"living_area":62.50`, `"heating_type":"central"`, `"rooms":3`} {
		if !strings.Contains(unit, want) {
			t.Errorf("unit lacks %s: %s", want, unit)
		}
	}
	app.Put("/api/v1/buildings/"+b+"/units/"+flat, token, map[string]any{"heating_type": "coal"}).Expect(http.StatusBadRequest)
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
