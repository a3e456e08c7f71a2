// Package stubs lists the areas the specification names without describing
// their behaviour. Each is a module of its own that answers 501
// not_implemented under its prefixes until a team builds it; building one
// means replacing its entry here with a real module package.
package stubs

import "github.com/propman/propman/platform/module"

func stub(name, summary string, prefixes ...string) module.Entry {
	return module.Entry{Name: name, Summary: summary, Status: module.Stub, Prefixes: prefixes}
}

// Entries are the stub modules, in catalogue order.
func Entries() []module.Entry {
	return []module.Entry{
		stub("calendar", "Calendar events", "/calendar-events"),
		stub("billing", "Billing: subscriptions, invoices, payment methods", "/billing"),
		stub("partners", "Partner invitations (referral program)", "/partner-invitations"),
		stub("analytics", "Analytics events (POST /api/v1/analytics/track)", "/analytics", "/analytics/track"),
	}
}
