package documents_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Every allowed type is accepted whatever name and type the client gives,
// stored with its sniffed type, and downloaded byte for byte.
func TestUploadEveryAllowedType(t *testing.T) {
	for _, kind := range storageKinds(t) {
		t.Run(kind, func(t *testing.T) {
			f := start(t, kind)
			tests := []struct {
				name, filename, want, stored string
				content                      []byte
			}{
				{"PDF", "lease.pdf", "application/pdf", "lease.pdf", pdfFile()},
				{"PNG", "photo.jpg", "image/png", "photo.png", pngFile()},
				{"JPEG", "photo", "image/jpeg", "photo.jpg", jpegFile()},
				{"WebP", "photo.webp", "image/webp", "photo.webp", webpFile()},
				{"plain text", "notes.exe", "text/plain; charset=utf-8", "notes.txt", textFile()},
				{"DOCX", "contract.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "contract.docx", docxFile()},
				{"XLSX", "costs.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "costs.xlsx", xlsxFile()},
				{"ODT", "letter.odt", "application/vnd.oasis.opendocument.text", "letter.odt", odtFile()},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					d := f.uploadOK(t, tt.filename, tt.content, "other")
					if d.ContentType != tt.want || d.Size != int64(len(tt.content)) || d.SHA256 != sum(tt.content) ||
						d.Filename != tt.stored || d.PropertyID != f.property || d.UploadedBy != f.user.ID || d.ContractID != nil {
						t.Fatalf("stored %+v, want type %s, size %d", d, tt.want, len(tt.content))
					}
					res := f.app.Get(f.documents()+"/"+d.ID+"/content", f.user.Token).Expect(http.StatusOK)
					if !bytes.Equal(res.Body, tt.content) {
						t.Errorf("downloaded %d bytes differ from the %d uploaded: %.200q", len(res.Body), len(tt.content), res.Body)
					}
					if ct := res.Header.Get("Content-Type"); ct != tt.want {
						t.Errorf("Content-Type %q, want %q", ct, tt.want)
					}
					if cd := res.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment;") || !strings.Contains(cd, `"`+tt.stored+`"`) {
						t.Errorf("Content-Disposition %q", cd)
					}
					if et := res.Header.Get("ETag"); et != `"`+d.SHA256+`"` {
						t.Errorf("ETag %q, want the quoted SHA-256", et)
					}
					if res.Header.Get("X-Content-Type-Options") != "nosniff" {
						t.Error("no X-Content-Type-Options: nosniff")
					}
				})
			}
			if n := f.rows(t); n != len(tests) {
				t.Errorf("%d rows, want %d", n, len(tests))
			}
			f.settled(t, len(tests))
		})
	}
}

// Refused types give 415 unsupported_type, whatever the name and declared
// type, and leave no row and no blob.
func TestUploadRefusesOtherTypes(t *testing.T) {
	for _, kind := range storageKinds(t) {
		t.Run(kind, func(t *testing.T) {
			f := start(t, kind)
			tests := []struct {
				name, filename, declared string
				content                  []byte
			}{
				{"Windows executable renamed .pdf", "invoice.pdf", "application/pdf", exeFile()},
				{"Linux executable renamed .txt", "notes.txt", "text/plain", elfFile()},
				{"SVG", "plan.svg", "image/svg+xml", svgFile()},
				{"SVG renamed .png", "plan.png", "image/png", svgFile()},
				{"HTML", "page.html", "text/html", htmlFile()},
				{"HTML renamed .txt", "page.txt", "text/plain", htmlFile()},
				{"plain zip", "archive.docx", "application/zip", zipFile([2]string{"a.txt", "x"})},
				{"GIF", "anim.png", "image/png", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;")},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					fl := file(tt.filename, tt.content)
					fl.contentType = tt.declared
					res := f.upload(t, text("title", "x"), text("category", "other"), fl)
					if res.Status != http.StatusUnsupportedMediaType || res.Map(t)["error"] != "unsupported_type" {
						t.Fatalf("%d %s, want 415 unsupported_type", res.Status, res.Body)
					}
				})
			}
			if n := f.rows(t); n != 0 {
				t.Errorf("%d rows after refused uploads", n)
			}
			f.settled(t, 0)
		})
	}
}

// The file may be exactly modules.documents.maxsize (20 MiB) bytes; one
// more is 413 JSON, which the client reads although it is still sending.
func TestUploadSizeLimit(t *testing.T) {
	const limit = 20 << 20
	for _, kind := range storageKinds(t) {
		t.Run(kind, func(t *testing.T) {
			f := start(t, kind)
			d := f.uploadOK(t, "exact.txt", sized(limit), "other")
			if d.Size != limit {
				t.Fatalf("size %d, want %d", d.Size, limit)
			}
			res := f.upload(t, text("title", "x"), text("category", "other"), file("over.txt", sized(limit+1)))
			if res.Status != http.StatusRequestEntityTooLarge || res.Map(t)["error"] != "payload_too_large" {
				t.Fatalf("limit+1: %d %s, want 413 payload_too_large", res.Status, res.Body)
			}
			// A client that announces a body far over the limit and keeps
			// sending reads the 413 too.
			status, body := rawUpload(t, f, 40<<20, -1)
			if status != http.StatusRequestEntityTooLarge || !strings.Contains(string(body), "payload_too_large") {
				t.Fatalf("announced 40 MiB: %d %s", status, body)
			}
			// And a chunked one that does not announce its length.
			status, body = rawUpload(t, f, limit+1024, 0)
			if status != http.StatusRequestEntityTooLarge || !strings.Contains(string(body), "payload_too_large") {
				t.Fatalf("chunked over the limit: %d %s", status, body)
			}
			if n := f.rows(t); n != 1 {
				t.Errorf("%d rows, want only the exact-limit one", n)
			}
			f.settled(t, 1)
			f.app.Get(f.documents()+"/"+d.ID, f.user.Token).Expect(http.StatusOK)
		})
	}
}

// Every other route keeps http.bodylimit (1 MiB), whether the body's
// length is announced or chunked.
func TestOtherRoutesKeepTheBodyLimit(t *testing.T) {
	f := start(t, "file")
	d := f.uploadOK(t, "a.txt", textFile(), "other")
	big := `{"name":"` + strings.Repeat("a", 2<<20) + `","country_code":"DE"}`
	for _, path := range []string{"/api/v1/properties", f.documents() + "/" + d.ID} {
		method := http.MethodPost
		if strings.Contains(path, d.ID) {
			method = http.MethodPut
		}
		res := rawRequest(t, f, method, path, []byte(big), false)
		if res.Status != http.StatusRequestEntityTooLarge || res.Map(t)["error"] != "payload_too_large" {
			t.Errorf("%s %s with 2 MiB: %d %.200s, want 413", method, path, res.Status, res.Body)
		}
		res = rawRequest(t, f, method, path, []byte(big), true)
		if res.Status != http.StatusRequestEntityTooLarge || res.Map(t)["error"] != "payload_too_large" {
			t.Errorf("%s %s with 2 MiB chunked: %d %.200s, want 413", method, path, res.Status, res.Body)
		}
	}
	// Just under the limit, chunked, still works.
	ok := `{"title":"` + strings.Repeat("t", 200) + `","category":"photo","pad":"` + strings.Repeat("p", 1<<20-300) + `"}`
	res := f.send(t, http.MethodPut, f.documents()+"/"+d.ID, f.user.Token, "application/json", io.MultiReader(strings.NewReader(ok)))
	if res.Status != http.StatusOK {
		t.Errorf("chunked body under 1 MiB: %d %.200s", res.Status, res.Body)
	}
}

func TestUploadListGetUpdateDelete(t *testing.T) {
	for _, kind := range storageKinds(t) {
		t.Run(kind, func(t *testing.T) {
			f := start(t, kind)
			contract := f.newContract(t, "L-1")
			// Fields may come after the file.
			res := f.upload(t, file("lease.pdf", pdfFile()), text("title", "  Lease 2026  "), text("category", "contract"),
				text("contract_id", contract), text("comment", "ignored"))
			if res.Status != http.StatusCreated {
				t.Fatalf("upload: %d %s", res.Status, res.Body)
			}
			var lease document
			_ = json.Unmarshal(res.Body, &lease)
			if lease.Title != "Lease 2026" || lease.Category != "contract" || lease.ContractID == nil || *lease.ContractID != contract {
				t.Fatalf("stored %+v", lease)
			}
			photo := f.uploadOK(t, "kitchen.png", pngFile(), "photo")
			f.uploadOK(t, "bill.pdf", pdfFile(), "invoice")

			list := func(query string) (ids []string, total int) {
				var l struct {
					Documents []document `json:"documents"`
					Total     int        `json:"total"`
				}
				f.app.Get(f.documents()+query, f.user.Token).Expect(http.StatusOK).JSON(&l)
				for _, d := range l.Documents {
					ids = append(ids, d.ID)
				}
				return ids, l.Total
			}
			if ids, total := list(""); total != 3 || ids[0] != lease.ID || ids[1] != photo.ID {
				t.Errorf("all: %v (%d)", ids, total)
			}
			if ids, total := list("?category=photo"); total != 1 || ids[0] != photo.ID {
				t.Errorf("photos: %v (%d)", ids, total)
			}
			if ids, total := list("?contract_id=" + contract); total != 1 || ids[0] != lease.ID {
				t.Errorf("contract: %v (%d)", ids, total)
			}
			if ids, total := list("?per_page=2&page=2"); total != 3 || len(ids) != 1 {
				t.Errorf("page 2: %v (%d)", ids, total)
			}
			for _, q := range []string{"?category=lease", "?contract_id=nope", "?per_page=500"} {
				f.app.Get(f.documents()+q, f.user.Token).Expect(http.StatusBadRequest)
			}

			var got document
			f.app.Get(f.documents()+"/"+photo.ID, f.user.Token).Expect(http.StatusOK).JSON(&got)
			if got != photo {
				t.Errorf("get %+v, want %+v", got, photo)
			}
			f.app.Clock.Advance(3600e9)
			var upd document
			f.app.Put(f.documents()+"/"+photo.ID, f.user.Token, map[string]any{"title": "Kitchen after repair", "category": "other"}).
				Expect(http.StatusOK).JSON(&upd)
			if upd.Title != "Kitchen after repair" || upd.Category != "other" || upd.UpdatedAt == photo.UpdatedAt || upd.SHA256 != photo.SHA256 {
				t.Errorf("updated %+v", upd)
			}
			for _, bad := range []map[string]any{{"title": "x"}, {"category": "other"}, {"title": "", "category": "other"},
				{"title": strings.Repeat("x", 201), "category": "other"}, {"title": "x", "category": "lease"}} {
				f.app.Put(f.documents()+"/"+photo.ID, f.user.Token, bad).Expect(http.StatusBadRequest)
			}

			f.app.Delete(f.documents()+"/"+photo.ID, f.user.Token).Expect(http.StatusNoContent)
			f.app.Get(f.documents()+"/"+photo.ID, f.user.Token).Expect(http.StatusNotFound)
			f.app.Get(f.documents()+"/"+photo.ID+"/content", f.user.Token).Expect(http.StatusNotFound)
			f.app.Delete(f.documents()+"/"+photo.ID, f.user.Token).Expect(http.StatusNotFound)
			if n := f.rows(t); n != 2 {
				t.Errorf("%d rows, want 2", n)
			}
			keys := f.settled(t, 2)
			for _, k := range keys {
				if strings.HasSuffix(k, photo.ID) {
					t.Errorf("the deleted document's blob is still stored: %v", keys)
				}
			}
		})
	}
}

func TestUploadValidation(t *testing.T) {
	f := start(t, "file")
	tests := []struct {
		name   string
		fields []field
		want   string
	}{
		{"no file", []field{text("title", "x"), text("category", "other")}, "file: is required"},
		{"no title", []field{text("category", "other"), file("a.txt", textFile())}, "title: is required"},
		{"no category", []field{text("title", "x"), file("a.txt", textFile())}, "category: is required"},
		{"bad category before the file", []field{text("title", "x"), text("category", "lease"), file("a.txt", textFile())}, "category: must be one of"},
		{"bad category after the file", []field{text("title", "x"), file("a.txt", textFile()), text("category", "lease")}, "category: must be one of"},
		{"empty title", []field{text("title", "  "), text("category", "other"), file("a.txt", textFile())}, "title: must be 1 to 200"},
		{"long title", []field{text("title", strings.Repeat("é", 201)), text("category", "other"), file("a.txt", textFile())}, "title: must be 1 to 200"},
		{"bad contract", []field{text("title", "x"), text("category", "other"), text("contract_id", "42"), file("a.txt", textFile())}, "contract_id: must be a UUID"},
		{"unknown contract", []field{text("title", "x"), text("category", "other"), text("contract_id", "019a0000-0000-7000-8000-00000000c0de"), file("a.txt", textFile())}, "contract_id: must be a contract of this property"},
		{"two files", []field{text("title", "x"), text("category", "other"), file("a.txt", textFile()), file("b.txt", textFile())}, "only one file"},
		{"empty file", []field{text("title", "x"), text("category", "other"), file("a.txt", nil)}, "file: must not be empty"},
		{"title twice", []field{text("title", "x"), text("title", "y"), text("category", "other"), file("a.txt", textFile())}, "given twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.upload(t, tt.fields...)
			if res.Status != http.StatusBadRequest || !strings.Contains(string(res.Body), tt.want) {
				t.Fatalf("%d %s, want 400 with %q", res.Status, res.Body, tt.want)
			}
		})
	}
	res := f.send(t, http.MethodPost, f.documents(), f.user.Token, "application/json", strings.NewReader(`{"title":"x"}`))
	if res.Status != http.StatusUnsupportedMediaType || res.Map(t)["error"] != "unsupported_media_type" {
		t.Errorf("JSON upload: %d %s, want 415 unsupported_media_type", res.Status, res.Body)
	}
	res = f.send(t, http.MethodPost, f.documents(), f.user.Token, "multipart/form-data; boundary=xyz", strings.NewReader("--xyz\r\ngarbage"))
	if res.Status != http.StatusBadRequest {
		t.Errorf("malformed form: %d %s, want 400", res.Status, res.Body)
	}
	if n := f.rows(t); n != 0 {
		t.Errorf("%d rows after refused uploads", n)
	}
	f.settled(t, 0)
}

func TestFilenamesAreSanitized(t *testing.T) {
	f := start(t, "file")
	tests := []struct{ given, want string }{
		{"../../etc/passwd", "passwd.txt"},
		{`C:\Users\anna\Desktop\lease.txt`, "lease.txt"},
		{"*bad\x00name\x07.txt", "badname.txt"},
		{"*invoice\u202etxt.exe", "invoicetxt.txt"},
		{"*line\r\nbreak.txt", "linebreak.txt"},
		{"*../secret\x1b[31m.txt", "secret[31m.txt"},
		{"...", "document.txt"},
		{"Übergabeprotokoll März.txt", "Übergabeprotokoll März.txt"},
		{strings.Repeat("ж", 300) + ".pdf", strings.Repeat("ж", 125) + ".txt"},
		{strings.Repeat("ж", 300), strings.Repeat("ж", 125) + ".txt"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			d := f.uploadOK(t, tt.given, textFile(), "other")
			if d.Filename != tt.want {
				t.Fatalf("filename %q, want %q", d.Filename, tt.want)
			}
			res := f.app.Get(f.documents()+"/"+d.ID+"/content", f.user.Token).Expect(http.StatusOK)
			cd := res.Header.Get("Content-Disposition")
			if strings.ContainsAny(cd, "\r\n\x00") || !strings.HasPrefix(cd, `attachment; filename="`) || !strings.Contains(cd, "filename*=UTF-8''") {
				t.Errorf("Content-Disposition %q", cd)
			}
		})
	}
}

func TestRangeRequests(t *testing.T) {
	for _, kind := range storageKinds(t) {
		t.Run(kind, func(t *testing.T) {
			f := start(t, kind)
			content := sized(100_000)
			d := f.uploadOK(t, "big.txt", content, "other")
			path := f.documents() + "/" + d.ID + "/content"
			etag := `"` + d.SHA256 + `"`
			get := func(headers map[string]string) *testkit.Response {
				return f.app.Do(testkit.Request{Method: http.MethodGet, Path: path, Token: f.user.Token, Headers: headers})
			}
			tests := []struct {
				rng                string
				status             int
				from, to           int
				contentRange, more string
			}{
				{"bytes=0-9", 206, 0, 9, "bytes 0-9/100000", ""},
				{"bytes=99990-", 206, 99990, 99999, "bytes 99990-99999/100000", ""},
				{"bytes=-5", 206, 99995, 99999, "bytes 99995-99999/100000", ""},
				{"bytes=50000-50000", 206, 50000, 50000, "bytes 50000-50000/100000", ""},
				{"bytes=99000-200000", 206, 99000, 99999, "bytes 99000-99999/100000", ""},
				{"bytes=0-1,5-6", 200, 0, 99999, "", "several ranges: the whole"},
				{"items=0-1", 200, 0, 99999, "", "another unit: the whole"},
				{"bytes=100000-", 416, 0, 0, "bytes */100000", ""},
				{"bytes=-0", 416, 0, 0, "bytes */100000", ""},
			}
			for _, tt := range tests {
				t.Run(tt.rng, func(t *testing.T) {
					res := get(map[string]string{"Range": tt.rng}).Expect(tt.status)
					if cr := res.Header.Get("Content-Range"); cr != tt.contentRange {
						t.Errorf("Content-Range %q, want %q", cr, tt.contentRange)
					}
					if tt.status == 416 {
						if res.Map()["error"] != "range_not_satisfiable" {
							t.Errorf("416 body %s", res.Body)
						}
						return
					}
					if !bytes.Equal(res.Body, content[tt.from:tt.to+1]) {
						t.Errorf("got %d bytes, not bytes %d-%d", len(res.Body), tt.from, tt.to)
					}
					if res.Header.Get("ETag") != etag || res.Header.Get("Accept-Ranges") != "bytes" {
						t.Errorf("ETag %q Accept-Ranges %q", res.Header.Get("ETag"), res.Header.Get("Accept-Ranges"))
					}
				})
			}
			get(map[string]string{"If-None-Match": etag}).Expect(http.StatusNotModified)
			get(map[string]string{"If-None-Match": `"other"`}).Expect(http.StatusOK)
			if res := get(map[string]string{"Range": "bytes=0-9", "If-Range": etag}).Expect(http.StatusPartialContent); len(res.Body) != 10 {
				t.Errorf("If-Range matching: %d bytes", len(res.Body))
			}
			if res := get(map[string]string{"Range": "bytes=0-9", "If-Range": `"stale"`}).Expect(http.StatusOK); len(res.Body) != len(content) {
				t.Errorf("If-Range stale: %d bytes, want the whole", len(res.Body))
			}
		})
	}
}

// Concurrent uploads each get their row and their blob, with the right
// bytes.
func TestConcurrentUploads(t *testing.T) {
	for _, kind := range storageKinds(t) {
		t.Run(kind, func(t *testing.T) {
			f := start(t, kind)
			const n = 12
			var wg sync.WaitGroup
			docs := make([]document, n)
			contents := make([][]byte, n)
			for i := range n {
				contents[i] = []byte(fmt.Sprintf("document %d\n%s", i, sized(200_000+i*1000)))
				wg.Add(1)
				go func() {
					defer wg.Done()
					docs[i] = f.uploadOK(t, fmt.Sprintf("doc-%d.txt", i), contents[i], "other")
				}()
			}
			wg.Wait()
			if t.Failed() {
				return
			}
			for i, d := range docs {
				if d.SHA256 != sum(contents[i]) {
					t.Errorf("document %d: sha %s, want %s", i, d.SHA256, sum(contents[i]))
				}
				res := f.app.Get(f.documents()+"/"+d.ID+"/content", f.user.Token).Expect(http.StatusOK)
				if !bytes.Equal(res.Body, contents[i]) {
					t.Errorf("document %d: downloaded bytes differ", i)
				}
			}
			if got := f.rows(t); got != n {
				t.Errorf("%d rows, want %d", got, n)
			}
			f.settled(t, n)
		})
	}
}
