// Package workspaces is the workspaces module: records belong to a
// workspace, and its members act in it by role (owner, manager,
// accountant, viewer). The token guard asks this module, on every request
// that needs a workspace, for the caller's role there (auth.Workspaces).
package workspaces

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/workspaces/migrations"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "workspaces"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Workspaces, members and roles", Status: module.Ready,
		Depends:    []string{"accounts"},
		Uses:       []string{"translations"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService, AsGuardWorkspaces),
			fx.Provide(fx.Private, NewStore, NewHandler, NewInviteConfig, NewInvitations, NewInvitationHandler),
			module.ProvideRoutes(NewRoutes),
			// The periodic runs read each workspace's time zone and schedule here.
			fx.Invoke(func(q *jobs.Queue, s *Store) { q.SetSchedules(s) }),
		),
	}
}
