package httpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/logbuf"
)

// syncBuffer is a bytes.Buffer written by the app and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Split(strings.TrimSuffix(s.b.String(), "\n"), "\n")
}

// accessLines serves the same requests through New with log and returns
// the access lines written to out.
func accessLines(t *testing.T, log *slog.Logger, out *syncBuffer) []string {
	t.Helper()
	app, err := New(config.HTTP{BodyLimit: 1 << 20, ReadTimeout: time.Second, WriteTimeout: time.Second, IdleTimeout: time.Second},
		time.Second, log)
	if err != nil {
		t.Fatal(err)
	}
	app.Get("/ok/*", func(c *fiber.Ctx) error { return c.SendString("fine") })
	app.Get("/fail", func(*fiber.Ctx) error { return errors.New("broken") })
	// The last request sends no id: the line carries the one the answer has.
	var own string
	for i, path := range []string{"/ok/plain", "/ok/a%20b%3Dc%22d%5Ce%0A%FF%E2%80%A8", "/fail", "/missing", "/ok/own-id"} {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if i < 4 {
			req.Header.Set("X-Request-ID", "req-1")
		}
		res, err := app.Test(req, -1)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		own = res.Header.Get("X-Request-ID")
	}
	var lines []string
	for _, l := range out.lines() {
		if strings.Contains(l, "request_id") && !strings.Contains(l, "request failed") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 5 {
		t.Fatalf("%d access lines, want 5:\n%s", len(lines), strings.Join(out.lines(), "\n"))
	}
	if len(own) != 36 || !strings.Contains(lines[4], own) {
		t.Fatalf("the answer's X-Request-ID %q is not in the access line %s", own, lines[4])
	}
	// Ids of ours differ from run to run.
	lines[4] = strings.ReplaceAll(lines[4], own, "OWN")
	return lines
}

// TestAccessLineAsSlogWrites: the access line formatted by hand (the
// service's logbuf handler) carries what slog writes for the same request
// through an ordinary handler, time and duration aside, in both formats,
// for a path that needs quoting and escaping and for a 5xx (level ERROR).
func TestAccessLineAsSlogWrites(t *testing.T) {
	varying := regexp.MustCompile(`^time=\S+ | duration=\S+`)
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			isJSON := format == "json"
			var viaSlog, viaLine syncBuffer
			var plain slog.Handler = slog.NewTextHandler(&viaSlog, nil)
			if isJSON {
				plain = slog.NewJSONHandler(&viaSlog, nil)
			}
			direct := logbuf.NewHandler(&viaLine, isJSON, nil)
			if _, ok := direct.(logbuf.Direct); !ok {
				t.Fatal("logbuf.NewHandler is not Direct")
			}
			want := accessLines(t, slog.New(plain), &viaSlog)
			got := accessLines(t, slog.New(direct), &viaLine)
			for i := range want {
				if !isJSON {
					w, g := varying.ReplaceAllString(want[i], ""), varying.ReplaceAllString(got[i], "")
					if w != g || !strings.Contains(got[i], " duration=") {
						t.Errorf("line %d:\n got %s\nwant %s", i, got[i], want[i])
					}
					continue
				}
				var w, g map[string]any
				if err := json.Unmarshal([]byte(want[i]), &w); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal([]byte(got[i]), &g); err != nil {
					t.Fatalf("line %d is not JSON: %v\n%s", i, err, got[i])
				}
				if _, ok := g["duration"].(float64); !ok {
					t.Errorf("line %d: duration %v", i, g["duration"])
				}
				for _, m := range []map[string]any{w, g} {
					delete(m, "time")
					delete(m, "duration")
				}
				wb, _ := json.Marshal(w)
				gb, _ := json.Marshal(g)
				if !bytes.Equal(wb, gb) {
					t.Errorf("line %d:\n got %s\nwant %s", i, got[i], want[i])
				}
			}
			if !strings.Contains(got[2], "ERROR") || !strings.Contains(got[3], "404") {
				t.Errorf("levels or statuses: %q / %q", got[2], got[3])
			}
		})
	}
}
