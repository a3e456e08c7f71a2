// Package migrations holds the platform's baseline migrations, shared by all
// modules. Module migrations live in each module's own folder.
package migrations

import (
	"embed"

	"github.com/uptrace/bun/migrate"
)

// FS holds the platform's SQL migrations.
//
//go:embed *.sql
var FS embed.FS

// Go registers the platform's migrations written in Go, each from a file
// named as a migration is.
var Go []func(*migrate.Migrations) error
