// Package modules is the catalogue: every module compiled into propman, in
// the order their routes are mounted. Adding an area is one line here.
package modules

import (
	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/modules/stubs"
	"github.com/propman/propman/platform/module"
)

// Catalog returns every compiled-in module.
func Catalog() []module.Entry {
	entries := []module.Entry{
		reference.Entry(),
		accounts.Entry(),
	}
	return append(entries, stubs.Entries()...)
}
