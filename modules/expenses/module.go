// Package expenses is the expenses module: the expenses of a property and
// the charges they generate.
package expenses

import "github.com/propman/propman/platform/module"

// Name is the module's configuration key.
const Name = "expenses"

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Expenses and the charges they generate", Status: module.Ready,
		Depends: []string{"accounts", "properties"},
	}
}
