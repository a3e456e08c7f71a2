package httpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/propman/propman/platform/config"
)

// DecodeJSON never panics, accepts only valid JSON, and refuses everything
// else with a 400 that names at least one problem: one per bad string when the
// text check finds several, so a client can mend them all at once.
func FuzzDecodeJSON(f *testing.F) {
	for _, seed := range []string{`{"name":"a","age":3,"tags":["x"]}`, `{"age":"x"}`, `[1]`, `{`, ``, `null`,
		`{"name":"a"} {}`, `{"tags":{"a":1}}`, `"\ud800"`, `{"age":1e400}`, "{\"\xff\":[\"\xff\"]}"} {
		f.Add([]byte(seed))
	}
	app := fiber.New()
	f.Fuzz(func(t *testing.T, body []byte) {
		fctx := &fasthttp.RequestCtx{}
		fctx.Request.SetBody(body)
		c := app.AcquireCtx(fctx)
		defer app.ReleaseCtx(c)
		var v struct {
			Name string   `json:"name"`
			Age  int      `json:"age"`
			Tags []string `json:"tags"`
		}
		err := DecodeJSON(c, &v)
		if err != nil {
			if err.Status != fiber.StatusBadRequest || err.Code != "validation_failed" || len(err.Details) == 0 {
				t.Fatalf("error %+v, want a 400 validation_failed with details", err)
			}
			for _, d := range err.Details {
				if strings.TrimSpace(d) == "" {
					t.Fatalf("error %+v has an empty detail", err)
				}
			}
			return
		}
		if !json.Valid(bytes.TrimSpace(body)) {
			t.Fatalf("accepted invalid JSON %q", body)
		}
	})
}

// Whatever X-Forwarded-For says, the client address is the peer or one of
// the addresses in the header, and it is a valid IP.
func FuzzClientAddress(f *testing.F) {
	for _, seed := range []string{"203.0.113.9", "1.1.1.1, 10.0.0.1", "garbage", "", ",,,", "::1, 10.0.0.2", "1.1.1.1 , 2001:db8::1%eth0"} {
		f.Add(seed)
	}
	app, err := New(config.HTTP{BodyLimit: 1 << 20, ReadTimeout: time.Second, WriteTimeout: time.Second, IdleTimeout: time.Second,
		Proxies: []string{"10.0.0.0/8"}}, time.Second, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		f.Fatal(err)
	}
	app.Get("/ip", func(c *fiber.Ctx) error { return c.SendString(ClientIP(c)) })
	handler := app.Handler()
	peer := &net.TCPAddr{IP: net.ParseIP("10.0.0.1"), Port: 1234}
	f.Fuzz(func(t *testing.T, xff string) {
		var req fasthttp.Request
		req.SetRequestURI("/ip")
		req.Header.Set(fiber.HeaderXForwardedFor, xff)
		var fctx fasthttp.RequestCtx
		fctx.Init(&req, peer, nil)
		handler(&fctx)
		got := string(fctx.Response.Body())
		ip, err := netip.ParseAddr(got)
		if err != nil {
			t.Fatalf("client address %q is not an IP (header %q)", got, xff)
		}
		if got == "10.0.0.1" {
			return
		}
		for _, hop := range strings.Split(xff, ",") {
			if a, err := netip.ParseAddr(strings.TrimSpace(hop)); err == nil && a.Unmap() == ip {
				return
			}
		}
		t.Fatalf("client address %q comes neither from the peer nor from the header %q", got, xff)
	})
}
