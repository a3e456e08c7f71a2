package httpserver_test

import (
	"io"
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/httpserver"
)

// An invitation's token in the path never reaches the logs; other paths
// are logged as they are.
func TestLoggedPathHidesTokens(t *testing.T) {
	app := fiber.New()
	app.Post("/api/v1/invitations/:token/accept", func(c *fiber.Ctx) error { return c.SendString(httpserver.LoggedPath(c)) })
	app.Get("/api/v1/properties/:propertyId", func(c *fiber.Ctx) error { return c.SendString(httpserver.LoggedPath(c)) })
	for path, want := range map[string]string{
		"/api/v1/invitations/s3cr3t-T0ken/accept": "/api/v1/invitations/[token]/accept",
		"/api/v1/properties/abc":                  "/api/v1/properties/abc",
	} {
		method := "GET"
		if want != path {
			method = "POST"
		}
		res, err := app.Test(httptest.NewRequest(method, path, nil))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		if string(got) != want {
			t.Errorf("%s is logged as %q, want %q", path, got, want)
		}
	}
}
