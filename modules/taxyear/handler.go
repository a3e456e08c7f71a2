package taxyear

import (
	"errors"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/export"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
)

// formatPDF is the summary's format beside export's json, csv and xlsx.
const formatPDF = "pdf"

// Handler answers the tax year.
type Handler struct {
	svc   *Service
	clock clock.Clock
	dicts *translations.Dictionaries
}

// NewHandler returns the handler.
func NewHandler(svc *Service, clk clock.Clock, dicts *translations.Dictionaries) *Handler {
	return &Handler{svc: svc, clock: clk, dicts: dicts}
}

var locales = []string{"en", "de", "fr", "es", "uk"}

func (h *Handler) taxYear(c *fiber.Ctx) error {
	yearRule := listing.Filter{Name: "year", Rule: "must be a year from 2000 to 2100", MaxLen: 4, OK: func(v string) bool {
		n, err := strconv.Atoi(v)
		return err == nil && n >= MinYear && n <= MaxYear
	}}
	formRule := listing.Filter{Name: "form", Rule: "must be one of " + strings.Join(Forms, ", "), MaxLen: 16, OK: func(v string) bool {
		for _, f := range Forms {
			if v == f {
				return true
			}
		}
		return false
	}}
	q, err := listing.Parse(c, yearRule, formRule, listing.UUID("property_id"), listing.OneOf("locale", locales...))
	if err != nil {
		return err
	}
	format := export.JSON
	if strings.EqualFold(c.Query("format"), formatPDF) || c.Query("format") == "" && strings.Contains(c.Get(fiber.HeaderAccept), "application/pdf") {
		format = formatPDF
	} else if format, err = export.Negotiate(c); err != nil {
		if c.Query("format") != "" {
			return apierror.Validation("format: must be one of json, csv, xlsx, pdf")
		}
		return err
	}
	in := Request{Form: q.Get("form"), PropertyID: q.Get("property_id"), Locale: q.Get("locale")}
	if v := q.Get("year"); v != "" {
		in.Year, _ = strconv.Atoi(v)
	}
	if in.Locale == "" && format != formatPDF {
		// Files follow Accept-Language as every export does; the JSON's
		// labels too.
		in.Locale = export.LocaleOf(c)
	}
	p := auth.Current(c)
	rep, err := h.svc.Compute(httpserver.Context(c), &p, in)
	if err != nil {
		return err
	}
	name := "tax-year-" + rep.Form + "-" + strconv.Itoa(rep.Year)
	switch format {
	case formatPDF:
		pdf, err := rep.PDF(h.clock.Now())
		if err != nil {
			return err
		}
		c.Set(fiber.HeaderContentType, "application/pdf")
		c.Set(fiber.HeaderContentDisposition, `inline; filename="`+name+`.pdf"`)
		return c.Send(pdf)
	case export.CSV, export.XLSX:
		words := wordsIn(h.dicts, rep.Locale)
		export.SendIn(c, format, name, columns, rep.Locale, words, func(w export.Writer) error {
			return rep.rows(w, export.TotalLabel(words))
		})
		return nil
	}
	return c.JSON(toJSON(rep))
}

// columns of the CSV and XLSX: one row per line of each property's form,
// then the workspace's totals.
var columns = []export.Column{
	{Name: "property_id", Kind: export.Text}, {Name: "property_name", Kind: export.Text}, {Name: "currency", Kind: export.Text},
	{Name: "line", Kind: export.Text}, {Name: "label", Kind: export.Text}, {Name: "amount", Kind: export.Money},
}

// rows writes the report's lines: every property's, then the totals per
// currency as totals rows (bold in XLSX, labelled total).
func (r *Report) rows(w export.Writer, total string) error {
	cell := func(b *Block, l *Line) any {
		if l.Amount == nil {
			return nil
		}
		return export.Amount{Value: *l.Amount, Currency: b.Currency}
	}
	for i := range r.Properties {
		b := &r.Properties[i]
		for j := range b.Lines {
			l := &b.Lines[j]
			if err := w.Row(b.PropertyID.String(), b.Name, b.Currency, l.Line, l.Label, cell(b, l)); err != nil {
				return err
			}
		}
	}
	for i := range r.Totals {
		b := &r.Totals[i]
		for j := range b.Lines {
			l := &b.Lines[j]
			if err := w.Total(total, nil, b.Currency, l.Line, l.Label, cell(b, l)); err != nil {
				return err
			}
		}
	}
	return nil
}

// wordsIn are the catalogue's words of the files in locale, nil for
// English, whose files keep the API's field names.
func wordsIn(dicts *translations.Dictionaries, locale string) export.Words {
	if dicts == nil || locale == "" || locale == "en" {
		return nil
	}
	seen := map[string]string{}
	return func(key string) (string, bool) {
		if v, ok := seen[key]; ok {
			return v, v != ""
		}
		found, _ := dicts.Select(locale, []string{key})
		seen[key] = found[key]
		return found[key], found[key] != ""
	}
}

// apiError is the one place the domain's errors of the depreciation basis
// become HTTP answers.
func apiError(err error) error {
	var invalid *InvalidError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNoBasis):
		return apierror.NotFound("No depreciation basis is recorded for this property.")
	case errors.As(err, &invalid):
		return apierror.Validation(invalid.Details...)
	}
	return err
}

// basisYear is the year whose amount a basis shows: ?year=, else the
// current year.
func (h *Handler) basisYear(c *fiber.Ctx) (int, error) {
	q, err := listing.Parse(c, listing.Filter{Name: "year", Rule: "must be a year from 2000 to 2100", MaxLen: 4, OK: func(v string) bool {
		n, err := strconv.Atoi(v)
		return err == nil && n >= MinYear && n <= MaxYear
	}})
	if err != nil {
		return 0, err
	}
	if v := q.Get("year"); v != "" {
		n, _ := strconv.Atoi(v)
		return n, nil
	}
	return h.clock.Now().UTC().Year(), nil
}

func (h *Handler) getBasis(c *fiber.Ctx) error {
	year, err := h.basisYear(c)
	if err != nil {
		return err
	}
	b, err := h.svc.Depreciation(httpserver.Context(c), properties.Scoped(c))
	if err != nil {
		return apiError(err)
	}
	return c.JSON(basisOf(b, year))
}

func (h *Handler) putBasis(c *fiber.Ctx) error {
	year, err := h.basisYear(c)
	if err != nil {
		return err
	}
	var req basisRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	in, details := req.input()
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	b, err := h.svc.SetDepreciation(httpserver.Context(c), properties.Scoped(c), in)
	if err != nil {
		return apiError(err)
	}
	return c.JSON(basisOf(b, year))
}

func (h *Handler) deleteBasis(c *fiber.Ctx) error {
	if err := h.svc.DeleteDepreciation(httpserver.Context(c), properties.Scoped(c)); err != nil {
		return apiError(err)
	}
	return c.SendStatus(fiber.StatusNoContent)
}
