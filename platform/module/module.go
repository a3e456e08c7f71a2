// Package module describes a propman module: one business area with its
// routes, migrations, OpenAPI fragment and seed data, switched on or off by
// modules.<name>.enabled.
package module

import (
	"context"
	"fmt"
	"io/fs"
	"regexp"

	"github.com/gofiber/fiber/v2"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
	"go.uber.org/fx"

	"github.com/propman/propman/platform/config"
)

// Status says whether a module's behaviour is built (ready) or only reserved
// (stub: it answers 501 not_implemented under its prefixes).
type Status string

// The statuses a module can have.
const (
	Ready Status = "ready"
	Stub  Status = "stub"
)

// Entry is a module as the catalogue lists it.
type Entry struct {
	// Name is the configuration key: modules.<Name>.enabled.
	Name string
	// Summary is a short line for people reading GET /api/v1.
	Summary string
	Status  Status
	// Depends names modules that must be enabled for this one to start.
	Depends []string
	// Uses names modules this one works with when they are enabled and
	// goes on without when they are not: their services reach it as fx
	// dependencies marked `optional:"true"` (no tenant's name on a form
	// when contragents is off, say). The architecture test accepts an
	// import of a module listed here as it does one listed in Depends.
	Uses []string
	// Options is the module's fx graph; it runs only when the module is enabled.
	Options fx.Option
	// Migrations is a folder of <yyyymmddhhmmss>_<what>.up.sql/.down.sql files.
	// They run whether or not the module is enabled, so the schema does not
	// depend on configuration.
	Migrations fs.FS
	// GoMigrations register the module's migrations written in Go (bun's
	// Register, from a file named <yyyymmddhhmmss>_<what>.go): a change
	// one SQL file cannot make on both engines, such as a new CHECK on
	// SQLite, which rebuilds the table.
	GoMigrations []func(*migrate.Migrations) error
	// OpenAPI is the module's YAML fragment: paths and components.
	OpenAPI []byte
	// Seed writes reference data idempotently after migrations.
	Seed func(ctx context.Context, db *bun.DB) error
	// Prefixes are the paths under /api/v1 a stub answers 501 on, in Fiber
	// syntax (":propertyId" for a parameter).
	Prefixes []string
	// Commands are operators' commands of the module (propman <name> ...).
	Commands []Command
}

var namePattern = regexp.MustCompile(`^[a-z][a-z0-9]{1,30}$`)

// Check reports what is wrong with e's description.
func (e Entry) Check() error {
	if !namePattern.MatchString(e.Name) {
		return fmt.Errorf("module %q: name must be one lower-case word (letters and digits)", e.Name)
	}
	switch e.Status {
	case Ready:
		if len(e.Prefixes) > 0 {
			return fmt.Errorf("module %s: only stubs declare prefixes", e.Name)
		}
	case Stub:
		if len(e.Prefixes) == 0 {
			return fmt.Errorf("module %s: a stub needs at least one prefix", e.Name)
		}
	default:
		return fmt.Errorf("module %s: status %q is neither ready nor stub", e.Name, e.Status)
	}
	return nil
}

// Routes is what a module contributes to the HTTP server: a function that
// registers its routes on the /api/v1 router.
type Routes struct {
	Module   string
	Register func(api fiber.Router)
}

// ProvideRoutes registers a constructor of Routes in the "routes" value group.
func ProvideRoutes(constructor any) fx.Option {
	return fx.Provide(fx.Annotate(constructor, fx.ResultTags(`group:"routes"`)))
}

// HealthCheck is a named check reported by GET /api/v1/health.
type HealthCheck struct {
	Name  string
	Check func(ctx context.Context) error
}

// ProvideHealthCheck registers a constructor of HealthCheck in the "health" group.
func ProvideHealthCheck(constructor any) fx.Option {
	return fx.Provide(fx.Annotate(constructor, fx.ResultTags(`group:"health"`)))
}

// Command is an operator's command a module adds to the propman binary, run
// as `propman <Name> <args>`.
type Command struct {
	Name  string
	Usage string
	Run   func(ctx context.Context, env CommandEnv, args []string) error
}

// CommandEnv is what a command gets: a migrated database, the
// configuration (a module reads its own section with Config.Module) and the
// way to print to the operator.
type CommandEnv struct {
	DB     *bun.DB
	Config *config.Config
	Out    interface{ Write([]byte) (int, error) }
}
