package documents_test

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/testkit/requires"
)

func init() {
	// The validator reads the bodies of /content answers as binary strings.
	for _, ct := range []string{"application/pdf", "image/png", "image/jpeg", "image/webp",
		"application/vnd.openxmlformats-officedocument.wordprocessingml.document",
		"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
		"application/vnd.oasis.opendocument.text"} {
		openapi3filter.RegisterBodyDecoder(ct, func(body io.Reader, _ http.Header, _ *openapi3.SchemaRef,
			_ openapi3filter.EncodingFn) (any, error) {
			b, err := io.ReadAll(body)
			return string(b), err
		})
	}
}

// storageKinds are the storages every storage-dependent test runs on. The
// S3 one needs versitygw (startS3 skips it outside CI when missing).
func storageKinds(*testing.T) []string { return []string{"file", "s3"} }

const (
	s3Access = "propmantestkey"
	s3Secret = "propman-test-secret-0123456789"
)

// s3Server is one versitygw for the package's tests, each test with a
// bucket of its own.
var s3Server struct {
	once     sync.Once
	endpoint string
	cmd      *exec.Cmd
	err      error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if s3Server.cmd != nil && s3Server.cmd.Process != nil {
		_ = s3Server.cmd.Process.Kill()
		_ = s3Server.cmd.Wait()
	}
	os.Exit(code)
}

func freePort(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startS3 starts versitygw (once) and returns its endpoint.
func startS3(t testing.TB) string {
	t.Helper()
	bin := requires.Program(t, "versitygw", "go install github.com/versity/versitygw/cmd/versitygw@v1.8.0")
	s3Server.once.Do(func() {
		dir, err := os.MkdirTemp("", "propman-versitygw-")
		if err != nil {
			s3Server.err = err
			return
		}
		addr := freePort(t)
		cmd := exec.Command(bin, "--access", s3Access, "--secret", s3Secret, "--port", addr, "--quiet", "posix", dir)
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Start(); err != nil {
			s3Server.err = err
			return
		}
		s3Server.cmd = cmd
		for i := 0; i < 100; i++ {
			if c, err := net.Dial("tcp", addr); err == nil {
				c.Close()
				s3Server.endpoint = addr
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		s3Server.err = errors.New("versitygw did not start listening")
	})
	if s3Server.err != nil {
		t.Fatalf("versitygw: %v", s3Server.err)
	}
	return s3Server.endpoint
}

func s3Client(t testing.TB, endpoint string) *minio.Client {
	c, err := minio.New(endpoint, &minio.Options{Creds: credentials.NewStaticV4(s3Access, s3Secret, ""), Secure: false})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// storageOptions configures a fresh storage of the kind and returns a way
// to list its keys.
func storageOptions(t testing.TB, kind string) ([]testkit.Option, func() []string) {
	t.Helper()
	switch kind {
	case "file":
		dir := filepath.Join(t.TempDir(), "documents")
		return []testkit.Option{testkit.WithConfig("modules.documents.storage", "file:"+dir)}, func() []string {
			entries, err := os.ReadDir(dir)
			if errors.Is(err, os.ErrNotExist) {
				return nil
			}
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, e := range entries {
				if e.Name() == ".tmp" {
					tmp, _ := os.ReadDir(filepath.Join(dir, ".tmp"))
					for _, x := range tmp {
						keys = append(keys, ".tmp/"+x.Name())
					}
					continue
				}
				keys = append(keys, e.Name())
			}
			sort.Strings(keys)
			return keys
		}
	case "s3":
		endpoint := startS3(t)
		client := s3Client(t, endpoint)
		b := make([]byte, 6)
		_, _ = rand.Read(b)
		bucket := "propman-" + hex.EncodeToString(b)
		if err := client.MakeBucket(context.Background(), bucket, minio.MakeBucketOptions{}); err != nil {
			t.Fatalf("make bucket: %v", err)
		}
		return []testkit.Option{
				testkit.WithConfig("modules.documents.storage", "s3://"+bucket+"?endpoint="+endpoint+"&secure=false"),
				testkit.WithConfig("modules.documents.accesskey", s3Access),
				testkit.WithConfig("modules.documents.secretkey", s3Secret),
			}, func() []string {
				var keys []string
				for o := range client.ListObjects(context.Background(), bucket, minio.ListObjectsOptions{Recursive: true}) {
					if o.Err != nil {
						t.Fatal(o.Err)
					}
					keys = append(keys, o.Key)
				}
				for u := range client.ListIncompleteUploads(context.Background(), bucket, "", true) {
					if u.Err == nil {
						keys = append(keys, "incomplete/"+u.Key)
					}
				}
				sort.Strings(keys)
				return keys
			}
	}
	t.Fatalf("unknown storage %q", kind)
	return nil, nil
}

// fixture is a running app on a real socket with a user who owns one
// property.
type fixture struct {
	app      *testkit.App
	user     accountstest.User
	property string
	kind     string
	blobs    func() []string
}

// newContract adds a draft contract (and its tenant) of the fixture's
// property and returns its id.
func (f *fixture) newContract(t testing.TB, number string) string {
	t.Helper()
	var tenant, c struct {
		ID string `json:"id"`
	}
	f.app.Post("/api/v1/contragents", f.user.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Tenant"}).
		Expect(http.StatusCreated).JSON(&tenant)
	f.app.Post("/api/v1/contracts", f.user.Token, map[string]any{"property_id": f.property, "tenant_id": tenant.ID, "number": number}).
		Expect(http.StatusCreated).JSON(&c)
	return c.ID
}

func start(t testing.TB, kind string, opts ...testkit.Option) *fixture {
	t.Helper()
	sopts, blobs := storageOptions(t, kind)
	opts = append(append([]testkit.Option{testkit.WithListener(), testkit.WithConfig("ratelimit.enabled", false)}, sopts...), opts...)
	app := testkit.Start(t, opts...)
	u := accountstest.NewUser(t, app)
	return &fixture{app: app, user: u, property: newProperty(t, app, u.Token), kind: kind, blobs: blobs}
}

func newProperty(t testing.TB, app *testkit.App, token string) string {
	t.Helper()
	var p struct {
		ID string `json:"id"`
	}
	app.Post("/api/v1/properties", token, map[string]any{"name": "Flat", "country_code": "DE"}).Expect(http.StatusCreated).JSON(&p)
	return p.ID
}

func (f *fixture) documents() string { return "/api/v1/properties/" + f.property + "/documents" }

type document struct {
	ID          string  `json:"id"`
	PropertyID  string  `json:"property_id"`
	ContractID  *string `json:"contract_id"`
	Title       string  `json:"title"`
	Category    string  `json:"category"`
	Filename    string  `json:"filename"`
	ContentType string  `json:"content_type"`
	Size        int64   `json:"size"`
	SHA256      string  `json:"sha256"`
	UploadedBy  int64   `json:"uploaded_by"`
	CreatedAt   string  `json:"created_at"`
	UpdatedAt   string  `json:"updated_at"`
}

// field is one part of an upload form.
type field struct {
	name, filename, contentType string
	value                       []byte
}

func text(name, value string) field { return field{name: name, value: []byte(value)} }

func file(filename string, content []byte) field {
	return field{name: "file", filename: filename, contentType: "application/octet-stream", value: content}
}

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"")

// form encodes fields as multipart/form-data.
func form(fields ...field) (body []byte, contentType string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, f := range fields {
		h := textproto.MIMEHeader{}
		if strings.HasPrefix(f.filename, "*") {
			// RFC 2231: how a client sends characters a quoted string cannot hold.
			h.Set("Content-Disposition", `form-data; name="`+f.name+`"; filename*=UTF-8''`+
				strings.ReplaceAll(url.QueryEscape(f.filename[1:]), "+", "%20"))
			h.Set("Content-Type", f.contentType)
		} else if f.filename != "" || f.name == "file" {
			h.Set("Content-Disposition", `form-data; name="`+f.name+`"; filename="`+quoteEscaper.Replace(f.filename)+`"`)
			h.Set("Content-Type", f.contentType)
		} else {
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q`, f.name))
		}
		p, _ := w.CreatePart(h)
		_, _ = p.Write(f.value)
	}
	_ = w.Close()
	return buf.Bytes(), w.FormDataContentType()
}

// response is an answer to a request sent outside testkit.Do, checked
// against doc.json all the same.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

func (r response) Map(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, r.Body)
	}
	return m
}

// send sends a raw body to method path over the app's socket and checks
// the answer against doc.json.
func (f *fixture) send(t testing.TB, method, path, token, contentType string, body io.Reader) response {
	t.Helper()
	req, err := http.NewRequest(method, f.app.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := response{Status: res.StatusCode, Header: res.Header, Body: out}
	f.check(t, method, path, r)
	return r
}

func (f *fixture) check(t testing.TB, method, path string, r response) {
	t.Helper()
	tr := &testkit.Response{Status: r.Status, Header: r.Header, Body: r.Body}
	if err := f.app.Check(testkit.Request{Method: method, Path: path}, nil, tr); err != nil {
		t.Errorf("%s %s answered %d, which doc.json does not allow: %v\nbody: %.500s", method, path, r.Status, err, r.Body)
	}
}

// upload posts the form to the property's documents.
func (f *fixture) upload(t testing.TB, fields ...field) response {
	t.Helper()
	body, ct := form(fields...)
	return f.send(t, http.MethodPost, f.documents(), f.user.Token, ct, bytes.NewReader(body))
}

// uploadOK uploads content as a document and returns it.
func (f *fixture) uploadOK(t testing.TB, filename string, content []byte, category string) document {
	t.Helper()
	res := f.upload(t, text("title", "Doc"), text("category", category), file(filename, content))
	if res.Status != http.StatusCreated {
		t.Fatalf("upload %s: %d %s", filename, res.Status, res.Body)
	}
	var d document
	if err := json.Unmarshal(res.Body, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// rows counts the rows of documents.
func (f *fixture) rows(t testing.TB) int {
	t.Helper()
	n, err := f.app.DB.NewSelect().Table("documents").Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// settled waits until the storage holds want blobs (background removals
// finish after the answer) and fails if it does not.
func (f *fixture) settled(t testing.TB, want int) []string {
	t.Helper()
	var keys []string
	for i := 0; i < 100; i++ {
		if keys = f.blobs(); len(keys) == want {
			return keys
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("storage holds %d blobs %v, want %d", len(keys), keys, want)
	return nil
}

// Sample files of every allowed type.

func pdfFile() []byte {
	return []byte("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
}

func pngFile() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	img.Set(1, 1, color.RGBA{200, 10, 10, 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

func jpegFile() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	var b bytes.Buffer
	_ = jpeg.Encode(&b, img, nil)
	return b.Bytes()
}

// webpFile is a 1x1 lossless WebP.
func webpFile() []byte {
	b, _ := hex.DecodeString("524946461a000000574542505650384c0d0000002f0000001007101111888808")
	return b
}

func zipFile(entries ...[2]string) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, e := range entries {
		method := zip.Deflate
		if e[0] == "mimetype" {
			method = zip.Store
		}
		f, _ := w.CreateHeader(&zip.FileHeader{Name: e[0], Method: method})
		_, _ = io.WriteString(f, e[1])
	}
	_ = w.Close()
	return b.Bytes()
}

func docxFile() []byte {
	return zipFile([2]string{"[Content_Types].xml", `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`},
		[2]string{"_rels/.rels", `<?xml version="1.0"?><Relationships/>`},
		[2]string{"word/document.xml", `<?xml version="1.0"?><w:document/>`})
}

func xlsxFile() []byte {
	return zipFile([2]string{"[Content_Types].xml", `<?xml version="1.0"?><Types/>`},
		[2]string{"_rels/.rels", `<?xml version="1.0"?><Relationships/>`},
		[2]string{"xl/workbook.xml", `<?xml version="1.0"?><workbook/>`})
}

func odtFile() []byte {
	return zipFile([2]string{"mimetype", "application/vnd.oasis.opendocument.text"},
		[2]string{"content.xml", `<?xml version="1.0"?><office:document-content/>`})
}

func textFile() []byte { return []byte("Meter reading 2026-11-01: 12345 kWh.\nKeys handed over: 3.\n") }

// exeFile starts like a Windows executable.
func exeFile() []byte {
	b := make([]byte, 512)
	copy(b, "MZ")
	b[0x3c] = 0x80
	copy(b[0x80:], "PE\x00\x00")
	return b
}

// elfFile starts like a Linux executable.
func elfFile() []byte {
	b := make([]byte, 256)
	copy(b, "\x7fELF\x02\x01\x01\x00")
	b[16] = 2 // executable
	return b
}

func svgFile() []byte {
	return []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="4"/></svg>`)
}

func htmlFile() []byte {
	return []byte("<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>")
}

// sized is a text file of exactly n bytes.
func sized(n int) []byte {
	b := bytes.Repeat([]byte("propman documents 0123456789 abcdefghijklmnopqrstuvwxyz\n"), n/50+1)
	return b[:n]
}

// rawUpload sends an upload by hand on its own connection: a body of
// total bytes, with its length announced (chunked < 0... see below) while a
// goroutine writes, and returns the status and body of the answer the
// client reads. chunked == 0 sends it chunked; -1 announces the length.
func rawUpload(t testing.TB, f *fixture, total int, chunked int) (int, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(f.app.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	boundary := "propmanboundary"
	head := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nbig\r\n" +
		"--" + boundary + "\r\nContent-Disposition: form-data; name=\"category\"\r\n\r\nother\r\n" +
		"--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.txt\"\r\nContent-Type: text/plain\r\n\r\n"
	req := "POST " + f.documents() + " HTTP/1.1\r\nHost: propman\r\nAuthorization: Bearer " + f.user.Token +
		"\r\nContent-Type: multipart/form-data; boundary=" + boundary + "\r\n"
	if chunked == 0 {
		req += "Transfer-Encoding: chunked\r\n\r\n"
	} else {
		req += fmt.Sprintf("Content-Length: %d\r\n\r\n", total)
	}
	go func() {
		if _, err := io.WriteString(conn, req); err != nil {
			return
		}
		chunk := sized(64 << 10)
		sent := 0
		first := []byte(head)
		for sent < total {
			b := chunk
			if first != nil {
				b, first = first, nil
			}
			if total-sent < len(b) {
				b = b[:total-sent]
			}
			var err error
			if chunked == 0 {
				_, err = fmt.Fprintf(conn, "%x\r\n%s\r\n", len(b), b)
			} else {
				_, err = conn.Write(b)
			}
			if err != nil {
				return
			}
			sent += len(b)
		}
		if chunked == 0 {
			_, _ = io.WriteString(conn, "0\r\n\r\n")
		}
	}()
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	f.check(t, http.MethodPost, f.documents(), response{Status: res.StatusCode, Header: res.Header, Body: body})
	return res.StatusCode, body
}

// rawRequest sends a request by hand while a goroutine writes its body
// (chunked or with its length), and reads the answer as a client still
// sending would.
func rawRequest(t testing.TB, f *fixture, method, path string, body []byte, chunked bool) response {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(f.app.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req := method + " " + path + " HTTP/1.1\r\nHost: propman\r\nAuthorization: Bearer " + f.user.Token +
		"\r\nContent-Type: application/json\r\n"
	if chunked {
		req += "Transfer-Encoding: chunked\r\n\r\n"
	} else {
		req += fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body))
	}
	go func() {
		if _, err := io.WriteString(conn, req); err != nil {
			return
		}
		if !chunked {
			_, _ = conn.Write(body)
			return
		}
		for len(body) > 0 {
			n := min(len(body), 32<<10)
			if _, err := fmt.Fprintf(conn, "%x\r\n%s\r\n", n, body[:n]); err != nil {
				return
			}
			body = body[n:]
		}
		_, _ = io.WriteString(conn, "0\r\n\r\n")
	}()
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("%s %s: no answer: %v", method, path, err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	r := response{Status: res.StatusCode, Header: res.Header, Body: out}
	f.check(t, method, path, r)
	return r
}

type testkitOption = testkit.Option

func withConfig(key string, v any) testkit.Option { return testkit.WithConfig(key, v) }

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
