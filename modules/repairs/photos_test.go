package repairs_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

var (
	pngBytes = append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 64)...)
	pdfBytes = []byte("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n")
)

// part is one file of a form: its form name, file name and bytes.
type part struct {
	field, name string
	data        []byte
}

// form posts a multipart form of parts to path.
func form(app *testkit.App, path, token string, parts ...part) *testkit.Response {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts {
		fw, _ := w.CreateFormFile(p.field, p.name)
		_, _ = fw.Write(p.data)
	}
	_ = w.Close()
	return app.Do(testkit.Request{Method: http.MethodPost, Path: path, Token: token, Body: buf.Bytes(),
		Headers: map[string]string{"Content-Type": w.FormDataContentType()}})
}

// The tenant adds photos to their request; the provider sends photos and
// the invoice, which becomes the bill's voucher. What is not an image by
// its bytes is a 415 whatever its name, and nothing is kept; an upload
// beyond the bounds is refused.
func TestRepairPhotos(t *testing.T) {
	t.Parallel()
	app := start(t)
	l := newLease(t, app, "de", "auftrag@klempner.example")
	var r request
	app.Post(l.tenantPath(), l.tenant.Token, map[string]any{"title": "Fenster undicht", "description": "Es zieht.",
		"category": "windows_doors", "urgency": "normal"}).Expect(http.StatusCreated).JSON(&r)
	photos := l.tenantPath() + "/" + r.ID + "/photos"
	docs := count(t, app, "documents")

	// A PDF named .png, and text named .jpg: refused by their bytes.
	for _, p := range []part{{"photos", "fenster.png", pdfBytes}, {"photos", "fenster.jpg", []byte("just text, not a picture")}} {
		res := form(app, photos, l.tenant.Token, part{"photos", "ok.png", pngBytes}, p).Expect(http.StatusUnsupportedMediaType)
		if code(res) != "not_an_image" {
			t.Errorf("%s: %s", p.name, res.Body)
		}
	}
	// Not a form, an empty form, too many photos.
	app.Post(photos, l.tenant.Token, map[string]any{"photos": "x"}).Expect(http.StatusUnsupportedMediaType)
	form(app, photos, l.tenant.Token).Expect(http.StatusBadRequest)
	eleven := make([]part, 11)
	for i := range eleven {
		eleven[i] = part{"photos", "p.png", pngBytes}
	}
	form(app, photos, l.tenant.Token, eleven...).Expect(http.StatusBadRequest)
	if n := count(t, app, "documents"); n != docs {
		t.Fatalf("refused uploads left %d documents", n-docs)
	}

	var got struct {
		Photos []string `json:"photos"`
	}
	form(app, photos, l.tenant.Token, part{"photos", "a.png", pngBytes}, part{"photos", "b.png", pngBytes}).
		Expect(http.StatusCreated).JSON(&got)
	if len(got.Photos) != 2 || count(t, app, "documents") != docs+2 {
		t.Fatalf("photos %v", got.Photos)
	}
	// Another tenant, and an unknown request: 404.
	other := newLease(t, app, "de", "b@klempner.example")
	form(app, photos, other.tenant.Token, part{"photos", "a.png", pngBytes}).Expect(http.StatusNotFound)
	form(app, l.tenantPath()+"/00000000-0000-0000-0000-000000000000/photos", l.tenant.Token, part{"photos", "a.png", pngBytes}).
		Expect(http.StatusNotFound)

	// The provider's files, before done.
	_, token := l.scheduled(t, app, "Heizung", "heating")
	files := "/api/v1/work-orders/" + token + "/files"
	if res := form(app, files, "", part{"photos", "job.png", pdfBytes}).Expect(http.StatusUnsupportedMediaType); code(res) != "not_an_image" {
		t.Errorf("a PDF as a photo: %s", res.Body)
	}
	form(app, files, "", part{"invoice", "rechnung.pdf", []byte("plain text invoice")}).Expect(http.StatusUnsupportedMediaType)
	form(app, "/api/v1/work-orders/"+"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"+"/files", "", part{"photos", "job.png", pngBytes}).
		Expect(http.StatusNotFound)
	var view struct {
		Photos []string `json:"photos"`
	}
	form(app, files, "", part{"photos", "vorher.png", pngBytes}, part{"photos", "nachher.png", pngBytes},
		part{"invoice", "rechnung.pdf", pdfBytes}).Expect(http.StatusCreated).JSON(&view)
	if len(view.Photos) != 2 {
		t.Fatalf("the provider's photos: %v", view.Photos)
	}
	app.Post("/api/v1/work-orders/"+token+"/done", "", map[string]any{"note": "Ventil getauscht.", "invoice_amount": 89.25}).Expect(http.StatusOK)
	form(app, files, "", part{"photos", "später.png", pngBytes}).Expect(http.StatusConflict)
	bills := l.bills(t, app)
	if len(bills) != 1 || bills[0].DocumentID == nil {
		t.Fatalf("the bill has no voucher: %+v", bills)
	}
	var doc struct {
		Category    string `json:"category"`
		ContentType string `json:"content_type"`
	}
	app.Get("/api/v1/properties/"+l.property+"/documents/"+*bills[0].DocumentID, l.landlord.Token).Expect(http.StatusOK).JSON(&doc)
	if doc.Category != "invoice" || doc.ContentType != "application/pdf" {
		t.Errorf("the voucher: %+v", doc)
	}
}

// A photo above modules.documents.maxsize is a 413 and nothing is kept.
func TestRepairPhotoTooLarge(t *testing.T) {
	t.Parallel()
	app := start(t, testkit.WithConfig("modules.documents.maxsize", 2048))
	l := newLease(t, app, "de", "auftrag@klempner.example")
	var r request
	app.Post(l.tenantPath(), l.tenant.Token, map[string]any{"title": "Fenster", "description": "Es zieht.",
		"category": "windows_doors", "urgency": "normal"}).Expect(http.StatusCreated).JSON(&r)
	docs := count(t, app, "documents")
	big := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 2100)...)
	form(app, l.tenantPath()+"/"+r.ID+"/photos", l.tenant.Token, part{"photos", "a.png", pngBytes}, part{"photos", "big.png", big}).
		Expect(http.StatusRequestEntityTooLarge)
	if n := count(t, app, "documents"); n != docs {
		t.Errorf("%d documents kept", n-docs)
	}
}
