// Package jobsui serves River's web UI (riverqueue.com/riverui) under
// /admin/jobs to users with ROLE_ADMIN, switched by jobs.ui. The UI is
// River's own single-page application and its JSON API below the same
// prefix (/admin/jobs/api/...), served by riverui's http.Handler through
// Fiber's adaptor on the queue's River client, so it reads and changes the
// service's own database on both engines (riverui picks its queries by the
// driver's database: PostgreSQL or SQLite).
//
// A browser that navigates to /admin/jobs sends no Authorization header,
// so every request below the prefix is admitted by either a bearer access
// token (scripts, the API's clients) or the cookie propman_admin_jobs,
// which an admin gets from POST /admin/jobs/session with their bearer
// token: a scoped token (auth.Tokens.IssueScoped, signed with a key derived
// for this purpose, so it is not an access token of the API), HttpOnly (no
// script reads it), Secure, SameSite=Strict (no other site's page can make
// the browser send it: the UI's changing requests need no CSRF token) and
// Path=/admin/jobs (the browser sends it nowhere else), living as long as
// an access token, at most an hour. The user is looked up on every
// request: a user who loses ROLE_ADMIN, is deactivated or changes their
// password is refused at once.
package jobsui

import (
	"context"
	_ "embed"
	"log/slog"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"go.uber.org/fx"
	"riverqueue.com/riverui"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/jobs"
)

// Prefix is where the UI is served.
const Prefix = "/admin/jobs"

// CookieName is the cookie that admits a browser to the UI.
const CookieName = "propman_admin_jobs"

// purpose scopes the cookie's token (auth.Tokens.IssueScoped).
const purpose = "admin-jobs"

// maxSession bounds the cookie's life; an access token's (auth.ttl) is
// used when shorter.
const maxSession = time.Hour

// OpenAPI is the document of the job screens' routes, merged into doc.json.
//
//go:embed openapi.yaml
var OpenAPI []byte

// Params are what Mount needs of the app's graph.
type Params struct {
	fx.In
	App    *fiber.App
	Queue  *jobs.Queue
	Guard  *auth.Guard
	Tokens *auth.Tokens
	Log    *slog.Logger
	LC     fx.Lifecycle
}

// Mount serves the UI under Prefix. riverui's handler keeps background
// work (cached job counts), started and stopped with the app.
func Mount(p Params) error {
	h, err := riverui.NewHandler(&riverui.HandlerOpts{
		Endpoints: riverui.NewEndpoints(p.Queue.Client(), nil),
		Logger:    p.Log.With("component", "jobs-ui"),
		Prefix:    Prefix,
	})
	if err != nil {
		return err
	}
	var cancel context.CancelFunc
	p.LC.Append(fx.Hook{
		OnStart: func(ctx context.Context) error {
			// Its own context: the start context ends when starting does.
			var uiCtx context.Context
			uiCtx, cancel = context.WithCancel(context.WithoutCancel(ctx))
			return h.Start(uiCtx)
		},
		OnStop: func(context.Context) error {
			if cancel != nil {
				cancel()
			}
			return nil
		},
	})
	s := &server{guard: p.Guard, tokens: p.Tokens, ui: adaptor.HTTPHandler(h)}
	p.App.Post(Prefix+"/session", s.openSession)
	p.App.Delete(Prefix+"/session", s.closeSession)
	p.App.Get(Prefix, s.admit, s.index)
	// Everything else below the prefix (the UI's assets, its routes and its
	// JSON API) is riverui's; doc.json describes the entry points only.
	p.App.Use(Prefix, s.admit, s.ui)
	return nil
}

type server struct {
	guard  *auth.Guard
	tokens *auth.Tokens
	ui     fiber.Handler
}

// admit lets through a user with ROLE_ADMIN, known by a bearer token or by
// the cookie: 401 without either or with a bad one, 403 for anyone else.
func (s *server) admit(c *fiber.Ctx) error {
	httpserver.NoStore(c)
	ctx := httpserver.Context(c)
	var p auth.Principal
	var err error
	if header := c.Get(fiber.HeaderAuthorization); header != "" {
		p, err = s.guard.Authenticate(ctx, header)
	} else if cookie := c.Cookies(CookieName); cookie != "" {
		p, err = s.guard.AuthenticateScoped(ctx, purpose, cookie)
		if err != nil {
			s.clearCookie(c)
		}
	} else {
		err = auth.Unauthorized("Sign in: send a bearer token, or get the cookie from POST " + Prefix + "/session")
	}
	if err != nil {
		return err
	}
	if !p.IsAdmin() {
		return forbidden()
	}
	return c.Next()
}

func forbidden() error {
	return apierror.Forbidden("The jobs UI is for administrators (ROLE_ADMIN) only.")
}

// index is the UI's page: riverui serves it at the prefix with a slash
// (and redirects the bare prefix there), so both are served as the one.
func (s *server) index(c *fiber.Ctx) error {
	// The adaptor hands riverui the request line's URI.
	uri := Prefix + "/"
	if q := c.Request().URI().QueryString(); len(q) > 0 {
		uri += "?" + string(q)
	}
	c.Request().SetRequestURI(uri)
	return s.ui(c)
}

// openSession sets the cookie for an admin signed in with a bearer token
// (only: a cookie cannot renew itself past its life).
func (s *server) openSession(c *fiber.Ctx) error {
	httpserver.NoStore(c)
	p, err := s.guard.Authenticate(httpserver.Context(c), c.Get(fiber.HeaderAuthorization))
	if err != nil {
		return err
	}
	if !p.IsAdmin() {
		return forbidden()
	}
	raw, expires, err := s.tokens.IssueScoped(purpose, p.UserID, p.Version, p.AuthTime, min(s.tokens.TTL(), maxSession))
	if err != nil {
		return err
	}
	c.Cookie(&fiber.Cookie{
		Name: CookieName, Value: raw, Path: Prefix, Expires: expires,
		HTTPOnly: true, Secure: true, SameSite: fiber.CookieSameSiteStrictMode,
	})
	return c.JSON(fiber.Map{"expires_at": expires.Format(time.RFC3339), "url": Prefix + "/"})
}

// closeSession removes the cookie; it needs no sign-in (removing one's own
// cookie harms no one).
func (s *server) closeSession(c *fiber.Ctx) error {
	httpserver.NoStore(c)
	s.clearCookie(c)
	return c.SendStatus(http.StatusNoContent)
}

func (s *server) clearCookie(c *fiber.Ctx) {
	c.Cookie(&fiber.Cookie{
		Name: CookieName, Value: "", Path: Prefix, Expires: time.Unix(0, 0), MaxAge: -1,
		HTTPOnly: true, Secure: true, SameSite: fiber.CookieSameSiteStrictMode,
	})
}
