package opcosts_test

import (
	"net/http"
	"testing"
)

// The share-key arithmetic printed by a court: Amtsgericht Köln, Urteil
// vom 28.07.2009, 201 C 111/09
// (https://de.openlegaldata.io/case/ag-koln-2009-07-28-201-c-11109, read
// 2026-11-28), Entscheidungsgründe: the caretaker costs of the economic
// unit, 67.140,63 €, "entspricht Kosten von (: 1.000.000 x 1.606 =)
// 107,82 € für die 38 qm große Wohnung der Beklagten" (year 2007).
//
// Here: the tenant's 38 m² flat holds 1,606 of 1,000,000 shares, the rest
// of the economic unit is one unit holding the other 998,394, both let
// all year; the caretaker bill of 67,140.63 € goes by the `share` key.
// The court's year was 2007; the test bills 2025 (a contract's charges
// cannot be made more than 60 months back), which changes nothing: the
// `share` key has no days and both contracts cover the whole year.
//
//   - flat: 67,140.63 × 1,606 / 1,000,000 = 107.8278… = 107.83
//   - rest: 67,140.63 × 998,394 / 1,000,000 = 67,032.8021… = 67,032.80
//     (107.83 + 67,032.80 = 67,140.63: nothing left over)
//
// The court printed 107,82 €: it cut the quotient after the second
// decimal (107.8278… truncated), where this module rounds every line half
// up to the cent (commercial rounding, as the README says), so it bills
// 107.83 €. The cent does not change the court's point (0.236 €/m² a
// month against the Kölner Mieterverein's 0.20 €/m², 107.82 : 12 : 38 and
// 107.83 : 12 : 38 both 0.236…), and a statement that truncates every
// share would leave the cents of every line unallocated to anyone; the
// test pins 107.83 and says so.
func TestPublishedCourtExampleAGKoelnShareKey(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	flat, rest := w.unit(t, "Wohnung der Beklagten", 38), w.unit(t, "Übrige Einheiten", 60000)
	w.app.Put(w.path("/units/"+flat), w.token, map[string]any{"share": 1606}).Expect(http.StatusOK)
	w.app.Put(w.path("/units/"+rest), w.token, map[string]any{"share": 998394}).Expect(http.StatusOK)
	l := w.lease(t, flat, "K-1", "de", "Beklagte", "2025-01-01", "2025-12-31", 10)
	o := w.lease(t, rest, "K-2", "de", "Übrige Mieter", "2025-01-01", "2025-12-31", 10)
	w.bill(t, flat, "caretaker", "2025-12-31", 67140.63)
	w.app.Put(w.path("/opcost-keys"), w.token, map[string]any{"keys": map[string]any{"caretaker": "share"}}).Expect(http.StatusOK)
	r := w.app.Post(w.path("/opcost-statements"), w.token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).
		Expect(http.StatusCreated)
	var st statement
	r.JSON(&st)
	seen := 0
	for _, line := range st.Contracts {
		if len(line.Costs) != 1 || line.Costs[0].Key != "share" || line.Costs[0].TotalValue != "1000000" || line.Days != 365 {
			t.Fatalf("contract line: %+v", line)
		}
		switch line.ContractID {
		case l:
			seen++
			if line.Costs[0].UnitValue != "1606" {
				t.Errorf("flat's share: %+v", line.Costs[0])
			}
		case o:
			seen++
		}
	}
	if seen != 2 {
		t.Fatalf("statement lacks a contract: %s", r.String())
	}
	has(t, "statement", r.String(), `"building_total":67140.63`, `"amount":107.83`, `"amount":67032.80`)
}
