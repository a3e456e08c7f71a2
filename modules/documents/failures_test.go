package documents_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/testkit"
)

// failingStorage is a real storage that fails when told to: Put after
// failAfter bytes, Delete always.
type failingStorage struct {
	documents.Storage
	failPut    atomic.Bool
	failDelete atomic.Bool
}

const failAfter = 100_000

var errInjected = errors.New("injected storage failure")

func (s *failingStorage) Put(ctx context.Context, key string, r io.Reader, ct string) error {
	if s.failPut.Load() {
		r = &failAfterReader{r: r, left: failAfter}
	}
	return s.Storage.Put(ctx, key, r, ct)
}

type failAfterReader struct {
	r    io.Reader
	left int
}

func (f *failAfterReader) Read(p []byte) (int, error) {
	if f.left <= 0 {
		return 0, errInjected
	}
	if len(p) > f.left {
		p = p[:f.left]
	}
	n, err := f.r.Read(p)
	f.left -= n
	return n, err
}

func (s *failingStorage) Delete(ctx context.Context, key string) error {
	if s.failDelete.Load() {
		return errInjected
	}
	return s.Storage.Delete(ctx, key)
}

// withFailingStorage replaces the documents module by one whose storage
// can be made to fail.
func withFailingStorage(fs *failingStorage) testkit.Option {
	var entries []module.Entry
	for _, e := range modules.Catalog() {
		if e.Name == documents.Name {
			e = documents.EntryWithStorage(func(s documents.Storage) documents.Storage {
				fs.Storage = s
				return fs
			})
		}
		entries = append(entries, e)
	}
	return testkit.WithEntries(entries)
}

// A failed upload leaves no row and no blob: the storage failing mid-way
// (503), the database refusing the row (500), the client leaving half-way.
func TestFailedUploadsLeaveNothing(t *testing.T) {
	for _, kind := range storageKinds(t) {
		t.Run(kind, func(t *testing.T) {
			fs := &failingStorage{}
			f := start(t, kind, withFailingStorage(fs))
			kept := f.uploadOK(t, "kept.pdf", pdfFile(), "contract")
			content := sized(3 << 20)

			t.Run("storage fails mid-way", func(t *testing.T) {
				fs.failPut.Store(true)
				defer fs.failPut.Store(false)
				res := f.upload(t, text("title", "x"), text("category", "other"), file("a.txt", content))
				if res.Status != http.StatusServiceUnavailable || res.Map(t)["error"] != "unavailable" {
					t.Fatalf("%d %s, want 503 unavailable", res.Status, res.Body)
				}
				f.expectOnly(t, kept)
			})

			t.Run("database refuses the row", func(t *testing.T) {
				f.failInserts(t, true)
				res := f.upload(t, text("title", "x"), text("category", "other"), file("a.txt", content))
				f.failInserts(t, false)
				if res.Status != http.StatusInternalServerError {
					t.Fatalf("%d %s, want 500", res.Status, res.Body)
				}
				f.expectOnly(t, kept)
			})

			t.Run("client leaves half-way", func(t *testing.T) {
				body, ct := form(text("title", "x"), text("category", "other"), file("a.txt", content))
				conn, err := net.Dial("tcp", strings.TrimPrefix(f.app.URL, "http://"))
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: propman\r\nAuthorization: Bearer %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n",
					f.documents(), f.user.Token, ct, len(body))
				if _, err := conn.Write(body[:len(body)/2]); err != nil {
					t.Fatal(err)
				}
				time.Sleep(200 * time.Millisecond) // the server streams the first half to the storage
				conn.Close()
				f.expectOnly(t, kept)
			})

			t.Run("client leaves half-way, chunked", func(t *testing.T) {
				f.leaveChunked(t)
				f.expectOnly(t, kept)
			})

			// The server is fine afterwards.
			res := f.app.Get(f.documents()+"/"+kept.ID+"/content", f.user.Token).Expect(http.StatusOK)
			if !bytes.Equal(res.Body, pdfFile()) {
				t.Error("the kept document's bytes changed")
			}
		})
	}
}

// expectOnly waits for the storage to settle and checks that only kept
// has a row and a blob.
func (f *fixture) expectOnly(t *testing.T, kept document) {
	t.Helper()
	if n := f.rows(t); n != 1 {
		t.Errorf("%d rows, want only the kept document", n)
	}
	keys := f.settled(t, 1)
	if !strings.HasSuffix(keys[0], kept.ID) {
		t.Errorf("storage holds %v, want only %s", keys, kept.ID)
	}
}

// failInserts makes the database refuse (or accept again) new document rows.
func (f *fixture) failInserts(t *testing.T, on bool) {
	t.Helper()
	var stmts []string
	switch {
	case on && f.app.Engine == "postgres":
		stmts = []string{
			`CREATE FUNCTION documents_down() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'database down'; END $$ LANGUAGE plpgsql`,
			`CREATE TRIGGER documents_down BEFORE INSERT ON documents FOR EACH ROW EXECUTE FUNCTION documents_down()`,
		}
	case on:
		stmts = []string{`CREATE TRIGGER documents_down BEFORE INSERT ON documents BEGIN SELECT RAISE(ABORT, 'database down'); END`}
	case f.app.Engine == "postgres":
		stmts = []string{`DROP TRIGGER documents_down ON documents`, `DROP FUNCTION documents_down()`}
	default:
		stmts = []string{`DROP TRIGGER documents_down`}
	}
	for _, s := range stmts {
		if _, err := f.app.DB.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// A delete removes the row first; a blob the storage fails to remove is
// left to the sweep, which removes blobs without rows once they are older
// than modules.documents.sweepage, and nothing else.
func TestDeleteAndSweep(t *testing.T) {
	for _, kind := range storageKinds(t) {
		t.Run(kind, func(t *testing.T) {
			fs := &failingStorage{}
			f := start(t, kind, withFailingStorage(fs),
				testkit.WithConfig("modules.documents.timeout", "1s"), testkit.WithConfig("modules.documents.sweepage", "1s"))
			kept := f.uploadOK(t, "kept.pdf", pdfFile(), "contract")
			gone := f.uploadOK(t, "gone.pdf", pdfFile(), "contract")

			fs.failDelete.Store(true)
			f.app.Delete(f.documents()+"/"+gone.ID, f.user.Token).Expect(http.StatusNoContent)
			fs.failDelete.Store(false)
			f.app.Get(f.documents()+"/"+gone.ID, f.user.Token).Expect(http.StatusNotFound)
			if n := f.rows(t); n != 1 {
				t.Fatalf("%d rows, want 1", n)
			}
			f.settled(t, 2) // the orphan is still stored

			sweep := func() string {
				var out bytes.Buffer
				cmd := documents.Entry().Commands[0]
				err := cmd.Run(context.Background(), module.CommandEnv{DB: f.app.DB, Config: f.app.Config, Out: &out}, []string{"sweep"})
				if err != nil {
					t.Fatalf("propman documents sweep: %v", err)
				}
				return out.String()
			}
			// Too young: an upload may still be on its way.
			if out := sweep(); !strings.Contains(out, "0 without a document removed") {
				t.Errorf("sweep of a young orphan: %s", out)
			}
			f.settled(t, 2)
			time.Sleep(1100 * time.Millisecond)
			if out := sweep(); !strings.Contains(out, "2 stored files, 1 without a document removed") {
				t.Errorf("sweep: %s", out)
			}
			keys := f.settled(t, 1)
			if !strings.HasSuffix(keys[0], kept.ID) {
				t.Errorf("storage holds %v, want only %s", keys, kept.ID)
			}
			res := f.app.Get(f.documents()+"/"+kept.ID+"/content", f.user.Token).Expect(http.StatusOK)
			if !bytes.Equal(res.Body, pdfFile()) {
				t.Error("the kept document's bytes changed")
			}
		})
	}
}

// Deleting a property deletes its documents: rows with the property, blobs
// once that has committed. When another module refuses the deletion
// (charges), rows and blobs stay.
func TestPropertyDeletionTakesItsDocuments(t *testing.T) {
	for _, kind := range storageKinds(t) {
		t.Run(kind, func(t *testing.T) {
			f := start(t, kind)
			other := newProperty(t, f.app, f.user.Token)
			f.uploadOK(t, "a.pdf", pdfFile(), "contract")
			f.uploadOK(t, "b.png", pngFile(), "photo")
			f.app.Post("/api/v1/properties/"+other+"/charges", f.user.Token,
				map[string]any{"name": "Fee", "amount": 5, "due_date": "2026-12-01"}).Expect(http.StatusCreated)
			saved := f.property
			f.property = other
			f.uploadOK(t, "c.pdf", pdfFile(), "invoice")
			f.property = saved

			f.app.Delete("/api/v1/properties/"+other, f.user.Token).Expect(http.StatusConflict)
			time.Sleep(700 * time.Millisecond) // the removal after commit looks twice by then
			if n := f.rows(t); n != 3 {
				t.Fatalf("%d rows after a refused deletion, want 3", n)
			}
			f.settled(t, 3)

			f.app.Delete("/api/v1/properties/"+f.property, f.user.Token).Expect(http.StatusNoContent)
			if n := f.rows(t); n != 1 {
				t.Fatalf("%d rows, want the other property's one", n)
			}
			f.settled(t, 1)
		})
	}
}

// leaveChunked sends half an upload, chunked, and closes the connection.
func (f *fixture) leaveChunked(t *testing.T) {
	t.Helper()
	body, ct := form(text("title", "x"), text("category", "other"), file("a.txt", sized(3<<20)))
	conn, err := net.Dial("tcp", strings.TrimPrefix(f.app.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: propman\r\nAuthorization: Bearer %s\r\nContent-Type: %s\r\nTransfer-Encoding: chunked\r\n\r\n",
		f.documents(), f.user.Token, ct)
	half := body[:len(body)/2]
	fmt.Fprintf(conn, "%x\r\n%s\r\n", len(half), half)
	time.Sleep(200 * time.Millisecond)
	conn.Close()
}

// A request without a body (or one fasthttp already read whole, as
// app.Test sends it) reaches the upload as a stream like any other: a clear
// 415 for the missing form, never a 500. Fuzzing found it.
func TestUploadWithoutABody(t *testing.T) {
	app := testkit.Start(t) // no listener: requests go in through app.Test
	u := accountstest.NewUser(t, app)
	property := newProperty(t, app, u.Token)
	res := app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/properties/" + property + "/documents", Token: u.Token})
	if res.Status != http.StatusUnsupportedMediaType {
		t.Fatalf("%d %s, want 415", res.Status, res.Body)
	}
}
