package opcosts_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// BenchmarkStatement200Units measures POST .../opcost-statements (read
// every unit, contract, household, meter and bill; spread; store the
// draft) for a building of 200 units, each let all year with a
// household size and a heating meter, and 40 bills of the year: heating
// per HeizKV (70 % by the meters), waste by persons, the others by area,
// share and units. Issue 45 asks for under 1 s on PostgreSQL.
func BenchmarkStatement200Units(b *testing.B) {
	w := newWorld(b)
	app, token := w.app, w.token
	var units []string
	for i := range 200 {
		u := w.unit(b, fmt.Sprintf("WE %03d", i+1), 40+i%60)
		c := w.lease(b, u, fmt.Sprintf("B-%03d", i+1), "de", fmt.Sprintf("Mieter %03d", i+1), "2025-01-01", "", 150)
		app.Post("/api/v1/contracts/"+c+"/household", token, map[string]any{"persons": 1 + i%4, "from": "2025-01-01"}).Expect(http.StatusCreated)
		w.meter(b, u, "heating", "2024-12-31", 0, "2025-12-31", 1000+i*7)
		units = append(units, u)
	}
	cats := []string{"heating", "water", "waste", "cleaning", "garden", "insurance_building", "property_tax", "caretaker", "elevator", "lighting"}
	for i := range 40 {
		w.bill(b, units[i*5], cats[i%len(cats)], fmt.Sprintf("2025-%02d-15", i%12+1), float64(100+i*37))
	}
	app.Put(w.path("/opcost-keys"), token, map[string]any{"keys": map[string]any{"heating": "heizkv", "waste": "persons", "elevator": "units",
		"cleaning": "share"}, "consumption_shares": map[string]any{"heating": 70}}).Expect(http.StatusOK)
	body := `{"period_from":"2025-01-01","period_to":"2025-12-31"}`
	b.Run(testkit.Engine(), func(b *testing.B) {
		for range b.N {
			req := httptest.NewRequest(http.MethodPost, w.path("/opcost-statements"), strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+token)
			req.Header.Set("Content-Type", "application/json")
			res, err := app.Fiber.Test(req, -1)
			if err != nil {
				b.Fatal(err)
			}
			out, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusCreated || !strings.Contains(string(out), `"contract_number":"B-200"`) {
				b.Fatalf("statement: %d %.300s", res.StatusCode, out)
			}
		}
	})
}
