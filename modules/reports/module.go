// Package reports answers portfolio questions in one statement each over
// the whole workspace: who owes what and for how long (arrears), every
// unit with its tenant, rent, deposit and balance (rent roll), what was
// charged, collected and is outstanding per month (income, also as an SVG
// chart and as a monthly owner statement PDF per property), and the whole
// ledger of charges. Every report is JSON, CSV or XLSX.
package reports

import (
	_ "embed"

	"github.com/gofiber/fiber/v2"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/export"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/openapi"
)

// Name is the module's configuration key.
const Name = "reports"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Portfolio reports: arrears, rent roll, income (CSV, XLSX, SVG chart, owner statement PDF)", Status: module.Ready,
		// Only the services it calls. The tables of contracts, expenses
		// and payments it reads are migrated whether or not their modules
		// are enabled, and it takes their states' names and printforms'
		// Printable (a plain function) from their packages: it uses them.
		Depends: []string{"accounts", "properties", "translations"},
		Uses:    []string{"contracts", "expenses", "payments", "printforms"},
		OpenAPI: openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewStore, NewService, NewStatements),
			fx.Provide(fx.Private, NewHandler),
			module.ProvideRoutes(NewRoutes),
			fx.Invoke(exportLists),
		),
	}
}

// exportLists gives every list of the API ?format=csv|xlsx
// (platform/export.Lists) and documents it. It runs before the routes are
// mounted, so its middleware comes before every list: a middleware added
// among the modules' routes would only see the lists mounted after it.
func exportLists(app *fiber.App, doc *openapi.Document, dicts *translations.Dictionaries) error {
	if err := doc.Amend(export.Document); err != nil {
		return err
	}
	words := func(locale string) export.Words { return WordsIn(dicts, locale) }
	app.Use(httpserver.APIPrefix, export.NewLists(app, doc).WithWords(words).Handler)
	return nil
}
