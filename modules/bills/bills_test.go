package bills_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/testkit"
)

type bill struct {
	ID                string       `json:"id"`
	PropertyID        string       `json:"property_id"`
	SupplierID        string       `json:"supplier_id"`
	BillDate          string       `json:"bill_date"`
	DueDate           string       `json:"due_date"`
	PaidOn            *string      `json:"paid_on"`
	Status            string       `json:"status"`
	Amount            json.Number  `json:"amount"`
	VATAmount         json.Number  `json:"vat_amount"`
	VATRate           *json.Number `json:"vat_rate"`
	NetAmount         json.Number  `json:"net_amount"`
	Currency          string       `json:"currency"`
	Category          string       `json:"category"`
	OperatingCategory *string      `json:"operating_cost_category"`
	Allocable         bool         `json:"allocable"`
	DocumentID        *string      `json:"document_id"`
	Note              string       `json:"note"`
}

type page struct {
	Bills []bill  `json:"bills"`
	Total int     `json:"total"`
	Next  *string `json:"next"`
}

func id(t testing.TB, r *testkit.Response) string {
	t.Helper()
	var v struct {
		ID string `json:"id"`
	}
	r.JSON(&v)
	return v.ID
}

// landlord is a user with a property (in Germany) and a supplier.
type landlord struct {
	token, property, supplier string
}

func (l landlord) bills() string { return "/api/v1/properties/" + l.property + "/bills" }

func newLandlord(t testing.TB, app *testkit.App) landlord {
	t.Helper()
	l := landlord{token: accountstest.NewUser(t, app).Token}
	l.property = id(t, app.Post("/api/v1/properties", l.token, map[string]any{"name": "Haus am See", "country_code": "DE"}).Expect(http.StatusCreated))
	l.supplier = id(t, app.Post("/api/v1/contragents", l.token, map[string]any{"kind": "company", "roles": []string{"provider"}, "name": "Allianz"}).Expect(http.StatusCreated))
	return l
}

func start(t testing.TB) *testkit.App {
	t.Helper()
	app := testkit.Start(t)
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	return app
}

// balances is each account's balance by code, "0.00" when it has none.
func balances(t testing.TB, app *testkit.App, token string) map[string]string {
	t.Helper()
	var out struct {
		Accounts []struct {
			Code     string `json:"code"`
			Balances []struct {
				Balance json.Number `json:"balance"`
			} `json:"balances"`
		} `json:"accounts"`
	}
	app.Get("/api/v1/ledger/accounts", token).Expect(http.StatusOK).JSON(&out)
	m := map[string]string{}
	for _, a := range out.Accounts {
		m[a.Code] = "0.00"
		for _, b := range a.Balances {
			m[a.Code] = b.Balance.String()
		}
	}
	return m
}

// expectBooks checks the balances of the codes given (code, balance
// pairs); every other account must be at 0.
func expectBooks(t testing.TB, app *testkit.App, token string, pairs ...string) {
	t.Helper()
	want := map[string]string{}
	for i := 0; i < len(pairs); i += 2 {
		want[pairs[i]] = pairs[i+1]
	}
	for code, got := range balances(t, app, token) {
		w, ok := want[code]
		if !ok {
			w = "0.00"
		}
		if got != w {
			t.Errorf("account %s: balance %s, want %s", code, got, w)
		}
	}
}

func TestABillIsBookedPaidChangedAndDeleted(t *testing.T) {
	app := start(t)
	l := newLandlord(t, app)

	var b bill
	app.Post(l.bills(), l.token, map[string]any{"supplier_id": l.supplier, "bill_date": "2026-03-01", "amount": 1190,
		"vat_rate": 19, "category": "insurance", "operating_cost_category": "insurance_building", "allocable": true,
		"note": "Gebäudeversicherung 2026"}).Expect(http.StatusCreated).JSON(&b)
	if b.Amount.String() != "1190.00" || b.VATAmount.String() != "190.00" || b.NetAmount.String() != "1000.00" ||
		b.VATRate == nil || b.VATRate.String() != "19.00" || b.DueDate != "2026-03-01" || b.Status != "unpaid" ||
		b.Currency != "EUR" || b.PaidOn != nil {
		t.Fatalf("bill: %+v", b)
	}
	// Recorded: the insurance cost against what is owed to the supplier.
	expectBooks(t, app, l.token, "6310", "1190.00", "3600", "-1190.00")

	one := l.bills() + "/" + b.ID
	app.Put(one, l.token, map[string]any{"paid_on": "2026-03-15"}).Expect(http.StatusOK).JSON(&b)
	if b.Status != "paid" || b.PaidOn == nil || *b.PaidOn != "2026-03-15" {
		t.Fatalf("paid: %+v", b)
	}
	expectBooks(t, app, l.token, "6310", "1190.00", "1800", "-1190.00")

	// A corrected amount of a paid bill: both entries reversed and booked
	// again; the VAT follows the rate.
	app.Put(one, l.token, map[string]any{"amount": 1071, "category": "repairs"}).Expect(http.StatusOK).JSON(&b)
	if b.VATAmount.String() != "171.00" || b.NetAmount.String() != "900.00" {
		t.Fatalf("changed: %+v", b)
	}
	expectBooks(t, app, l.token, "6300", "1071.00", "1800", "-1071.00")

	// Marked unpaid again: the payment is taken back.
	app.Put(one, l.token, map[string]any{"paid_on": nil}).Expect(http.StatusOK).JSON(&b)
	if b.Status != "unpaid" || b.PaidOn != nil {
		t.Fatalf("unpaid: %+v", b)
	}
	expectBooks(t, app, l.token, "6300", "1071.00", "3600", "-1071.00")

	app.Delete(one, l.token).Expect(http.StatusNoContent)
	app.Get(one, l.token).Expect(http.StatusNotFound)
	expectBooks(t, app, l.token)

	// Every entry of the bill is in the journal: none changed, each
	// reversal a new entry.
	var kinds []string
	if err := app.DB.NewRaw(`SELECT kind FROM ledger_entries WHERE source_id = ? ORDER BY created_at, id`, b.ID).Scan(context.Background(), &kinds); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(kinds, ","); got != "bill,bill_paid,reversal,reversal,bill,bill_paid,reversal,reversal" {
		t.Errorf("entries: %s", got)
	}
}

func TestAVATAmountAndTheRounding(t *testing.T) {
	app := start(t)
	l := newLandlord(t, app)
	var b bill
	// 7 % of a gross 10.00: 10.00 × 7 / 107 = 0.6542… -> 0.65.
	app.Post(l.bills(), l.token, map[string]any{"supplier_id": l.supplier, "bill_date": "2026-02-01", "amount": 10,
		"vat_rate": 7, "category": "operating"}).Expect(http.StatusCreated).JSON(&b)
	if b.VATAmount.String() != "0.65" || b.NetAmount.String() != "9.35" {
		t.Errorf("vat at 7 %%: %+v", b)
	}
	app.Post(l.bills(), l.token, map[string]any{"supplier_id": l.supplier, "bill_date": "2026-02-01", "due_date": "2026-02-28",
		"amount": 250.5, "vat_amount": 40, "category": "management", "paid_on": "2026-02-10"}).Expect(http.StatusCreated).JSON(&b)
	if b.VATAmount.String() != "40.00" || b.VATRate != nil || b.NetAmount.String() != "210.50" || b.DueDate != "2026-02-28" || b.Status != "paid" {
		t.Errorf("vat as an amount: %+v", b)
	}
	expectBooks(t, app, l.token, "6330", "10.00", "6340", "250.50", "3600", "-10.00", "1800", "-250.50")
}

// counts is how many bills and journal entries there are.
func counts(t testing.TB, app *testkit.App) [2]int {
	t.Helper()
	var c [2]int
	ctx := context.Background()
	if err := app.DB.NewRaw(`SELECT COUNT(*) FROM bills`).Scan(ctx, &c[0]); err != nil {
		t.Fatal(err)
	}
	if err := app.DB.NewRaw(`SELECT COUNT(*) FROM ledger_entries`).Scan(ctx, &c[1]); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestBadBillsChangeNothing(t *testing.T) {
	app := start(t)
	l := newLandlord(t, app)
	other := newLandlord(t, app)
	good := func(over map[string]any) map[string]any {
		m := map[string]any{"supplier_id": l.supplier, "bill_date": "2026-03-01", "amount": 100, "category": "repairs"}
		for k, v := range over {
			if v == nil {
				delete(m, k)
			} else {
				m[k] = v
			}
		}
		return m
	}
	var b bill
	app.Post(l.bills(), l.token, good(nil)).Expect(http.StatusCreated).JSON(&b)
	before := counts(t, app)

	cases := []struct {
		name   string
		path   string
		body   map[string]any
		status int
		detail string
	}{
		{"negative amount", l.bills(), good(map[string]any{"amount": -5}), 400, "amount: must be greater than 0"},
		{"zero amount", l.bills(), good(map[string]any{"amount": 0}), 400, "amount: must be greater than 0"},
		{"unknown category", l.bills(), good(map[string]any{"category": "yacht"}), 400, "category: must be one of"},
		{"unknown operating category", l.bills(), good(map[string]any{"operating_cost_category": "pool"}), 400, "operating_cost_category: must be one of"},
		{"missing fields", l.bills(), good(map[string]any{"amount": nil, "supplier_id": nil}), 400, "supplier_id: is required"},
		{"unknown supplier", l.bills(), good(map[string]any{"supplier_id": "0192f0a4-7b1c-7d2e-9f00-000000000001"}), 400, "supplier_id: no such contragent"},
		{"another workspace's supplier", l.bills(), good(map[string]any{"supplier_id": other.supplier}), 403, ""},
		{"another workspace's property", other.bills(), good(nil), 403, ""},
		{"due before the bill", l.bills(), good(map[string]any{"due_date": "2026-02-01"}), 400, "due_date: must not be before bill_date"},
		{"paid in the future", l.bills(), good(map[string]any{"paid_on": "2027-01-01"}), 400, "paid_on: must not be after today"},
		{"allocable without a kind", l.bills(), good(map[string]any{"allocable": true}), 400, "allocable: an allocable bill needs an operating_cost_category"},
		{"VAT over the amount", l.bills(), good(map[string]any{"vat_amount": 100.01}), 400, "vat_amount: must not exceed amount"},
		{"VAT both ways", l.bills(), good(map[string]any{"vat_amount": 1, "vat_rate": 19}), 400, "vat_amount: give vat_amount or vat_rate, not both"},
		{"a rate over 100", l.bills(), good(map[string]any{"vat_rate": 101}), 400, "vat_rate: must be between 0 and 100"},
		{"a document not the property's", l.bills(), good(map[string]any{"document_id": "0192f0a4-7b1c-7d2e-9f00-000000000002"}), 400, "document_id: no document of this property"},
		{"three decimals", l.bills(), good(map[string]any{"amount": 1.005}), 400, ""},
		{"a bad date", l.bills(), good(map[string]any{"bill_date": "2026-02-30"}), 400, ""},
		{"update: negative amount", l.bills() + "/" + b.ID, map[string]any{"amount": -1}, 400, "amount: must be greater than 0"},
		{"update: unknown category", l.bills() + "/" + b.ID, map[string]any{"category": "yacht"}, 400, "category: must be one of"},
		{"update: another workspace's supplier", l.bills() + "/" + b.ID, map[string]any{"supplier_id": other.supplier}, 403, ""},
		{"update: through another property", other.bills() + "/" + b.ID, map[string]any{"amount": 5}, 403, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			method := app.Post
			if strings.Contains(c.path, "/bills/") {
				method = app.Put
			}
			r := method(c.path, l.token, c.body).Expect(c.status)
			if c.detail != "" && !strings.Contains(r.String(), c.detail) {
				t.Errorf("answer %s lacks %q", r.String(), c.detail)
			}
			if got := counts(t, app); got != before {
				t.Errorf("bills and entries %v, were %v", got, before)
			}
		})
	}
	var got bill
	app.Get(l.bills()+"/"+b.ID, l.token).Expect(http.StatusOK).JSON(&got)
	if got.Amount.String() != "100.00" || got.Category != "repairs" || got.SupplierID != l.supplier {
		t.Errorf("bill changed: %+v", got)
	}
	app.Delete(other.bills()+"/"+b.ID, l.token).Expect(http.StatusForbidden)
	app.Delete(l.bills()+"/"+b.ID, other.token).Expect(http.StatusForbidden)
	// The supplier and the property a bill names cannot be deleted.
	app.Delete("/api/v1/contragents/"+l.supplier, l.token).Expect(http.StatusConflict)
	app.Delete("/api/v1/properties/"+l.property, l.token).Expect(http.StatusConflict)
	if got := counts(t, app); got != before {
		t.Errorf("bills and entries %v, were %v", got, before)
	}
}

func TestBillListsFiltersAndExports(t *testing.T) {
	app := start(t)
	l := newLandlord(t, app)
	second := id(t, app.Post("/api/v1/properties", l.token, map[string]any{"name": "Altbau", "country_code": "DE"}).Expect(http.StatusCreated))
	mk := func(property, date, category string, amount float64, paid string) string {
		body := map[string]any{"supplier_id": l.supplier, "bill_date": date, "amount": amount, "category": category}
		if paid != "" {
			body["paid_on"] = paid
		}
		return id(t, app.Post("/api/v1/properties/"+property+"/bills", l.token, body).Expect(http.StatusCreated))
	}
	a := mk(l.property, "2026-01-10", "repairs", 100, "2026-01-20")
	b := mk(l.property, "2026-02-10", "insurance", 200, "")
	c := mk(second, "2026-03-10", "repairs", 300, "")
	d := mk(second, "2026-04-10", "property_tax", 400, "2026-04-11")

	ids := func(path string) string {
		var p page
		app.Get(path, l.token).Expect(http.StatusOK).JSON(&p)
		var out []string
		for _, x := range p.Bills {
			out = append(out, x.ID)
		}
		return strings.Join(out, ",")
	}
	join := func(s ...string) string { return strings.Join(s, ",") }
	for path, want := range map[string]string{
		"/api/v1/bills":                                         join(d, c, b, a),
		"/api/v1/bills?category=repairs":                        join(c, a),
		"/api/v1/bills?status=unpaid":                           join(c, b),
		"/api/v1/bills?status=paid":                             join(d, a),
		"/api/v1/bills?from=2026-02-01&to=2026-03-31":           join(c, b),
		"/api/v1/bills?property_id=" + second:                   join(d, c),
		l.bills():                                               join(b, a),
		l.bills() + "?status=paid":                              a,
		"/api/v1/properties/" + second + "/bills?to=2026-03-10": c,
	} {
		if got := ids(path); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
	if got := strings.Join(app.Walk("/api/v1/bills", l.token, "bills", 1), ","); got != join(d, c, b, a) {
		t.Errorf("walked by cursor: %s", got)
	}
	app.Get("/api/v1/bills?category=yacht", l.token).Expect(http.StatusBadRequest)
	app.Get("/api/v1/bills?from=2026-13-01", l.token).Expect(http.StatusBadRequest)
	// Another workspace sees none of them.
	if got := ids("/api/v1/bills"); got == "" {
		t.Fatal("own list empty")
	}
	stranger := newLandlord(t, app)
	var p page
	app.Get("/api/v1/bills", stranger.token).Expect(http.StatusOK).JSON(&p)
	if len(p.Bills) != 0 {
		t.Errorf("a stranger lists %d bills", len(p.Bills))
	}

	csv := app.Get("/api/v1/bills?format=csv&status=unpaid", l.token).Expect(http.StatusOK).String()
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], "300.00") || !strings.Contains(lines[2], "200.00") {
		t.Errorf("csv:\n%s", csv)
	}
	// A German reader's file: German headers and categories. (The XLSX:
	// the test kit reads a CSV answer with commas, which a German file's
	// decimal commas break.)
	de := app.Get("/api/v1/bills?format=xlsx&locale=de&category=insurance", l.token).Expect(http.StatusOK).Body
	zr, err := zip.NewReader(bytes.NewReader(de), int64(len(de)))
	if err != nil {
		t.Fatal(err)
	}
	var sheet strings.Builder
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		_ = rc.Close()
		sheet.Write(b)
	}
	for _, want := range []string{"Rechnungsdatum", "Kostenart", "Umlagefähig", "Versicherung"} {
		if !strings.Contains(sheet.String(), want) {
			t.Errorf("German xlsx lacks %q", want)
		}
	}
	if r := app.Get("/api/v1/bills?format=xlsx", l.token).Expect(http.StatusOK); !strings.HasPrefix(r.String(), "PK") {
		t.Error("xlsx is not a zip")
	}
	expectBooks(t, app, l.token, "6300", "400.00", "6310", "200.00", "6320", "400.00", "3600", "-500.00", "1800", "-500.00")
}
