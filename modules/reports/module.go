// Package reports answers portfolio questions in one statement each over
// the whole workspace: who owes what and for how long (arrears), every
// unit with its tenant, rent, deposit and balance (rent roll), what was
// charged, collected and is outstanding per month (income, also as an SVG
// chart and as a monthly owner statement PDF per property), and the whole
// ledger of charges. Every report is JSON, CSV or XLSX.
package reports

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "reports"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Portfolio reports: arrears, rent roll, income (CSV, XLSX, SVG chart, owner statement PDF)", Status: module.Ready,
		Depends: []string{"accounts", "properties", "contragents", "contracts", "expenses", "payments", "printforms"},
		OpenAPI: openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewStore, NewStatements),
			fx.Provide(fx.Private, NewHandler),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
