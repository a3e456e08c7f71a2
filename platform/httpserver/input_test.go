package httpserver

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// inputApp serves routes registered through CheckInput, as boot mounts
// modules, with the platform's error handler.
func inputApp() *fiber.App {
	app := fiber.New(fiber.Config{ErrorHandler: func(c *fiber.Ctx, err error) error {
		e := Classify(err)
		return c.Status(e.Status).JSON(StandardBody(e))
	}})
	api := CheckInput(app.Group("/api"))
	ok := func(c *fiber.Ctx) error { return c.SendString(c.Params("id") + "|" + c.Query("q")) }
	api.Get("/things/:id", ok)
	api.Post("/things/:id/parts/:part", ok)
	api.Group("/nested").Get("/:id", ok)
	api.Route("/routed", func(r fiber.Router) { r.Put("/:id", ok) })
	api.Get("/files/*", ok)
	api.Name("named").Get("/chained/:id", ok)
	return app
}

func TestCheckInput(t *testing.T) {
	app := inputApp()
	for _, c := range []struct {
		method, target string
		status         int
		details        []string
	}{
		{"GET", "/api/things/abc?q=M%C3%BCller+%26+S%C3%B6hne", 200, nil},
		{"HEAD", "/api/things/abc", 200, nil},
		{"GET", "/api/things/a%00b", 400, []string{"id: must not contain control characters"}},
		{"GET", "/api/things/%E2%80%A8ok", 200, nil}, // U+2028 is no control character
		{"GET", "/api/things/%C2%85", 400, []string{"id: must not contain control characters"}},
		{"GET", "/api/things/%ff", 400, []string{"id: must be valid UTF-8"}},
		{"GET", "/api/things/x?q=%0A", 400, []string{"q: must not contain control characters"}},
		{"GET", "/api/things/x?q=ok&other=%7F&%01=x", 400, []string{"other: must not contain control characters", "query: parameter names must not contain control characters"}},
		{"POST", "/api/things/%00/parts/%FE", 400, []string{"id: must not contain control characters", "part: must be valid UTF-8"}},
		{"GET", "/api/nested/%1B", 400, []string{"id: must not contain control characters"}},
		{"PUT", "/api/routed/%09", 400, []string{"id: must not contain control characters"}},
		{"GET", "/api/files/a/%00", 400, []string{"path: must not contain control characters"}},
		{"GET", "/api/chained/%00", 400, []string{"id: must not contain control characters"}},
	} {
		res, err := app.Test(httptest.NewRequest(c.method, c.target, nil), -1)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != c.status {
			t.Errorf("%s %s: %d %s, want %d", c.method, c.target, res.StatusCode, body, c.status)
			continue
		}
		if c.status == 400 {
			var e ErrorBody
			if err := json.Unmarshal(body, &e); err != nil || e.Error != "validation_failed" || !slices.Equal(e.Details, c.details) {
				t.Errorf("%s %s: %s, want details %q", c.method, c.target, body, c.details)
			}
		}
	}
}

// BenchmarkCheckInput is what the rule costs a request that passes it: a
// route with a UUID parameter and a list query, with and without CheckInput.
//
//	go test -run '^$' -bench CheckInput -benchtime 1000000x -count 5 ./platform/httpserver/
func BenchmarkCheckInput(b *testing.B) {
	for _, checked := range []bool{false, true} {
		name := "bare"
		if checked {
			name = "checked"
		}
		b.Run(name, func(b *testing.B) {
			app := fiber.New()
			api := app.Group("/api")
			if checked {
				api = CheckInput(api)
			}
			api.Get("/properties/:propertyId/payments", func(c *fiber.Ctx) error { return c.SendString("ok") })
			h := app.Handler()
			var ctx fasthttp.RequestCtx
			ctx.Request.SetRequestURI("/api/properties/019a4f3e-7c1d-7a2b-9c3d-2e4f5a6b7c8d/payments?status=posted&from=2026-01-01&per_page=50")
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ctx.Response.Reset()
				h(&ctx)
			}
		})
	}
}
