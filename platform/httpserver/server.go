// Package httpserver builds the Fiber application: middleware, the JSON error
// handler, client addresses, and the listener's life cycle.
package httpserver

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/cors"
	"github.com/gofiber/fiber/v2/middleware/requestid"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/logbuf"
)

// APIPrefix is where every API route lives.
const APIPrefix = "/api/v1"

// New returns the Fiber app with propman's middleware chain: request id,
// the outer handlers (metrics, tracing), access log, panic recovery, CORS,
// client address, request deadline, body limits. Outer handlers run outside
// the access log, whose error handling sets the final status they see; a
// context they set with c.SetUserContext is the parent of the request's
// deadline context.
func New(cfg config.HTTP, dbTimeout time.Duration, log *slog.Logger, outer ...fiber.Handler) (*fiber.App, error) {
	app, _, err := NewWithBodyLimits(cfg, dbTimeout, log, outer...)
	return app, err
}

// NewWithBodyLimits is New that also returns the server's body-size policy,
// on which routes that stream their body (uploads) are declared.
func NewWithBodyLimits(cfg config.HTTP, dbTimeout time.Duration, log *slog.Logger, outer ...fiber.Handler) (*fiber.App, *BodyLimits, error) {
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
		ReadTimeout:                  cfg.ReadTimeout,
		WriteTimeout:                 cfg.WriteTimeout,
		IdleTimeout:                  cfg.IdleTimeout,
		DisableStartupMessage:        true,
		// Headers larger than this are refused with 431 before any handler runs.
		ReadBufferSize: 16 * 1024,
		ErrorHandler:   ErrorHandler(log),
	})
	lingerOnReadError(app)
	app.Use(requestid.New(requestid.Config{Header: fiber.HeaderXRequestID}))
	app.Use(noSniff)
	for _, h := range outer {
		app.Use(h)
	}
	app.Use(accessLog(log))
	app.Use(recoverer(log))
	if len(cfg.Origins) > 0 {
		app.Use(cors.New(cors.Config{
			AllowOrigins:  strings.Join(cfg.Origins, ","),
			AllowMethods:  "GET,POST,PUT,PATCH,DELETE,OPTIONS",
			AllowHeaders:  "Authorization,Content-Type,If-None-Match,X-Request-ID",
			ExposeHeaders: "ETag,Retry-After,X-Request-ID",
			MaxAge:        3600,
		}))
	}
	app.Use(clientAddress(proxies))
	app.Use(requestDeadline(dbTimeout))
	app.Use(bodies.Handler())
	app.Server().HeaderReceived = bodies.headerReceived
	return app, bodies, nil
}

// noSniff tells browsers to take every answer as the type it declares
// (OWASP REST Security); errors written before any middleware ran (413,
// 431) get it from ErrorHandler.
func noSniff(c *fiber.Ctx) error {
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	return c.Next()
}

// recoverer turns a panic into a 500 through the error handler and logs the
// stack; the connection and the server stay up.
func recoverer(log *slog.Logger) fiber.Handler {
	return func(c *fiber.Ctx) (err error) {
		defer func() {
			if r := recover(); r != nil {
				log.Error("panic in handler", "request_id", requestID(c), "method", c.Method(),
					"path", c.Path(), "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		return c.Next()
	}
}

// accessLog writes one line per request, after the error handler has set
// the final status: level info, error for a 5xx other than 501. When the
// logger's handler is logbuf.Direct (the service's, see boot.Logger) the
// line is formatted by hand into a pooled buffer and copied into the log
// before the handler returns, so nothing of the request outlives it; any
// other logger gets the same record through slog.
func accessLog(log *slog.Logger) fiber.Handler {
	direct, _ := log.Handler().(logbuf.Direct)
	return func(c *fiber.Ctx) error {
		start := RequestStart(c)
		err := c.Next()
		if err != nil {
			// Let the error handler write the body now so the status is logged.
			if herr := c.App().ErrorHandler(c, err); herr != nil {
				_ = c.SendStatus(fiber.StatusInternalServerError)
			}
		}
		status := c.Response().StatusCode()
		level := slog.LevelInfo
		if status >= 500 && status != fiber.StatusNotImplemented {
			level = slog.LevelError
		}
		ctx := c.UserContext()
		if !log.Enabled(ctx, level) {
			return nil
		}
		now := time.Now()
		if direct != nil {
			l := direct.NewLine(now, level, "request")
			l.String("request_id", requestID(c))
			l.String("method", c.Method())
			l.String("path", c.Path())
			l.Int("status", status)
			l.Duration("duration", now.Sub(start))
			l.String("ip", ClientIP(c))
			l.Int("bytes", responseSize(c))
			_ = direct.WriteLine(l)
			return nil
		}
		log.LogAttrs(ctx, level, "request",
			slog.String("request_id", requestID(c)),
			slog.String("method", c.Method()),
			slog.String("path", c.Path()),
			slog.Int("status", status),
			slog.Duration("duration", now.Sub(start)),
			slog.String("ip", ClientIP(c)),
			slog.Int("bytes", responseSize(c)),
		)
		return nil
	}
}

// responseSize is the body's length; a streamed body (a download) is not
// read for it, which would load it whole into memory.
func responseSize(c *fiber.Ctx) int {
	if c.Response().IsBodyStream() {
		return c.Response().Header.ContentLength()
	}
	return len(c.Response().Body())
}

func requestID(c *fiber.Ctx) string {
	if id, ok := c.Locals(requestid.ConfigDefault.ContextKey).(string); ok {
		return id
	}
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
				"path", c.Path(), "status", e.Status, "error", err.Error())
		}
		if e.Wait > 0 {
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(e.Wait))
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
	if database.IsUnavailable(err) {
		return apierror.Unavailable("The database is unavailable; try again shortly.")
	}
	return apierror.New(fiber.StatusInternalServerError, "internal_error", "An internal error occurred.")
}
