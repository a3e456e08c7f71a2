// Package stubs lists the areas the specification names without describing
// their behaviour. Each is a module of its own that answers 501
// not_implemented under its prefixes until a team builds it; building one
// means replacing its entry here with a real module package.
package stubs

import "github.com/propman/propman/platform/module"

// Entries are the stub modules, in catalogue order: none today, every area
// the specification names is built. A new one is
// module.Entry{Name: ..., Summary: ..., Status: module.Stub, Prefixes: ...}.
func Entries() []module.Entry {
	return nil
}
