package documents_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// The stored name's extension says what the bytes are: a PDF uploaded as
// poly.html is stored, listed and downloaded as poly.pdf with
// application/pdf, always as an attachment.
func TestStoredNameAgreesWithTheBytes(t *testing.T) {
	f := start(t, "file")
	tests := []struct {
		name, given, stored, ctype string
		content                    []byte
	}{
		{"PDF named .html", "poly.html", "poly.pdf", "application/pdf", pdfFile()},
		{"PNG named .pdf", "x.pdf", "x.png", "image/png", pngFile()},
		{"PDF named .pdf", "lease.pdf", "lease.pdf", "application/pdf", pdfFile()},
		{"upper-case extension kept", "SCAN.PDF", "SCAN.PDF", "application/pdf", pdfFile()},
		{"jpeg alias kept", "photo.Jpeg", "photo.Jpeg", "image/jpeg", jpegFile()},
		{"jpg kept", "photo.jpg", "photo.jpg", "image/jpeg", jpegFile()},
		{"no extension", "Kaufvertrag", "Kaufvertrag.pdf", "application/pdf", pdfFile()},
		{"a dot that is no extension", "Mr. Smith", "Mr. Smith.pdf", "application/pdf", pdfFile()},
		{"a version is no extension", "contract v1.2", "contract v1.2.pdf", "application/pdf", pdfFile()},
		{"a right extension under a wrong one", "invoice.pdf.exe", "invoice.pdf", "application/pdf", pdfFile()},
		{"text as .csv kept", "readings.csv", "readings.csv", "text/plain; charset=utf-8", []byte("read_on,value\n2026-11-01,12.5\n")},
		{"text named .svg", "plan.svg", "plan.txt", "text/plain; charset=utf-8", textFile()},
		{"text named .js", "run.js", "run.txt", "text/plain; charset=utf-8", textFile()},
		{"WebP named .html", "img.htm", "img.webp", "image/webp", webpFile()},
		{"DOCX named .xlsx", "a.xlsx", "a.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", docxFile()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := f.uploadOK(t, tt.given, tt.content, "other")
			if d.Filename != tt.stored || d.ContentType != tt.ctype {
				t.Fatalf("stored %q as %q, want %q as %q", tt.given, d.Filename, tt.stored, tt.ctype)
			}
			var got document
			f.app.Get(f.documents()+"/"+d.ID, f.user.Token).Expect(http.StatusOK).JSON(&got)
			if got.Filename != tt.stored {
				t.Errorf("GET: filename %q, want %q", got.Filename, tt.stored)
			}
			checkDownload(t, f, d.ID, tt.stored, tt.ctype)
		})
	}
	var list struct {
		Documents []document `json:"documents"`
	}
	f.app.Get(f.documents()+"?per_page=100", f.user.Token).Expect(http.StatusOK).JSON(&list)
	if len(list.Documents) != len(tests) {
		t.Fatalf("listed %d documents, want %d", len(list.Documents), len(tests))
	}
	for i, d := range list.Documents {
		if d.Filename != tests[i].stored {
			t.Errorf("listed %q, want %q", d.Filename, tests[i].stored)
		}
	}
}

// Rows stored before the rule keep their stored filename but are listed
// and downloaded under the agreeing one.
func TestOlderRowsAreServedWithTheAgreeingName(t *testing.T) {
	f := start(t, "file")
	d := f.uploadOK(t, "poly.pdf", pdfFile(), "other")
	if _, err := f.app.DB.NewUpdate().Table("documents").Set("filename = ?", "poly.html").
		Where("id = ?", d.ID).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	var got document
	f.app.Get(f.documents()+"/"+d.ID, f.user.Token).Expect(http.StatusOK).JSON(&got)
	if got.Filename != "poly.pdf" {
		t.Errorf("GET: filename %q, want poly.pdf", got.Filename)
	}
	checkDownload(t, f, d.ID, "poly.pdf", "application/pdf")
}

// checkDownload downloads the document and checks that it is an
// attachment named name, of type ctype.
func checkDownload(t *testing.T, f *fixture, id, name, ctype string) {
	t.Helper()
	res := f.app.Get(f.documents()+"/"+id+"/content", f.user.Token).Expect(http.StatusOK)
	if got := res.Header.Get("Content-Type"); got != ctype {
		t.Errorf("download: Content-Type %q, want %q", got, ctype)
	}
	cd := res.Header.Get("Content-Disposition")
	want := `attachment; filename="` + name + `"; filename*=UTF-8''` + strings.ReplaceAll(name, " ", "%20")
	if cd != want {
		t.Errorf("download: Content-Disposition %q, want %q", cd, want)
	}
	if res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Error("download: no X-Content-Type-Options: nosniff")
	}
}
