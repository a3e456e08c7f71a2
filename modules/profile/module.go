// Package profile is the profile module: the signed-in user's profile,
// password and roles.
package profile

import "github.com/propman/propman/platform/module"

// Name is the module's configuration key.
const Name = "profile"

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "User profile, password and roles", Status: module.Ready,
		Depends: []string{"accounts", "reference"},
	}
}
