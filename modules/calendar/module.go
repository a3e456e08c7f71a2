// Package calendar is every date of a portfolio in one place: the
// workspace's own events (viewings, inspections, repairs, meetings, with
// RFC 5545 recurrence), the dates its contracts imply (rent due days,
// starts and ends, rent changes, deposit deadlines), computed on every
// read and never stored, and a secret iCalendar feed per member that
// calendar apps subscribe to.
package calendar

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/calendar/migrations"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "calendar"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Calendar: stored and derived events, recurrence, iCalendar feed", Status: module.Ready,
		Depends:    []string{"accounts", "workspaces", "properties", "contragents", "contracts", "messages", "translations"},
		Uses:       []string{"opcosts"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewConfig, NewHandler),
			module.ProvideRoutes(NewRoutes),
			fx.Invoke(registerReminders),
		),
	}
}
