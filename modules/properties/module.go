// Package properties is the properties module: a landlord's properties.
package properties

import "github.com/propman/propman/platform/module"

// Name is the module's configuration key.
const Name = "properties"

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Properties", Status: module.Ready,
		Depends: []string{"accounts", "reference"},
	}
}
