package tenancy_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/google/uuid"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/testkit/requires"
)

func init() {
	// The validator reads PDF answers as binary strings.
	openapi3filter.RegisterBodyDecoder("application/pdf", func(body io.Reader, _ http.Header, _ *openapi3.SchemaRef,
		_ openapi3filter.EncodingFn) (any, error) {
		b, err := io.ReadAll(body)
		return string(b), err
	})
}

// linkedLease is a lease whose tenant user has accepted the portal
// invitation.
func linkedLease(t *testing.T, app *testkit.App) (lease, accountstest.User) {
	t.Helper()
	tenant := accountstest.NewUser(t, app)
	l := newLease(t, app, tenant.Email)
	accept(app, l.invite(t, app, tenant.Email), tenant.Token).Expect(http.StatusOK)
	return l, tenant
}

type receiptRow struct {
	ID     string `json:"id"`
	Number string `json:"number"`
}

func receiptsOf(t *testing.T, app *testkit.App, path, token string) []receiptRow {
	t.Helper()
	var list struct {
		Receipts []receiptRow `json:"receipts"`
	}
	app.Get(path, token).Expect(http.StatusOK).JSON(&list)
	return list.Receipts
}

// pdfText is the text of a PDF (pdftotext); the test skips without
// poppler outside CI.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	pdftotext := requires.Program(t, "pdftotext", "apt-get install poppler-utils")
	path := filepath.Join(t.TempDir(), "r.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(pdftotext, "-enc", "UTF-8", "-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

// A tenant downloads the PDF of their own receipt; a receipt that is not
// of a payment of their contract, or another user, gets 404.
func TestTenantPrintsTheirReceipt(t *testing.T) {
	app := testkit.Start(t)
	l, tenant := linkedLease(t, app)
	base := "/api/v1/tenancy/contracts/" + l.contract
	mine := receiptsOf(t, app, base+"/receipts", tenant.Token)
	if len(mine) != 1 {
		t.Fatalf("the tenant has %d receipts, want 1", len(mine))
	}
	pdfPath := base + "/receipts/" + mine[0].ID + "/pdf"
	res := app.Get(pdfPath, tenant.Token).Expect(http.StatusOK)
	if !bytes.HasPrefix(res.Body, []byte("%PDF")) || res.Header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("not a PDF: %s %.20q", res.Header.Get("Content-Type"), res.Body)
	}
	if d := res.Header.Get("Content-Disposition"); !strings.HasPrefix(d, "attachment") {
		t.Errorf("Content-Disposition %q", d)
	}
	if text := pdfText(t, res.Body); text != "" && !strings.Contains(text, mine[0].Number) {
		t.Errorf("the PDF does not show the receipt number %s:\n%s", mine[0].Number, text)
	}
	// The landlord's copy is the same version.
	landlord := app.Get("/api/v1/print-forms/receipts/"+mine[0].ID, l.landlord.Token).Expect(http.StatusOK)
	etag := res.Header.Get("ETag")
	if etag == "" || landlord.Header.Get("ETag") != etag {
		t.Errorf("ETag %q, the landlord's %q", etag, landlord.Header.Get("ETag"))
	}
	app.Do(testkit.Request{Method: http.MethodGet, Path: pdfPath, Token: tenant.Token,
		Headers: map[string]string{"If-None-Match": etag}}).Expect(http.StatusNotModified)

	// A payment of the same property without the contract has a receipt
	// the tenant does not get.
	created(t, app.Post("/api/v1/properties/"+l.property+"/payments", l.landlord.Token,
		map[string]any{"amount": 40, "method": "cash"}))
	all := receiptsOf(t, app, "/api/v1/properties/"+l.property+"/receipts", l.landlord.Token)
	if len(all) != 2 {
		t.Fatalf("the landlord has %d receipts, want 2", len(all))
	}
	for _, r := range all {
		if r.ID != mine[0].ID {
			app.Get(base+"/receipts/"+r.ID+"/pdf", tenant.Token).Expect(http.StatusNotFound)
		}
	}

	// Another lease's tenant: neither the other's contract nor the other's
	// receipt through their own contract.
	other, otherTenant := linkedLease(t, app)
	theirs := receiptsOf(t, app, "/api/v1/tenancy/contracts/"+other.contract+"/receipts", otherTenant.Token)
	app.Get("/api/v1/tenancy/contracts/"+other.contract+"/receipts/"+theirs[0].ID+"/pdf", otherTenant.Token).Expect(http.StatusOK)
	for _, p := range []string{
		"/api/v1/tenancy/contracts/" + other.contract + "/receipts/" + mine[0].ID + "/pdf",
		"/api/v1/tenancy/contracts/" + other.contract + "/receipts/nope/pdf",
		pdfPath,
	} {
		app.Get(p, otherTenant.Token).Expect(http.StatusNotFound)
	}
	app.Get(base+"/receipts/"+theirs[0].ID+"/pdf", tenant.Token).Expect(http.StatusNotFound)
	app.Get("/api/v1/tenancy/contracts/"+other.contract+"/receipts/"+theirs[0].ID+"/pdf", tenant.Token).Expect(http.StatusNotFound)
	// The landlord is no tenant of their own contract.
	app.Get(pdfPath, l.landlord.Token).Expect(http.StatusNotFound)
	stranger := accountstest.NewUser(t, app)
	app.Get(pdfPath, stranger.Token).Expect(http.StatusNotFound)
}

// upload sends a multipart upload of a small text file to the property.
func upload(t *testing.T, app *testkit.App, l lease, title string, fields map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	_ = w.WriteField("title", title)
	_ = w.WriteField("category", "other")
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	fw, _ := w.CreateFormFile("file", title+".txt")
	fmt.Fprintf(fw, "The content of %s.\n", title)
	_ = w.Close()
	res := app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/properties/" + l.property + "/documents",
		Token: l.landlord.Token, Body: buf.Bytes(), Headers: map[string]string{"Content-Type": w.FormDataContentType()}})
	return created(t, res)
}

func sharedTitles(t *testing.T, app *testkit.App, l lease, token string) []string {
	t.Helper()
	var list struct {
		Documents []struct {
			Title  string `json:"title"`
			Shared bool   `json:"shared_with_tenant"`
		} `json:"documents"`
	}
	app.Get("/api/v1/tenancy/contracts/"+l.contract+"/documents", token).Expect(http.StatusOK).JSON(&list)
	var out []string
	for _, d := range list.Documents {
		if !d.Shared {
			t.Errorf("the tenant sees %q, which is not shared", d.Title)
		}
		out = append(out, d.Title)
	}
	return out
}

// A tenant sees the documents the landlord shares: those of their
// contract, and those of the property while their contract is active;
// never an unshared one or another contract's.
func TestTenantSeesSharedDocuments(t *testing.T) {
	app := testkit.Start(t, testkit.WithListener(), testkit.WithConfig("ratelimit.enabled", false),
		testkit.WithConfig("modules.documents.storage", "file:"+filepath.Join(t.TempDir(), "documents")))
	l, tenant := linkedLease(t, app)
	otherContract := created(t, app.Post("/api/v1/contracts", l.landlord.Token, map[string]any{
		"property_id": l.property, "tenant_id": l.tenant, "number": "L-2"}))

	lease := upload(t, app, l, "lease", map[string]string{"contract_id": l.contract, "shared_with_tenant": "true"})
	rules := upload(t, app, l, "house rules", map[string]string{"shared_with_tenant": "true"})
	private := upload(t, app, l, "private", map[string]string{"contract_id": l.contract})
	foreign := upload(t, app, l, "foreign", map[string]string{"contract_id": otherContract, "shared_with_tenant": "true"})
	res := app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/properties/" + l.property + "/documents",
		Token: l.landlord.Token, Body: "--x\r\nContent-Disposition: form-data; name=\"shared_with_tenant\"\r\n\r\nyes\r\n--x--\r\n",
		Headers: map[string]string{"Content-Type": "multipart/form-data; boundary=x"}})
	if res.Expect(http.StatusBadRequest); !strings.Contains(string(res.Body), "shared_with_tenant") {
		t.Errorf("a bad shared_with_tenant: %s", res.Body)
	}

	got := sharedTitles(t, app, l, tenant.Token)
	if strings.Join(got, ",") != "lease,house rules" {
		t.Fatalf("the tenant sees %v", got)
	}
	docs := "/api/v1/properties/" + l.property + "/documents/"
	if app.Get(docs+private, l.landlord.Token).Expect(http.StatusOK).Map()["shared_with_tenant"] != false {
		t.Error("a document uploaded without shared_with_tenant is shared")
	}
	content := "/api/v1/tenancy/contracts/" + l.contract + "/documents/"
	res = app.Get(content+lease+"/content", tenant.Token).Expect(http.StatusOK)
	if string(res.Body) != "The content of lease.\n" || !strings.HasPrefix(res.Header.Get("Content-Disposition"), "attachment;") ||
		res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("ETag") == "" {
		t.Errorf("the shared lease: %v %q", res.Header, res.Body)
	}
	app.Get(content+rules+"/content", tenant.Token).Expect(http.StatusOK)
	for _, id := range []string{private, foreign, uuid.NewString(), "nope"} {
		app.Get(content+id+"/content", tenant.Token).Expect(http.StatusNotFound)
	}

	// Shared by PUT; a PUT without the field keeps it.
	app.Put(docs+private, l.landlord.Token, map[string]any{"title": "private", "category": "other", "shared_with_tenant": true}).Expect(http.StatusOK)
	app.Get(content+private+"/content", tenant.Token).Expect(http.StatusOK)
	app.Put(docs+private, l.landlord.Token, map[string]any{"title": "not so private", "category": "other"}).Expect(http.StatusOK)
	app.Get(content+private+"/content", tenant.Token).Expect(http.StatusOK)
	app.Put(docs+private, l.landlord.Token, map[string]any{"title": "private", "category": "other", "shared_with_tenant": false}).Expect(http.StatusOK)
	app.Get(content+private+"/content", tenant.Token).Expect(http.StatusNotFound)

	// Another user, and the other lease's tenant, get 404.
	other, otherTenant := linkedLease(t, app)
	stranger := accountstest.NewUser(t, app)
	for _, token := range []string{stranger.Token, otherTenant.Token, l.landlord.Token} {
		app.Get("/api/v1/tenancy/contracts/"+l.contract+"/documents", token).Expect(http.StatusNotFound)
		app.Get(content+lease+"/content", token).Expect(http.StatusNotFound)
	}
	app.Get("/api/v1/tenancy/contracts/"+other.contract+"/documents/"+lease+"/content", otherTenant.Token).Expect(http.StatusNotFound)

	// Once the contract is terminated, the property's documents are for
	// the next tenant; the lease stays the tenant's.
	app.Post("/api/v1/contracts/"+l.contract+"/terminate", l.landlord.Token, map[string]any{"date": "2026-11-15"}).Expect(http.StatusOK)
	if got := sharedTitles(t, app, l, tenant.Token); strings.Join(got, ",") != "lease" {
		t.Fatalf("after the end the tenant sees %v", got)
	}
	app.Get(content+rules+"/content", tenant.Token).Expect(http.StatusNotFound)
	app.Get(content+lease+"/content", tenant.Token).Expect(http.StatusOK)
}

type readingRow struct {
	ID     string `json:"id"`
	ReadOn string `json:"read_on"`
	By     string `json:"by"`
}

// A tenant sees the meters of their contract and sends readings, checked
// as the landlord's are and marked by: tenant.
func TestTenantSendsReadings(t *testing.T) {
	app := testkit.Start(t)
	l, tenant := linkedLease(t, app)
	counters := "/api/v1/properties/" + l.property + "/counters"
	meter := created(t, app.Post(counters, l.landlord.Token, map[string]any{"kind": "electricity", "tariff": 0.3, "contract_id": l.contract}))
	hall := created(t, app.Post(counters, l.landlord.Token, map[string]any{"kind": "water_cold"}))
	app.Post(counters+"/"+meter+"/readings", l.landlord.Token, map[string]any{"read_on": "2026-11-01", "value": 100}).Expect(http.StatusCreated)

	base := "/api/v1/tenancy/contracts/" + l.contract + "/counters"
	var list struct {
		Counters []struct {
			ID string `json:"id"`
		} `json:"counters"`
	}
	app.Get(base, tenant.Token).Expect(http.StatusOK).JSON(&list)
	if len(list.Counters) != 1 || list.Counters[0].ID != meter {
		t.Fatalf("the tenant's counters: %+v", list)
	}
	mine := base + "/" + meter + "/readings"
	landlords := counters + "/" + meter + "/readings"
	readingRows := func() int {
		n, err := app.DB.NewSelect().Table("counter_readings").Count(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return int(n)
	}

	// Wrong readings get what the landlord gets, and store nothing.
	for _, body := range []map[string]any{
		{"read_on": "2026-11-20", "value": 99},    // below the previous
		{"read_on": "2026-13-01", "value": 150},   // no such date
		{"read_on": "2026-12-01", "value": 150},   // in the future
		{"read_on": "2026-11-01", "value": 150},   // not after the latest
		{"read_on": "2026-11-20", "value": "150"}, // not a number
		{"value": 150},
	} {
		before := readingRows()
		got := app.Post(mine, tenant.Token, body)
		want := app.Post(landlords, l.landlord.Token, body)
		if got.Status != want.Status || code(got) != code(want) || got.Status < 400 || got.Status >= 500 {
			t.Errorf("%v: the tenant got %d %s, the landlord %d %s", body, got.Status, got.Body, want.Status, want.Body)
		}
		if readingRows() != before {
			t.Fatalf("%v: a refused reading was stored", body)
		}
	}

	var r struct {
		readingRow
		Consumption any     `json:"consumption"`
		ChargeID    *string `json:"charge_id"`
	}
	app.Post(mine, tenant.Token, map[string]any{"read_on": "2026-11-20", "value": 150.5}).Expect(http.StatusCreated).JSON(&r)
	if r.By != "tenant" || r.ChargeID == nil || fmt.Sprint(r.Consumption) != "50.5" {
		t.Fatalf("the tenant's reading: %+v", r)
	}
	var createdBy int64
	if err := app.DB.NewSelect().Table("counter_readings").Column("created_by").Where("id = ?", r.ID).Scan(context.Background(), &createdBy); err != nil {
		t.Fatal(err)
	}
	if createdBy != tenant.ID {
		t.Errorf("created_by %d, want the tenant %d", createdBy, tenant.ID)
	}
	for path, token := range map[string]string{landlords: l.landlord.Token, mine: tenant.Token} {
		var rl struct {
			Readings []readingRow `json:"readings"`
		}
		app.Get(path, token).Expect(http.StatusOK).JSON(&rl)
		if len(rl.Readings) != 2 || rl.Readings[0].By != "tenant" || rl.Readings[1].By != "landlord" {
			t.Errorf("%s: %+v", path, rl.Readings)
		}
	}
	// The charge is the contract's: the tenant sees it.
	charges := app.Get("/api/v1/tenancy/contracts/"+l.contract+"/charges?per_page=100", tenant.Token).Expect(http.StatusOK).Map()["charges"].([]any)
	found := false
	for _, c := range charges {
		found = found || c.(map[string]any)["id"] == *r.ChargeID
	}
	if !found {
		t.Error("the tenant does not see the charge billed from their reading")
	}

	// A meter of the property that is not the contract's is not theirs.
	app.Get(base+"/"+hall+"/readings", tenant.Token).Expect(http.StatusNotFound)
	app.Post(base+"/"+hall+"/readings", tenant.Token, map[string]any{"read_on": "2026-11-20", "value": 1}).Expect(http.StatusNotFound)
	// Another user, another lease's tenant and the landlord get 404.
	other, otherTenant := linkedLease(t, app)
	stranger := accountstest.NewUser(t, app)
	for _, token := range []string{stranger.Token, otherTenant.Token, l.landlord.Token} {
		app.Get(base, token).Expect(http.StatusNotFound)
		app.Get(mine, token).Expect(http.StatusNotFound)
		app.Post(mine, token, map[string]any{"read_on": "2026-11-21", "value": 160}).Expect(http.StatusNotFound)
	}
	app.Post("/api/v1/tenancy/contracts/"+other.contract+"/counters/"+meter+"/readings", otherTenant.Token,
		map[string]any{"read_on": "2026-11-21", "value": 160}).Expect(http.StatusNotFound)

	// On a terminated contract the tenant reads but sends no more.
	app.Post("/api/v1/contracts/"+l.contract+"/terminate", l.landlord.Token, map[string]any{"date": "2026-11-21"}).Expect(http.StatusOK)
	before := readingRows()
	res := app.Post(mine, tenant.Token, map[string]any{"read_on": "2026-11-21", "value": 160})
	if res.Status != http.StatusConflict || code(res) != "contract_not_active" {
		t.Fatalf("a reading on a terminated contract: %d %s", res.Status, res.Body)
	}
	if readingRows() != before {
		t.Fatal("a refused reading was stored")
	}
	app.Get(mine, tenant.Token).Expect(http.StatusOK)
}
