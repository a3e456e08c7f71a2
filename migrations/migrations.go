// Package migrations holds the platform's baseline migrations, shared by all
// modules. Module migrations live in each module's own folder.
package migrations

import "embed"

// FS holds the platform's SQL migrations.
//
//go:embed *.sql
var FS embed.FS
