package assets_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/testkit/golden"
	"github.com/propman/propman/platform/testkit/requires"
)

type asset struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Category  string   `json:"category"`
	Quantity  int      `json:"quantity"`
	Condition string   `json:"condition"`
	Value     *float64 `json:"value"`
	Photos    []string `json:"photos"`
}

type fixture struct {
	app      *testkit.App
	token    string
	property string
	contract string
}

func id(t testing.TB, r *testkit.Response) string {
	t.Helper()
	var v struct {
		ID string `json:"id"`
	}
	r.JSON(&v)
	return v.ID
}

func start(t *testing.T, opts ...testkit.Option) fixture {
	t.Helper()
	app := testkit.Start(t, opts...)
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	u := accountstest.NewUser(t, app)
	f := fixture{app: app, token: u.Token}
	f.property = id(t, app.Post("/api/v1/properties", u.Token, map[string]any{"name": "Flat", "country_code": "FR"}).Expect(http.StatusCreated))
	f.contract = newContract(t, app, u.Token, f.property, "C-1", "fr")
	return f
}

func newContract(t testing.TB, app *testkit.App, token, property, number, locale string) string {
	t.Helper()
	tenant := id(t, app.Post("/api/v1/contragents", token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Élodie Martin"}).Expect(http.StatusCreated))
	c := id(t, app.Post("/api/v1/contracts", token, map[string]any{"property_id": property, "tenant_id": tenant, "number": number, "locale": locale,
		"terms": []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 900}, {"code": "CONTRACT_START_DATE", "value": "2026-01-01"}}}).Expect(http.StatusCreated))
	app.Post("/api/v1/contracts/"+c+"/activate", token, nil).Expect(http.StatusOK)
	return c
}

func (f fixture) assets() string { return "/api/v1/properties/" + f.property + "/assets" }

func count(t testing.TB, app *testkit.App, table string) int {
	t.Helper()
	n, err := app.DB.NewSelect().Table(table).Count(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func TestAssetsCrudFiltersAndBadInput(t *testing.T) {
	f := start(t)
	var a asset
	f.app.Post(f.assets(), f.token, map[string]any{"name": " Sofa ", "category": "furniture", "value": 850.5}).Expect(http.StatusCreated).JSON(&a)
	if a.Name != "Sofa" || a.Quantity != 1 || a.Condition != "good" || a.Value == nil || *a.Value != 850.5 || len(a.Photos) != 0 {
		t.Fatalf("created %+v", a)
	}
	f.app.Post(f.assets(), f.token, map[string]any{"name": "Fridge", "category": "kitchen", "condition": "new"}).Expect(http.StatusCreated)
	f.app.Post(f.assets(), f.token, map[string]any{"name": "Chair", "category": "furniture", "quantity": 4, "condition": "fair"}).Expect(http.StatusCreated)
	for _, bad := range []map[string]any{
		{"name": "X", "value": -1},
		{"name": "X", "quantity": 0},
		{"name": ""},
		{"name": "X", "condition": "splendid"},
		{"name": "X", "photos": []string{"01936d3e-5f7a-7cc1-9c1e-0d6b7a1f2e3d"}},
		{"category": "x"},
	} {
		f.app.Post(f.assets(), f.token, bad).Expect(http.StatusBadRequest)
	}
	if n := count(t, f.app, "assets"); n != 3 {
		t.Fatalf("%d assets after bad input", n)
	}
	var l struct {
		Assets []asset `json:"assets"`
		Total  int     `json:"total"`
		Next   *string `json:"next"`
	}
	f.app.Get(f.assets()+"?category=furniture", f.token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 2 || l.Assets[0].Name != "Sofa" || l.Assets[1].Name != "Chair" {
		t.Fatalf("furniture %+v", l)
	}
	f.app.Get(f.assets()+"?per_page=1", f.token).Expect(http.StatusOK).JSON(&l)
	if l.Next == nil || l.Assets[0].Name != "Sofa" {
		t.Fatalf("page 1 %+v", l)
	}
	f.app.Get(f.assets()+"?per_page=1&after="+*l.Next, f.token).Expect(http.StatusOK).JSON(&l)
	if l.Assets[0].Name != "Fridge" {
		t.Fatalf("page 2 %+v", l)
	}
	f.app.Get(f.assets()+"?condition=fair", f.token).Expect(http.StatusOK).JSON(&l)
	if len(l.Assets) != 1 || l.Assets[0].Quantity != 4 {
		t.Fatalf("fair %+v", l)
	}
	f.app.Put(f.assets()+"/"+a.ID, f.token, map[string]any{"value": nil, "condition": "poor"}).Expect(http.StatusOK).JSON(&a)
	if a.Value != nil || a.Condition != "poor" || a.Name != "Sofa" {
		t.Fatalf("updated %+v", a)
	}
	f.app.Put(f.assets()+"/"+a.ID, f.token, map[string]any{"value": -5}).Expect(http.StatusBadRequest)
	// Another workspace sees nothing of it.
	other := accountstest.NewUser(t, f.app)
	f.app.Get(f.assets()+"/"+a.ID, other.Token).Expect(http.StatusForbidden)
	f.app.Delete(f.assets()+"/"+a.ID, f.token).Expect(http.StatusNoContent)
	f.app.Get(f.assets()+"/"+a.ID, f.token).Expect(http.StatusNotFound)
}

type inspection struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	Readings []struct {
		Value float64 `json:"value"`
	} `json:"readings"`
	Changes []struct {
		Name   string  `json:"name"`
		Before *string `json:"before"`
		After  *string `json:"after"`
	} `json:"changes"`
}

func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	pdftotext := requires.Program(t, "pdftotext", "apt-get install poppler-utils")
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/f.pdf", pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(pdftotext, "-enc", "UTF-8", "-layout", dir+"/f.pdf", "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestInspectionsCheckInCheckOutAndPDF(t *testing.T) {
	f := start(t)
	sofa := id(t, f.app.Post(f.assets(), f.token, map[string]any{"name": "Canapé", "category": "furniture"}).Expect(http.StatusCreated))
	oven := id(t, f.app.Post(f.assets(), f.token, map[string]any{"name": "Four", "condition": "new"}).Expect(http.StatusCreated))
	counter := id(t, f.app.Post("/api/v1/properties/"+f.property+"/counters", f.token, map[string]any{"kind": "electricity", "name": "Électricité", "tariff": 0.25, "contract_id": f.contract}).Expect(http.StatusCreated))
	ins := f.assets() + "/inspections"
	// A check-out before the check-in, a contract of another workspace, a
	// bad reading: refused, nothing stored.
	f.app.Post(ins, f.token, map[string]any{"contract_id": f.contract, "kind": "check_out", "inspected_on": "2026-01-01"}).Expect(http.StatusConflict)
	other := accountstest.NewUser(t, f.app)
	otherProp := id(t, f.app.Post("/api/v1/properties", other.Token, map[string]any{"name": "Other", "country_code": "FR"}).Expect(http.StatusCreated))
	otherContract := newContract(t, f.app, other.Token, otherProp, "O-1", "fr")
	f.app.Post(ins, f.token, map[string]any{"contract_id": otherContract, "kind": "check_in", "inspected_on": "2026-01-01"}).Expect(http.StatusBadRequest)
	f.app.Post("/api/v1/properties/"+otherProp+"/assets/inspections", f.token, map[string]any{"contract_id": otherContract, "kind": "check_in", "inspected_on": "2026-01-01"}).Expect(http.StatusForbidden)
	f.app.Post(ins, f.token, map[string]any{"contract_id": f.contract, "kind": "check_in", "inspected_on": "2026-01-01",
		"readings": []map[string]any{{"counter_id": counter, "value": -3}}}).Expect(http.StatusBadRequest)
	f.app.Post(ins, f.token, map[string]any{"contract_id": f.contract, "kind": "check_in", "inspected_on": "2026-01-01",
		"items": []map[string]any{{"asset_id": sofa, "condition": "good"}}, "readings": []map[string]any{{"counter_id": otherContract, "value": 3}}}).Expect(http.StatusBadRequest)
	if n := count(t, f.app, "inspections") + count(t, f.app, "counter_readings"); n != 0 {
		t.Fatalf("%d rows after bad input", n)
	}
	var in inspection
	f.app.Post(ins, f.token, map[string]any{"contract_id": f.contract, "kind": "check_in", "inspected_on": "2026-01-01", "notes": "Deux clés.",
		"items":    []map[string]any{{"asset_id": sofa, "condition": "good"}, {"asset_id": oven, "condition": "new"}},
		"readings": []map[string]any{{"counter_id": counter, "value": 1000.5}}}).Expect(http.StatusCreated).JSON(&in)
	if in.Changes != nil || len(in.Readings) != 1 || in.Readings[0].Value != 1000.5 {
		t.Fatalf("check-in %+v", in)
	}
	f.app.Post(ins, f.token, map[string]any{"contract_id": f.contract, "kind": "check_in", "inspected_on": "2026-01-02"}).Expect(http.StatusConflict)
	// The reading went through the counters module: a check-out reading
	// below it is refused like any.
	f.app.Post(ins, f.token, map[string]any{"contract_id": f.contract, "kind": "check_out", "inspected_on": "2026-10-31",
		"readings": []map[string]any{{"counter_id": counter, "value": 999}}}).Expect(http.StatusBadRequest)
	var out inspection
	f.app.Post(ins, f.token, map[string]any{"contract_id": f.contract, "kind": "check_out", "inspected_on": "2026-10-31",
		"items":    []map[string]any{{"asset_id": sofa, "condition": "poor", "notes": "Tache"}, {"asset_id": oven, "condition": "new"}},
		"readings": []map[string]any{{"counter_id": counter, "value": 3000.5}}}).Expect(http.StatusCreated).JSON(&out)
	if len(out.Changes) != 1 || out.Changes[0].Name != "Canapé" || *out.Changes[0].Before != "good" || *out.Changes[0].After != "poor" {
		t.Fatalf("check-out changes %+v", out.Changes)
	}
	// The consumption was billed by the counters module: 2000 kWh x 0.25.
	var charges struct {
		Charges []struct {
			Amount float64 `json:"amount"`
		} `json:"charges"`
	}
	f.app.Get("/api/v1/properties/"+f.property+"/charges?contract_id="+f.contract+"&per_page=200", f.token).Expect(http.StatusOK).JSON(&charges)
	found := false
	for _, c := range charges.Charges {
		found = found || c.Amount == 500
	}
	if !found {
		t.Fatalf("no metered charge of 500.00: %+v", charges)
	}
	var a asset
	f.app.Get(f.assets()+"/"+sofa, f.token).Expect(http.StatusOK).JSON(&a)
	if a.Condition != "poor" {
		t.Fatalf("asset condition %s", a.Condition)
	}
	res := f.app.Get("/api/v1/print-forms/inspections/"+out.ID, f.token).Expect(http.StatusOK)
	text := pdfText(t, res.Body)
	for _, want := range []string{"État des lieux de sortie", "C-1", "Élodie Martin", "31/10/2026", "Canapé", "mauvais", "3 000,500", "Changements depuis l'entrée", "Signatures", "Bailleur", "Locataire"} {
		if !strings.Contains(text, want) {
			t.Errorf("PDF lacks %q:\n%s", want, text)
		}
	}
	f.app.Get("/api/v1/print-forms/inspections/"+out.ID, other.Token).Expect(http.StatusForbidden)
}

// upload stores a text document of the property and returns its id.
func (f fixture) upload(t *testing.T, name string) string {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	_ = w.WriteField("title", name)
	_ = w.WriteField("category", "photo")
	fw, _ := w.CreateFormFile("file", name+".txt")
	_, _ = fw.Write([]byte("a photo of " + name))
	_ = w.Close()
	return id(t, f.app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/properties/" + f.property + "/documents",
		Token: f.token, Body: body.Bytes(), Headers: map[string]string{"Content-Type": w.FormDataContentType()}}).Expect(http.StatusCreated))
}

func TestPhotosAreDocumentsOfTheProperty(t *testing.T) {
	f := start(t)
	photo := f.upload(t, "sofa")
	var a asset
	f.app.Post(f.assets(), f.token, map[string]any{"name": "Sofa", "photos": []string{photo}}).Expect(http.StatusCreated).JSON(&a)
	if len(a.Photos) != 1 || a.Photos[0] != photo {
		t.Fatalf("photos %+v", a.Photos)
	}
	f.app.Post(f.assets(), f.token, map[string]any{"name": "Sofa", "photos": []string{photo, photo}}).Expect(http.StatusBadRequest)
	// A document of another property of the same workspace is not this one's.
	other := id(t, f.app.Post("/api/v1/properties", f.token, map[string]any{"name": "Other", "country_code": "FR"}).Expect(http.StatusCreated))
	g := fixture{app: f.app, token: f.token, property: other}
	foreign := g.upload(t, "elsewhere")
	f.app.Put(f.assets()+"/"+a.ID, f.token, map[string]any{"photos": []string{foreign}}).Expect(http.StatusBadRequest)
	var ins struct {
		Photos []string `json:"photos"`
	}
	f.app.Post(f.assets()+"/inspections", f.token, map[string]any{"contract_id": f.contract, "kind": "check_in", "inspected_on": "2026-01-01",
		"photos": []string{photo}}).Expect(http.StatusCreated).JSON(&ins)
	if len(ins.Photos) != 1 || ins.Photos[0] != photo {
		t.Fatalf("inspection photos %+v", ins.Photos)
	}
}

// An inspection report names the landlord and the tenant with their
// addresses, the dwelling's address and the date, keeps the notes' line
// breaks, prints both names under the signature lines, and is written in
// ?locale= (an unknown one: 400).
func TestInspectionReportNamesThePartiesAndKeepsLines(t *testing.T) {
	f := start(t)
	f.app.Put("/api/v1/user/profile", f.token, map[string]any{"name": "Marie Bailleur", "postal_address": map[string]any{
		"address": "12 rue de la Paix", "postal_code": "75002", "city": "Paris", "country_code": "FR"}}).Expect(http.StatusOK)
	f.app.Put("/api/v1/properties/"+f.property, f.token, map[string]any{"name": "Appartement 3", "address": "5 avenue Foch",
		"postal_code": "69006", "city": "Lyon", "country_code": "FR"}).Expect(http.StatusOK)
	var c struct {
		TenantID string `json:"tenant_id"`
	}
	f.app.Get("/api/v1/contracts/"+f.contract, f.token).Expect(http.StatusOK).JSON(&c)
	f.app.Put("/api/v1/contragents/"+c.TenantID, f.token, map[string]any{"kind": "person", "roles": []string{"tenant"},
		"name": "Élodie Martin", "address": "8 place Bellecour, 69002 Lyon"}).Expect(http.StatusOK)
	ins := id(t, f.app.Post(f.assets()+"/inspections", f.token, map[string]any{"contract_id": f.contract, "kind": "check_in",
		"inspected_on": "2026-01-01", "notes": "Cuisine propre.\nSalle de bains : joint à refaire.\nClés : 3"}).Expect(http.StatusCreated))
	raw := pdfText(t, f.app.Get("/api/v1/print-forms/inspections/"+ins, f.token).Expect(http.StatusOK).Body)
	text := strings.Join(strings.Fields(raw), " ")
	for _, want := range []string{"Bailleur Marie Bailleur", "12 rue de la Paix, 75002 Paris", "Locataire Élodie Martin",
		"8 place Bellecour, 69002 Lyon", "Appartement 3, 5 avenue Foch, 69006 Lyon"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(raw, "\n") {
		lines[strings.TrimSpace(l)] = true
	}
	for _, l := range []string{"Cuisine propre.", "Salle de bains : joint à refaire.", "Clés : 3"} {
		if !lines[l] {
			t.Errorf("the notes' line %q is not a line of its own:\n%s", l, raw)
		}
	}
	if i := strings.LastIndex(text, "Marie Bailleur"); i < strings.LastIndex(text, "Signature") {
		t.Errorf("no printed name under the signature lines:\n%s", text)
	}
	de := pdfText(t, f.app.Get("/api/v1/print-forms/inspections/"+ins+"?locale=de", f.token).Expect(http.StatusOK).Body)
	if !strings.Contains(de, "Vermieter") || !strings.Contains(de, "Anschrift") {
		t.Errorf("?locale=de:\n%s", de)
	}
	en := pdfText(t, f.app.Get("/api/v1/print-forms/inspections/"+ins+"?locale=en", f.token).Expect(http.StatusOK).Body)
	// The whole report as both parties read it, one golden text per
	// language (rewrite with -update, then read it).
	golden.Dir(t, filepath.Join("testdata", "golden"), map[string]string{"inspection.fr.pdf.txt": raw,
		"inspection.de.pdf.txt": de, "inspection.en.pdf.txt": en})
	f.app.Get("/api/v1/print-forms/inspections/"+ins+"?locale=xx", f.token).Expect(http.StatusBadRequest)
}
