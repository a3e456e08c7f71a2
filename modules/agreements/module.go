// Package agreements is the agreements module: the catalogue of contract
// conditions (agreement blocks).
package agreements

import "github.com/propman/propman/platform/module"

// Name is the module's configuration key.
const Name = "agreements"

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Agreement blocks: the catalogue of contract conditions", Status: module.Ready,
		Depends: []string{"reference"},
	}
}
