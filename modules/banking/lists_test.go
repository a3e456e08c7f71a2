package banking_test

import (
	"net/http"
	"testing"
)

// A saved CSV mapping is used by its id; its CRUD answers; the list of
// lines filters by account, status and booking dates and walks by cursor.
func TestSavedMappingsAndTheLineList(t *testing.T) {
	f := start(t)
	contract := f.contract(t, "MV-7", "Anna Schmidt", 800, "2026-11-01")
	f.bill(t)
	base := "/api/v1/bank-accounts/" + f.account + "/csv-mappings"
	var m struct {
		ID      string         `json:"id"`
		Name    string         `json:"name"`
		Mapping map[string]any `json:"mapping"`
	}
	f.app.Post(base, f.user.Token, map[string]any{"name": "Sparkasse", "mapping": map[string]any{"date": "Buchungstag"}}).Expect(http.StatusBadRequest)
	f.app.Post(base, f.user.Token, map[string]any{"name": "Sparkasse", "mapping": map[string]any{"date": "Buchungstag", "amount": "Betrag", "delimiter": ";;"}}).Expect(http.StatusBadRequest)
	f.app.Post(base, f.user.Token, map[string]any{"name": "Sparkasse", "mapping": sparkasseMapping}).Expect(http.StatusCreated).JSON(&m)
	if m.Name != "Sparkasse" || m.Mapping["date_format"] != "DD.MM.YYYY" || m.Mapping["decimal_comma"] != true {
		t.Fatalf("mapping %+v", m)
	}
	var list struct {
		Mappings []struct {
			ID string `json:"id"`
		} `json:"csv_mappings"`
	}
	f.app.Get(base, f.user.Token).Expect(http.StatusOK).JSON(&list)
	if len(list.Mappings) != 1 || list.Mappings[0].ID != m.ID {
		t.Fatalf("mappings %+v", list)
	}
	// Another workspace sees none of it.
	other := f.other(t)
	f.app.Get("/api/v1/bank-accounts/"+other+"/csv-mappings/"+m.ID, f.user.Token).Expect(http.StatusForbidden)

	entries := []entry{
		{Date: "2026-11-02", Cents: 40000, Name: "Anna Schmidt", IBAN: annaIBAN, Text: "MV-7 erste Haelfte"},
		{Date: "2026-11-09", Cents: 40000, Name: "Anna Schmidt", IBAN: annaIBAN, Text: "MV-7 zweite Haelfte"},
		{Date: "2026-11-10", Cents: -2000, Name: "Bank", Text: "Kontofuehrung"},
		{Date: "2026-11-12", Cents: 3000, Name: "Fremd", Text: "?"},
	}
	if r := f.importFile(t, sparkasseCSV(entries), map[string]string{"mapping_id": m.ID}); r != (result{Format: "csv", Lines: 4, Posted: 2, Debits: 1, Unmatched: 1}) {
		t.Fatalf("import %+v", r)
	}
	if b := f.balance(t, contract); b.Outstanding != "0.00" {
		t.Fatalf("balance %+v", b)
	}
	// A mapping of another account is refused.
	f.upload(f.account, f.user.Token, sparkasseCSV(entries), map[string]string{"mapping_id": "01a220c1-8067-737c-b19d-b6275472ee15"}).Expect(http.StatusBadRequest)

	if got := f.lines(t, "&status=posted&from=2026-11-05"); len(got) != 1 || got[0].Remittance != "MV-7 zweite Haelfte" {
		t.Fatalf("from %+v", got)
	}
	if got := f.lines(t, "&to=2026-11-09&bank_account_id="+f.account); len(got) != 2 || got[0].BookingDate != "2026-11-09" {
		t.Fatalf("to %+v", got)
	}
	if got := f.lines(t, "&bank_account_id="+other); len(got) != 0 {
		t.Fatalf("another account %+v", got)
	}
	if walked := f.app.Walk("/api/v1/bank-lines", f.user.Token, "bank_lines", 1); len(walked) != 4 {
		t.Fatalf("walked %v", walked)
	}
	f.app.Get("/api/v1/bank-lines?status=paid", f.user.Token).Expect(http.StatusBadRequest)

	f.app.Put(base+"/"+m.ID, f.user.Token, map[string]any{"name": "Sparkasse neu", "mapping": map[string]any{"date": "Datum", "amount": "Betrag"}}).Expect(http.StatusOK).JSON(&m)
	if m.Name != "Sparkasse neu" || m.Mapping["date"] != "Datum" {
		t.Fatalf("updated %+v", m)
	}
	// The changed mapping names a column the file lacks.
	var e struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	}
	f.upload(f.account, f.user.Token, sparkasseCSV(entries[:1]), map[string]string{"mapping_id": m.ID}).Expect(http.StatusBadRequest).JSON(&e)
	if e.Error != "missing_columns" || e.Message != `The CSV file has no column named "Datum" (the mapping's names must be the header's).` {
		t.Fatalf("%+v", e)
	}
	f.app.Delete(base+"/"+m.ID, f.user.Token).Expect(http.StatusNoContent)
	f.app.Get(base+"/"+m.ID, f.user.Token).Expect(http.StatusNotFound)
}
