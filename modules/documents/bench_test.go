package documents_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/propman/propman/modules/documents"
)

// patternReader gives n bytes of text without holding them.
type patternReader struct{ n int64 }

const pattern = "propman streams documents 0123456789 abcdefghijklmnopqrstuvwxyz\n"

func (p *patternReader) Read(b []byte) (int, error) {
	if p.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(b)) > p.n {
		b = b[:p.n]
	}
	for i := range b {
		b[i] = pattern[i%len(pattern)]
	}
	p.n -= int64(len(b))
	return len(b), nil
}

// streamedForm is an upload form of a size-byte file, made while it is
// sent, and its length.
func streamedForm(size int64) (io.Reader, int64, string) {
	const boundary = "benchboundary"
	head := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nBig\r\n" +
		"--" + boundary + "\r\nContent-Disposition: form-data; name=\"category\"\r\n\r\nother\r\n" +
		"--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.txt\"\r\nContent-Type: text/plain\r\n\r\n"
	tail := "\r\n--" + boundary + "--\r\n"
	r := io.MultiReader(strings.NewReader(head), &patternReader{n: size}, strings.NewReader(tail))
	return r, int64(len(head)+len(tail)) + size, "multipart/form-data; boundary=" + boundary
}

func (f *fixture) streamUpload(t testing.TB, size int64) document {
	t.Helper()
	body, n, ct := streamedForm(size)
	req, _ := http.NewRequest(http.MethodPost, f.app.URL+f.documents(), body)
	req.ContentLength = n
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+f.user.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %s", res.StatusCode, out)
	}
	var d document
	r := response{Status: res.StatusCode, Header: res.Header, Body: out}
	f.check(t, http.MethodPost, f.documents(), r)
	if err := jsonUnmarshal(out, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func (f *fixture) streamDownload(t testing.TB, d document) int64 {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, f.app.URL+f.documents()+"/"+d.ID+"/content", nil)
	req.Header.Set("Authorization", "Bearer "+f.user.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	n, err := io.Copy(io.Discard, res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("download: %d, %d bytes, %v", res.StatusCode, n, err)
	}
	return n
}

// heapPeak samples the Go heap in use while fn runs (with an eager
// collector, so garbage does not count) and returns the peak above the
// level before.
func heapPeak(fn func()) uint64 {
	old := debug.SetGCPercent(10)
	defer debug.SetGCPercent(old)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapInuse > base && m.HeapInuse-base > peak.Load() {
				peak.Store(m.HeapInuse - base)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	fn()
	close(stop)
	<-done
	return peak.Load()
}

// A 60 MiB upload and download keep the heap flat: the file is never
// held whole (the S3 client holds one 5 MiB part).
func TestLargeFilesKeepMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("60 MiB transfers")
	}
	const size = 60 << 20
	for _, kind := range storageKinds(t) {
		t.Run(kind, func(t *testing.T) {
			f := start(t, kind, withMaxSize(64<<20))
			var d document
			up := heapPeak(func() { d = f.streamUpload(t, size) })
			if d.Size != size {
				t.Fatalf("stored %d bytes, want %d", d.Size, size)
			}
			var n int64
			down := heapPeak(func() { n = f.streamDownload(t, d) })
			if n != size {
				t.Fatalf("downloaded %d bytes", n)
			}
			t.Logf("%s: heap peak above the start: upload %.1f MiB, download %.1f MiB for a %d MiB file",
				kind, float64(up)/(1<<20), float64(down)/(1<<20), size>>20)
			if up > 24<<20 || down > 24<<20 {
				t.Errorf("heap grew by %d MiB (upload) / %d MiB (download) for a 60 MiB file", up>>20, down>>20)
			}
		})
	}
}

func withMaxSize(n int) testkitOption { return withConfig("modules.documents.maxsize", n) }

// peakRSS resets the process's peak resident size and returns a function
// that reads it (Linux; 0 elsewhere).
func peakRSS() func() int64 {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	return func() int64 {
		b, err := os.ReadFile("/proc/self/status")
		if err != nil {
			return 0
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				return kb << 10
			}
		}
		return 0
	}
}

// BenchmarkUpload20MiB: throughput of 20 MiB uploads, and the peak RSS of
// the process (server and a client that streams its body).
func BenchmarkUpload20MiB(b *testing.B) {
	for _, kind := range []string{"file", "s3"} {
		b.Run(kind, func(b *testing.B) {
			f := start(b, kind)
			b.SetBytes(documents.DefaultMaxSize)
			runtime.GC()
			rss := peakRSS()
			b.ResetTimer()
			for range b.N {
				f.streamUpload(b, documents.DefaultMaxSize)
			}
			b.StopTimer()
			b.ReportMetric(float64(rss())/(1<<20), "peakRSS-MiB")
		})
	}
}

// BenchmarkDownload20MiB: throughput of 20 MiB downloads and the peak RSS.
func BenchmarkDownload20MiB(b *testing.B) {
	for _, kind := range []string{"file", "s3"} {
		b.Run(kind, func(b *testing.B) {
			f := start(b, kind)
			d := f.streamUpload(b, documents.DefaultMaxSize)
			b.SetBytes(documents.DefaultMaxSize)
			runtime.GC()
			rss := peakRSS()
			b.ResetTimer()
			for range b.N {
				f.streamDownload(b, d)
			}
			b.StopTimer()
			b.ReportMetric(float64(rss())/(1<<20), "peakRSS-MiB")
		})
	}
}

// BenchmarkList1000: a property with 1,000 documents, the first page (50)
// and the largest one (200), with ?category=.
func BenchmarkList1000(b *testing.B) {
	f := start(b, "file")
	rows := make([]map[string]any, 0, 1000)
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	cats := []string{"contract", "invoice", "receipt", "photo", "certificate", "other"}
	for i := range 1000 {
		id, _ := uuid.NewV7()
		rows = append(rows, map[string]any{
			"id": id.String(), "property_id": f.property, "title": fmt.Sprintf("Document %d", i), "category": cats[i%len(cats)],
			"filename": fmt.Sprintf("doc-%d.pdf", i), "content_type": "application/pdf", "size": 1000 + i,
			"sha256": strings.Repeat("ab", 32), "uploaded_by": f.user.ID, "created_at": now, "updated_at": now,
		})
	}
	for _, r := range rows {
		if _, err := f.app.DB.NewInsert().Model(&r).TableExpr("documents").Exec(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	for _, q := range []string{"", "?per_page=200", "?category=photo&per_page=200"} {
		b.Run("query="+q, func(b *testing.B) {
			path := f.app.URL + f.documents() + q
			for range b.N {
				req, _ := http.NewRequest(http.MethodGet, path, nil)
				req.Header.Set("Authorization", "Bearer "+f.user.Token)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					b.Fatalf("status %d", res.StatusCode)
				}
			}
		})
	}
}
