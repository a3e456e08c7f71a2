// Package httpserver builds the Fiber application: middleware, the JSON error
// handler, client addresses, and the listener's life cycle.
package httpserver

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/cors"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/logbuf"
)

// APIPrefix is where every API route lives.
const APIPrefix = "/api/v1"

// New returns the Fiber app with propman's middleware: the outer handlers
// (metrics, tracing), then the platform's chain as one handler (request id,
// nosniff, access log, panic recovery, client address, request deadline,
// body limits; see chain), then CORS when origins are configured. Outer
// handlers run outside the access log, whose error handling sets the final
// status they see; a context they set with c.SetUserContext is the parent
// of the request's deadline context. The app is to be served through
// Linger, whose connections keep cfg's read, write and idle timeouts.
func New(cfg config.HTTP, dbTimeout time.Duration, log *slog.Logger, outer ...fiber.Handler) (*fiber.App, error) {
	app, _, err := NewWithBodyLimits(cfg, dbTimeout, log, nil, outer...)
	return app, err
}

// NewWithBodyLimits is New that also returns the server's body-size policy,
// on which routes that stream their body (uploads) are declared, and that
// tells obs, when not nil, of every request (see Observer).
func NewWithBodyLimits(cfg config.HTTP, dbTimeout time.Duration, log *slog.Logger, obs Observer, outer ...fiber.Handler) (*fiber.App, *BodyLimits, error) {
	proxies, err := parseProxies(cfg.Proxies)
	if err != nil {
		return nil, nil, err
	}
	bodies := NewBodyLimits(cfg.BodyLimit)
	app := fiber.New(fiber.Config{
		AppName: "propman",
		// Bodies are streams; BodyLimits enforces http.bodylimit on every
		// route that does not read its body as a stream (see body.go).
		BodyLimit:                    cfg.BodyLimit,
		StreamRequestBody:            true,
		DisablePreParseMultipartForm: true,
		// No ReadTimeout, WriteTimeout or IdleTimeout: the connections
		// Linger wraps keep them, at less cost (conndeadline.go).
		DisableStartupMessage: true,
		// Headers larger than this are refused with 431 before any handler runs.
		ReadBufferSize: 16 * 1024,
		ErrorHandler:   ErrorHandler(log),
		JSONEncoder:    encodeJSON,
	})
	lingerOnReadError(app)
	for _, h := range outer {
		app.Use(h)
	}
	direct, _ := log.Handler().(logbuf.Direct)
	front := &chain{
		requestID: true, noSniff: true,
		log: log, direct: direct,
		observer:      obs,
		recover:       log,
		clientAddress: true, proxies: proxies,
		deadline: dbTimeout,
		bodies:   bodies,
	}
	app.Use(front.handle)
	setDeadline(app, dbTimeout)
	if len(cfg.Origins) > 0 {
		// After the chain, so a preflight is logged and has a request id.
		app.Use(cors.New(cors.Config{
			AllowOrigins:  strings.Join(cfg.Origins, ","),
			AllowMethods:  "GET,POST,PUT,PATCH,DELETE,OPTIONS",
			AllowHeaders:  "Authorization,Content-Type,If-None-Match,X-Request-ID",
			ExposeHeaders: "ETag,Retry-After,X-Request-ID,Propman-Warnings",
			MaxAge:        3600,
		}))
	}
	app.Server().HeaderReceived = bodies.headerReceived
	return app, bodies, nil
}

// responseSize is the body's length; a streamed body (a download) is not
// read for it, which would load it whole into memory.
func responseSize(c *fiber.Ctx) int {
	if c.Response().IsBodyStream() {
		return c.Response().Header.ContentLength()
	}
	return len(c.Response().Body())
}

// requestID is the id the answer carries (see chain), for the log lines of
// errors and panics.
func requestID(c *fiber.Ctx) string {
	return string(c.Response().Header.Peek(fiber.HeaderXRequestID))
}

// ErrorHandler writes every error as JSON in the shapes of API-DECISIONS.md.
// Nothing internal reaches the client: a 500 says only internal_error and the
// request id, and the log has the rest.
func ErrorHandler(log *slog.Logger) fiber.ErrorHandler {
	return func(c *fiber.Ctx, err error) error {
		e := Classify(err)
		if e.Status >= 500 && e.Status != http.StatusNotImplemented {
			log.Error("request failed", "request_id", requestID(c), "method", c.Method(),
				"path", LoggedPath(c), "status", e.Status, "error", err.Error())
		}
		if e.Wait > 0 {
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(e.Wait))
		} else if e.RetryAfter > 0 {
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(e.RetryAfter))
		}
		c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
		c.Status(e.Status)
		if e.Body != nil {
			return c.JSON(e.Body)
		}
		return c.JSON(StandardBody(e))
	}
}

// ErrorBody is the standard error shape.
type ErrorBody struct {
	Error   string   `json:"error"`
	Message string   `json:"message"`
	Details []string `json:"details,omitempty"`
	Wait    int      `json:"wait,omitempty"`
}

// StandardBody is the body of e in the standard shape.
func StandardBody(e *apierror.Error) ErrorBody {
	return ErrorBody{Error: e.Code, Message: e.Message, Details: e.Details, Wait: e.Wait}
}

// Classify maps any error to the typed error the client sees.
func Classify(err error) *apierror.Error {
	if e, ok := apierror.As(err); ok {
		return e
	}
	var fe *fiber.Error
	if errors.As(err, &fe) {
		switch fe.Code {
		case fiber.StatusNotFound:
			return apierror.New(fe.Code, "not_found", "No such route.")
		case fiber.StatusMethodNotAllowed:
			return apierror.New(fe.Code, "method_not_allowed", "This method is not allowed on this route.")
		case fiber.StatusRequestEntityTooLarge:
			return apierror.New(fe.Code, "payload_too_large", "The request body is larger than the limit.")
		case fiber.StatusRequestHeaderFieldsTooLarge:
			return apierror.New(fe.Code, "headers_too_large", "The request headers are too large.")
		case fiber.StatusRequestTimeout:
			return apierror.New(fe.Code, "request_timeout", "The request was not received in time.")
		case fiber.StatusBadRequest, fiber.StatusUnprocessableEntity:
			return apierror.New(fiber.StatusBadRequest, "validation_failed", "The request is not valid.")
		case fiber.StatusServiceUnavailable:
			return apierror.Unavailable("The service is unavailable; try again shortly.")
		}
		if fe.Code >= 400 && fe.Code < 500 {
			return apierror.New(fe.Code, strings.ToLower(strings.ReplaceAll(http.StatusText(fe.Code), " ", "_")), fe.Message)
		}
	}
	if database.IsBusy(err) {
		return apierror.Busy()
	}
	if database.IsUnavailable(err) {
		return apierror.Unavailable("The database is unavailable; try again shortly.")
	}
	return apierror.New(fiber.StatusInternalServerError, "internal_error", "An internal error occurred.")
}

// SelfEncoded is a body that writes its own JSON, compact and valid (a
// page of a list). c.JSON sends its bytes as they are: encoding/json would
// scan the bytes a MarshalJSON returns again, to check and compact them,
// which took a tenth of the CPU of a list under load (docs/PERFORMANCE.md).
type SelfEncoded interface {
	EncodeJSON() ([]byte, error)
}

// encodeJSON is the encoder of c.JSON.
func encodeJSON(v any) ([]byte, error) {
	if s, ok := v.(SelfEncoded); ok {
		return s.EncodeJSON()
	}
	return json.Marshal(v)
}
