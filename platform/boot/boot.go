// Package boot assembles propman from its configuration and its module
// catalogue: it checks the modules, opens and migrates the database, and
// builds the fx application that serves HTTP.
package boot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/uptrace/bun"
	"go.uber.org/fx"
	"go.uber.org/fx/fxevent"

	"github.com/propman/propman/migrations"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/jobs/jobsui"
	"github.com/propman/propman/platform/journal"
	"github.com/propman/propman/platform/logbuf"
	"github.com/propman/propman/platform/mail"
	"github.com/propman/propman/platform/metrics"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/openapi"
	"github.com/propman/propman/platform/tracing"
	"github.com/propman/propman/platform/webapp"
)

// Version is the interface version of the API.
const Version = "1.0.0"

// Options are the inputs of New. Tests replace the clock and the mailer.
type Options struct {
	Config  *config.Config
	Entries []module.Entry
	Logger  *slog.Logger
	Clock   clock.Clock
	Mailer  mail.Mailer
	// Listen makes the app listen on http.addr when started.
	Listen bool
	// OnListen, when set, is told the bound address once the listener is
	// open; with http.addr 127.0.0.1:0 that is how a test learns the port.
	OnListen func(addr net.Addr)
	// Web is the web app's build (clients/web's Dist), served at / after
	// every API route; nil serves the API alone.
	Web fs.FS
	// Extra options, e.g. fx.Populate in tests.
	Extra []fx.Option
}

// ModuleState is a compiled-in module and whether this instance runs it.
type ModuleState struct {
	Name    string
	Summary string
	Enabled bool
	Status  module.Status
}

// Logger makes the slog logger that cfg asks for.
func Logger(cfg config.Log, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.Level))
	// slog's text or JSON handler, which also takes the access log's line
	// formatted by hand (logbuf.Direct).
	return slog.New(logbuf.NewHandler(w, cfg.Format == "json", &slog.HandlerOptions{Level: level}))
}

// BufferedLogger is Logger over a logbuf.Writer on w, whose warnings and
// errors are written at once; close the writer when the process ends.
func BufferedLogger(cfg config.Log, w io.Writer) (*slog.Logger, *logbuf.Writer) {
	buf := logbuf.New(w)
	return slog.New(buf.Handler(Logger(cfg, buf).Handler())), buf
}

// Plan checks the catalogue against the configuration and returns which
// modules run. A module that needs a disabled or unknown one is an error.
func Plan(cfg *config.Config, entries []module.Entry) ([]ModuleState, error) {
	known := map[string]module.Entry{}
	states := make([]ModuleState, 0, len(entries))
	for _, e := range entries {
		if err := e.Check(); err != nil {
			return nil, err
		}
		if _, dup := known[e.Name]; dup {
			return nil, fmt.Errorf("module %s is listed twice in the catalogue", e.Name)
		}
		known[e.Name] = e
		enabled, err := cfg.ModuleEnabled(e.Name)
		if err != nil {
			return nil, err
		}
		states = append(states, ModuleState{Name: e.Name, Summary: e.Summary, Enabled: enabled, Status: e.Status})
	}
	for _, name := range cfg.ModuleNames() {
		if _, ok := known[name]; !ok {
			return nil, &config.Error{Key: "modules." + name, Reason: "there is no such module (known: " + strings.Join(names(entries), ", ") + ")"}
		}
	}
	enabled := map[string]bool{}
	for _, s := range states {
		enabled[s.Name] = s.Enabled
	}
	var errs []error
	for _, e := range entries {
		if !enabled[e.Name] {
			continue
		}
		for _, used := range e.Uses {
			if _, ok := enabled[used]; !ok {
				errs = append(errs, fmt.Errorf("module %s uses %s, which is not in the catalogue", e.Name, used))
			}
		}
		for _, dep := range e.Depends {
			on, ok := enabled[dep]
			switch {
			case !ok:
				errs = append(errs, fmt.Errorf("module %s depends on %s, which is not in the catalogue", e.Name, dep))
			case !on:
				errs = append(errs, fmt.Errorf("module %s needs module %s, which is disabled: enable %s (modules.%s.enabled=true) or disable %s (modules.%s.enabled=false)",
					e.Name, dep, dep, dep, e.Name, e.Name))
			}
		}
	}
	return states, errors.Join(errs...)
}

func names(entries []module.Entry) []string {
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.Name)
	}
	return out
}

// MigrationSets are the platform's and every compiled-in module's migrations.
func MigrationSets(entries []module.Entry) []database.MigrationSet {
	sets := []database.MigrationSet{{Owner: "platform", FS: migrations.FS, Go: migrations.Go}}
	for _, e := range entries {
		if e.Migrations != nil || e.GoMigrations != nil {
			sets = append(sets, database.MigrationSet{Owner: e.Name, FS: e.Migrations, Go: e.GoMigrations})
		}
	}
	return sets
}

// Prepare migrates db and seeds the reference data of every compiled-in module.
func Prepare(ctx context.Context, db *bun.DB, entries []module.Entry, log *slog.Logger) error {
	mg, err := database.NewMigrator(db, MigrationSets(entries))
	if err != nil {
		return err
	}
	applied, err := mg.Up(ctx)
	if err != nil {
		return err
	}
	if len(applied) > 0 {
		log.Info("migrations applied", "count", len(applied), "names", applied)
	}
	for _, e := range entries {
		if e.Seed == nil {
			continue
		}
		if err := e.Seed(ctx, db); err != nil {
			return fmt.Errorf("seed %s: %w", e.Name, err)
		}
	}
	return nil
}

// New builds the application. It opens the database and, unless
// database.automigrate is false, migrates and seeds it before any module
// starts, so every module may read its tables from its constructor.
func New(ctx context.Context, o Options) (*fx.App, error) {
	cfg := o.Config
	log := o.Logger
	if log == nil {
		log = Logger(cfg.Log, os.Stderr)
	}
	clk := o.Clock
	if clk == nil {
		clk = clock.Real{}
	}
	states, err := Plan(cfg, o.Entries)
	if err != nil {
		return nil, err
	}
	secret, generated, err := auth.ResolveSecret(cfg)
	if err != nil {
		return nil, err
	}
	if generated != "" {
		log.Warn("auth.secret is not set: generated one and kept it for the next starts; set PROPMAN_AUTH_SECRET in production", "file", generated)
	}
	mailer := o.Mailer
	if mailer == nil {
		if mailer, err = mail.New(cfg.Mail, log); err != nil {
			return nil, err
		}
	}
	// Links in mails that really go out must reach the reader; the log
	// mailer and a test's catcher are read where localhost works.
	if _, sends := mailer.(*mail.SMTP); sends && cfg.HTTP.PublicURL == "" {
		log.Warn("http.publicurl is not set: links in mails point to "+config.DefaultPublicURL+"; set PROPMAN_HTTP_PUBLICURL to the address people reach propman at",
			"key", "http.publicurl")
	}
	db, err := database.Open(ctx, cfg.Database)
	if err != nil {
		return nil, err
	}
	if cfg.Database.AutoMigrate {
		if err := Prepare(ctx, db, o.Entries, log); err != nil {
			db.Close()
			return nil, err
		}
	}
	// With metrics.enabled false there is no middleware and no route, and
	// modules get a nil *metrics.Metrics, whose methods do nothing.
	var met *metrics.Metrics
	var outer []fiber.Handler
	var observer httpserver.Observer
	if cfg.Metrics.Enabled {
		met = metrics.New(db.DB)
		mailer = met.Mailer(mailer)
		observer = met
	}
	var moduleOpts []fx.Option
	for i, e := range o.Entries {
		if states[i].Enabled && e.Options != nil {
			moduleOpts = append(moduleOpts, e.Options)
		}
	}
	doc, err := buildDocument(o.Entries, states, met != nil, cfg.Jobs.UI)
	if err != nil {
		db.Close()
		return nil, err
	}
	tokens, err := auth.NewTokens(cfg.Auth, secret, clk)
	if err != nil {
		db.Close()
		return nil, err
	}
	// With tracing.endpoint empty there is no provider (so no exporter and no
	// goroutine), no middleware and no query hook; modules and tests get a
	// nil *tracing.Provider.
	var tr *tracing.Provider
	if cfg.Tracing.Enabled() {
		if tr, err = tracing.New(cfg.Tracing); err != nil {
			db.Close()
			return nil, err
		}
		db = db.WithQueryHook(tr.QueryHook(db))
		outer = append(outer, tr.Middleware())
	}
	closeAll := func() {
		if tr != nil {
			_ = tr.Shutdown(context.Background())
		}
		db.Close()
	}
	app, bodies, err := httpserver.NewWithBodyLimits(cfg.HTTP, cfg.Database.Timeout, log, observer, outer...)
	if err != nil {
		closeAll()
		return nil, err
	}
	if met != nil {
		app.Get(metrics.Path, met.Handler())
	}
	opts := []fx.Option{
		fx.WithLogger(func() fxevent.Logger {
			if cfg.Log.Level == "debug" {
				return &fxevent.SlogLogger{Logger: log}
			}
			return fxevent.NopLogger
		}),
		fx.Supply(cfg, log, db, doc, tokens, app, bodies, states, met, tr),
		fx.Supply(fx.Annotate(clk, fx.As(new(clock.Clock)))),
		fx.Supply(fx.Annotate(mailer, fx.As(new(mail.Mailer)))),
		fx.Provide(auth.NewGuard),
		fx.Provide(jobs.New),
		journal.Module,
		fx.Invoke(func(lc fx.Lifecycle, q *jobs.Queue) {
			lc.Append(fx.StopHook(func() error { return db.Close() }))
			// Stop hooks run in reverse: the queue stops before the
			// database closes (River hands back its leadership on an open
			// pool). It starts with the app, after every module has added
			// its workers (all invokes run before any start hook), whether
			// or not one queues a job: jobs queued by an earlier run or
			// another instance are worked.
			lc.Append(fx.Hook{OnStart: q.Start, OnStop: q.Stop})
			if tr != nil {
				// Stop hooks run in reverse: this one runs after the server
				// has finished its requests, and flushes their spans.
				lc.Append(fx.StopHook(func(ctx context.Context) error { return tr.Shutdown(ctx) }))
			}
		}),
	}
	if cfg.Jobs.UI {
		// River's web UI under /admin/jobs, for ROLE_ADMIN (jobsui).
		opts = append(opts, fx.Invoke(jobsui.Mount))
	}
	opts = append(opts, moduleOpts...)
	opts = append(opts, fx.Invoke(fx.Annotate(func(routes []module.Routes, checks []module.HealthCheck, guard *auth.Guard) error {
		if err := mount(app, log, o.Entries, states, routes, checks, db, doc); err != nil {
			return err
		}
		if o.Web != nil {
			if err := webapp.Mount(app, o.Web); err != nil {
				return err
			}
		}
		declared := guard.Declared()
		return doc.AmendAs(rolesKey(declared), func(d map[string]any) error { return documentRoles(d, declared) })
	}, fx.ParamTags(`group:"routes"`, `group:"health"`, ``))))
	if o.Listen {
		opts = append(opts, fx.Invoke(func(lc fx.Lifecycle, sd fx.Shutdowner) {
			listen(lc, sd, app, cfg.HTTP, log, o.OnListen)
		}))
	}
	opts = append(opts, o.Extra...)
	fxApp := fx.New(opts...)
	if err := fxApp.Err(); err != nil {
		closeAll()
		return nil, err
	}
	return fxApp, nil
}

func listen(lc fx.Lifecycle, sd fx.Shutdowner, app *fiber.App, cfg config.HTTP, log *slog.Logger, onListen func(net.Addr)) {
	var lln *httpserver.LingerListener
	lc.Append(fx.Hook{
		OnStart: func(ctx context.Context) error {
			ln, err := net.Listen("tcp", cfg.Addr)
			if err != nil {
				return fmt.Errorf("http.addr: %w", err)
			}
			log.Info("listening", "addr", ln.Addr().String())
			if onListen != nil {
				onListen(ln.Addr())
			}
			// Connections refused mid-request drain before they close, so
			// the client reads the 413 instead of a reset (linger.go).
			lln = httpserver.Linger(ln, cfg)
			go func() {
				if err := app.Listener(lln); err != nil {
					log.Error("server stopped", "error", err)
					_ = sd.Shutdown(fx.ExitCode(1))
				}
			}()
			return nil
		},
		OnStop: func(ctx context.Context) error {
			log.Info("shutting down: finishing requests in flight", "timeout", cfg.ShutdownTimeout)
			ctx, cancel := context.WithTimeout(ctx, cfg.ShutdownTimeout)
			defer cancel()
			err := app.ShutdownWithContext(ctx)
			// Drains still under way end within what is left of the
			// timeout, or are cut: their answers are written already, so
			// a cut one is no failure of the stop.
			if lln.Shutdown(ctx) != nil {
				log.Warn("shutdown timeout: closed connections still draining after a refused request")
			}
			return err
		},
	})
}

// mount registers the platform's routes, then each enabled module's, in
// catalogue order, then the reference page and the stubs, and rejects a
// route declared twice.
func mount(app *fiber.App, log *slog.Logger, entries []module.Entry, states []ModuleState,
	routes []module.Routes, checks []module.HealthCheck, db *bun.DB, doc *openapi.Document) error {
	// Every route under the API checks its path and query parameters
	// against the text rule first (httpserver.CheckInput).
	api := httpserver.CheckInput(app.Group(httpserver.APIPrefix))
	mountService(api, states, checks, db, doc)
	order := map[string]int{}
	for i, e := range entries {
		order[e.Name] = i
	}
	sort.SliceStable(routes, func(i, j int) bool { return order[routes[i].Module] < order[routes[j].Module] })
	for _, r := range routes {
		if _, ok := order[r.Module]; !ok {
			return fmt.Errorf("routes of unknown module %q", r.Module)
		}
		r.Register(api)
	}
	mountDocPage(api)
	for i, e := range entries {
		if e.Status == module.Stub && states[i].Enabled {
			for _, p := range e.Prefixes {
				api.All(p, notImplemented(e.Name))
				api.All(p+"/*", notImplemented(e.Name))
			}
		}
	}
	seen := map[string]bool{}
	var table []string
	for _, r := range app.GetRoutes(true) {
		key := r.Method + " " + r.Path
		if seen[key] && r.Method != fiber.MethodHead {
			return fmt.Errorf("route %s is registered twice", key)
		}
		seen[key] = true
		if r.Method != fiber.MethodHead && !slices.Contains([]string{"CONNECT", "TRACE", "OPTIONS"}, r.Method) {
			table = append(table, key)
		}
	}
	sort.Strings(table)
	log.Info("routes mounted", "count", len(table), "table", table)
	return nil
}
