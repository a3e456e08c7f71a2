// Package modules is the catalogue: every module compiled into propman, in
// the order their routes are mounted. Adding an area is one line here.
//
// Fiber tries a request's routes one after the other in that order, so the
// public reads, the busiest and cheapest requests, are mounted first: a
// route tried in vain costs 30 to 100 instructions, and a block by code
// was the 16th GET route. (callgrind, GET /agreement-blocks/{code}: this
// order and agreements' ByCode trying the code as sent took 623 of 20,547
// instructions off a request.)
package modules

import (
	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/agreements"
	"github.com/propman/propman/modules/analytics"
	"github.com/propman/propman/modules/assets"
	"github.com/propman/propman/modules/bankaccounts"
	"github.com/propman/propman/modules/banking"
	"github.com/propman/propman/modules/billing"
	"github.com/propman/propman/modules/bills"
	"github.com/propman/propman/modules/buildings"
	"github.com/propman/propman/modules/calendar"
	"github.com/propman/propman/modules/compensations"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/counters"
	"github.com/propman/propman/modules/dashboard"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/ledger"
	"github.com/propman/propman/modules/messages"
	"github.com/propman/propman/modules/negotiations"
	"github.com/propman/propman/modules/notices"
	"github.com/propman/propman/modules/oidc"
	"github.com/propman/propman/modules/opcosts"
	"github.com/propman/propman/modules/partners"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/modules/penalties"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/modules/profile"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/proposals"
	"github.com/propman/propman/modules/receipts"
	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/modules/repairs"
	"github.com/propman/propman/modules/reports"
	"github.com/propman/propman/modules/stubs"
	"github.com/propman/propman/modules/taxyear"
	"github.com/propman/propman/modules/tenancy"
	"github.com/propman/propman/modules/tools"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/modules/violations"
	"github.com/propman/propman/modules/workspaces"
	"github.com/propman/propman/platform/module"
)

// Catalog returns every compiled-in module.
func Catalog() []module.Entry {
	entries := []module.Entry{
		// The public proposal page is read by strangers and answered from
		// memory: mounted first, it answered 0.81 of bare Fiber instead of
		// 0.77 (SQLite, 2026-11-25), at a cost of 0.01 to /countries.
		proposals.Entry(),
		reference.Entry(),
		agreements.Entry(),
		accounts.Entry(),
		oidc.Entry(),
		profile.Entry(),
		workspaces.Entry(),
		translations.Entry(),
		properties.Entry(),
		expenses.Entry(),
		contragents.Entry(),
		bankaccounts.Entry(),
		documents.Entry(),
		contracts.Entry(),
		counters.Entry(),
		payments.Entry(),
		banking.Entry(),
		receipts.Entry(),
		printforms.Entry(),
		penalties.Entry(),
		tenancy.Entry(),
		messages.Entry(),
		notices.Entry(),
		assets.Entry(),
		violations.Entry(),
		compensations.Entry(),
		ledger.Entry(),
		bills.Entry(),
		buildings.Entry(),
		opcosts.Entry(),
		taxyear.Entry(),
		tools.Entry(),
		calendar.Entry(),
		reports.Entry(),
		analytics.Entry(),
		billing.Entry(),
		partners.Entry(),
		negotiations.Entry(),
		repairs.Entry(),
		dashboard.Entry(),
	}
	return append(entries, stubs.Entries()...)
}
