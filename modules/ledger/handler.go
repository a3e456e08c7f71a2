package ledger

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/export"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/period"
)

// Handler turns HTTP requests into service calls.
type Handler struct {
	svc *Service
}

// NewHandler returns the handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// localeOf is the reader's language: their profile's, English when unset.
func localeOf(c *fiber.Ctx) string {
	if u, ok := auth.Current(c).Record.(*accounts.User); ok && u.Locale != "" {
		return u.Locale
	}
	return "en"
}

// dateParam reads an optional YYYY-MM-DD query parameter.
func dateParam(c *fiber.Ctx, name string) (period.Date, error) {
	raw := c.Query(name)
	if raw == "" {
		return period.Date{}, nil
	}
	d, err := period.ParseDate(raw)
	if err != nil {
		return period.Date{}, apierror.Validation(name + ": must be a date (YYYY-MM-DD)")
	}
	return d, nil
}

func (h *Handler) accounts(c *fiber.Ctx) error {
	asOf, err := dateParam(c, "as_of")
	if err != nil {
		return err
	}
	p := auth.Current(c)
	list, err := h.svc.Accounts(httpserver.Context(c), &p, localeOf(c), asOf)
	if err != nil {
		return err
	}
	out := make([]accountJSON, len(list))
	for i := range list {
		out[i] = accountOut(&list[i])
	}
	return c.JSON(fiber.Map{"accounts": out})
}

func (h *Handler) movements(c *fiber.Ctx) error {
	p := auth.Current(c)
	ctx := httpserver.Context(c)
	a, err := h.svc.Account(ctx, &p, localeOf(c), c.Params("accountId"))
	if err != nil {
		return err
	}
	q, err := listing.Parse(c)
	if err != nil {
		return err
	}
	list, res, err := h.svc.Movements(ctx, &p, a, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("movements", list, movementOut, res, q))
}

// journalFilters are the journal's filters, for the list and its export.
var journalFilters = []listing.Filter{listing.Date("from"), listing.Date("to"), listing.UUID("contract_id"), listing.UUID("property_id")}

func (h *Handler) journal(c *fiber.Ctx) error {
	q, err := listing.Parse(c, journalFilters...)
	if err != nil {
		return err
	}
	p := auth.Current(c)
	list, res, err := h.svc.Journal(httpserver.Context(c), &p, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("entries", list, entryOut, res, q))
}

// exportKeys are the catalogue keys of the journal export's columns.
var exportKeys = []string{"ledger.column.date", "ledger.column.entry", "ledger.column.kind", "ledger.column.memo",
	"ledger.column.account", "ledger.column.account_name", "ledger.column.contract", "ledger.column.property",
	"ledger.column.debit", "ledger.column.credit"}

var exportKinds = []export.Kind{export.Date, export.Text, export.Text, export.Text, export.Text, export.Text,
	export.Text, export.Text, export.Money, export.Money}

// journalExport sends the journal, one row per line, as CSV or XLSX with
// the column names in the reader's language (?locale=, else the profile's).
func (h *Handler) journalExport(c *fiber.Ctx) error {
	format, err := export.Negotiate(c)
	if err != nil {
		return err
	}
	if format == export.JSON {
		return apierror.Validation("format: must be csv or xlsx")
	}
	q, err := listing.Parse(c, journalFilters...)
	if err != nil {
		return err
	}
	locale := localeOf(c)
	if l := c.Query("locale"); l != "" {
		locale = l
	}
	p := auth.Current(c)
	rows, err := h.svc.JournalRows(httpserver.Context(c), &p, locale, q)
	if err != nil {
		return err
	}
	names := h.svc.Words(locale, exportKeys)
	cols := make([]export.Column, len(exportKeys))
	for i, k := range exportKeys {
		cols[i] = export.Column{Name: names[k], Kind: exportKinds[i]}
	}
	export.Send(c, format, "journal", cols, func(w export.Writer) error {
		for _, r := range rows {
			contract, property := "", ""
			if r.ContractID != nil {
				contract = r.ContractID.String()
			}
			if r.PropertyID != nil {
				property = r.PropertyID.String()
			}
			if err := w.Row(r.Date, r.EntryID.String(), r.Kind, r.Memo, r.AccountCode, r.AccountName, contract, property,
				export.Amount{Value: r.Debit, Currency: r.Currency}, export.Amount{Value: r.Credit, Currency: r.Currency}); err != nil {
				return err
			}
		}
		return nil
	})
	return nil
}

func (h *Handler) trialBalance(c *fiber.Ctx) error {
	asOf, err := dateParam(c, "as_of")
	if err != nil {
		return err
	}
	if asOf.IsZero() {
		asOf = h.svc.Today()
	}
	p := auth.Current(c)
	rows, totals, err := h.svc.TrialBalance(httpserver.Context(c), &p, localeOf(c), asOf)
	if err != nil {
		return err
	}
	return c.JSON(trialOut(asOf, rows, totals))
}
