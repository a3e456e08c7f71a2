// Package translations is the translations module: the web client's
// dictionaries per locale.
package translations

import "github.com/propman/propman/platform/module"

// Name is the module's configuration key.
const Name = "translations"

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Translations of the web client", Status: module.Ready,
		Depends: []string{"accounts", "reference"},
	}
}
