package httpserver

import (
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/validate"
)

// CheckInput returns r with the text rule (validate.Text) in front of every
// route registered through it: each path parameter and each query
// parameter, name and value, must be valid UTF-8 without control
// characters, or the request is a 400 validation_failed naming the
// parameter, before any of the route's own handlers (the guard included)
// runs. Bodies are checked by DecodeJSON. The server mounts every module's
// routes through it, so a new route is covered without a line of its own.
//
// It is a router rather than a middleware of the app because a middleware
// runs before routing: it does not know the path parameters' names.
func CheckInput(r fiber.Router) fiber.Router { return inputRouter{r} }

type inputRouter struct{ fiber.Router }

func with(handlers []fiber.Handler) []fiber.Handler {
	return append([]fiber.Handler{checkURL}, handlers...)
}

func (r inputRouter) Get(path string, h ...fiber.Handler) fiber.Router {
	r.Router.Get(path, with(h)...)
	return r
}

func (r inputRouter) Head(path string, h ...fiber.Handler) fiber.Router {
	r.Router.Head(path, with(h)...)
	return r
}

func (r inputRouter) Post(path string, h ...fiber.Handler) fiber.Router {
	r.Router.Post(path, with(h)...)
	return r
}

func (r inputRouter) Put(path string, h ...fiber.Handler) fiber.Router {
	r.Router.Put(path, with(h)...)
	return r
}

func (r inputRouter) Delete(path string, h ...fiber.Handler) fiber.Router {
	r.Router.Delete(path, with(h)...)
	return r
}

func (r inputRouter) Connect(path string, h ...fiber.Handler) fiber.Router {
	r.Router.Connect(path, with(h)...)
	return r
}

func (r inputRouter) Options(path string, h ...fiber.Handler) fiber.Router {
	r.Router.Options(path, with(h)...)
	return r
}

func (r inputRouter) Trace(path string, h ...fiber.Handler) fiber.Router {
	r.Router.Trace(path, with(h)...)
	return r
}

func (r inputRouter) Patch(path string, h ...fiber.Handler) fiber.Router {
	r.Router.Patch(path, with(h)...)
	return r
}

func (r inputRouter) Add(method, path string, h ...fiber.Handler) fiber.Router {
	r.Router.Add(method, path, with(h)...)
	return r
}

func (r inputRouter) All(path string, h ...fiber.Handler) fiber.Router {
	r.Router.All(path, with(h)...)
	return r
}

// The methods that add no route return the wrapper too, so a chain of
// calls (api.Use(...).Get(...)) stays inside it.

func (r inputRouter) Use(args ...any) fiber.Router {
	r.Router.Use(args...)
	return r
}

func (r inputRouter) Name(name string) fiber.Router {
	r.Router.Name(name)
	return r
}

func (r inputRouter) Static(prefix, root string, config ...fiber.Static) fiber.Router {
	r.Router.Static(prefix, root, config...)
	return r
}

func (r inputRouter) Mount(prefix string, app *fiber.App) fiber.Router {
	r.Router.Mount(prefix, app)
	return r
}

func (r inputRouter) Group(prefix string, h ...fiber.Handler) fiber.Router {
	return inputRouter{r.Router.Group(prefix, h...)}
}

func (r inputRouter) Route(prefix string, fn func(fiber.Router), name ...string) fiber.Router {
	return inputRouter{r.Router.Route(prefix, func(g fiber.Router) { fn(inputRouter{g}) }, name...)}
}

// checkURL applies the text rule to the request's path and query parameters.
func checkURL(c *fiber.Ctx) error {
	var details []string
	for _, name := range c.Route().Params {
		if p := paramProblem(c.Params(name)); p != "" {
			if strings.HasPrefix(name, "*") || strings.HasPrefix(name, "+") {
				name = "path" // a wildcard has no name of its own
			}
			details = append(details, name+": "+p)
		}
	}
	if query := c.Request().URI().QueryString(); len(query) > 0 && !plainASCII(query) {
		c.Context().QueryArgs().VisitAll(func(k, v []byte) {
			if p := validate.Text(string(k), false); p != "" {
				details = append(details, "query: parameter names "+p)
			} else if p := validate.Text(string(v), false); p != "" {
				details = append(details, string(k)+": "+p)
			}
		})
	}
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	return c.Next()
}

// paramProblem checks a path parameter as a handler may read it: Fiber
// gives it as sent, percent escapes and all, and a handler that decodes it
// (the agreements module does) must not find a control character inside.
func paramProblem(v string) string {
	if plainASCII([]byte(v)) {
		return ""
	}
	if p := validate.Text(v, false); p != "" {
		return p
	}
	if u, err := url.PathUnescape(v); err == nil {
		return validate.Text(u, false)
	}
	return ""
}

// plainASCII reports printable ASCII without a percent escape: nothing a
// decoder could turn into a control character or invalid UTF-8 (the fast
// path of nearly every request).
func plainASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= 0x7f || c == '%' {
			return false
		}
	}
	return true
}
