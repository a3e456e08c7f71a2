package properties_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// living_area is optional, in m² with at most 2 decimals, more than 0 and
// at most 100,000; a bad value is a 400 naming it and changes nothing;
// null removes it.
func TestLivingArea(t *testing.T) {
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)
	var p struct {
		ID         string           `json:"id"`
		LivingArea *json.RawMessage `json:"living_area"`
	}
	app.Post("/api/v1/properties", u.Token, map[string]any{"name": "Appartement 3", "country_code": "FR", "living_area": 42.5}).
		Expect(http.StatusCreated).JSON(&p)
	if p.LivingArea == nil || string(*p.LivingArea) != "42.50" {
		t.Fatalf("living_area after create: %v", p.LivingArea)
	}
	for _, bad := range []any{0, -1, 100000.01, "42", 1.234, true} {
		res := app.Put("/api/v1/properties/"+p.ID, u.Token, map[string]any{"living_area": bad, "name": "Changed"}).Expect(http.StatusBadRequest)
		if !strings.Contains(string(res.Body), "living_area: must be a number of square metres") {
			t.Errorf("living_area %v: %s", bad, res.Body)
		}
	}
	app.Get("/api/v1/properties/"+p.ID, u.Token).Expect(http.StatusOK).JSON(&p)
	if p.LivingArea == nil || string(*p.LivingArea) != "42.50" {
		t.Errorf("a refused change changed the area: %v", p.LivingArea)
	}
	app.Put("/api/v1/properties/"+p.ID, u.Token, map[string]any{"living_area": 100000}).Expect(http.StatusOK).JSON(&p)
	if string(*p.LivingArea) != "100000.00" {
		t.Errorf("living_area 100000: %s", *p.LivingArea)
	}
	app.Put("/api/v1/properties/"+p.ID, u.Token, map[string]any{"name": "Renamed"}).Expect(http.StatusOK).JSON(&p)
	if p.LivingArea == nil {
		t.Error("a change without living_area removed it")
	}
	app.Put("/api/v1/properties/"+p.ID, u.Token, map[string]any{"living_area": nil}).Expect(http.StatusOK).JSON(&p)
	if p.LivingArea != nil {
		t.Errorf("null did not remove the area: %s", *p.LivingArea)
	}
}
