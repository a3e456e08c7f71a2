package reports

import (
	"context"
	"database/sql"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/export"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
	"github.com/propman/propman/platform/printstyle"
)

// exportTimeout bounds one streamed export: it runs after the handler has
// returned, outside the request's deadline (database.timeout), and 500,000
// rows take seconds, not minutes.
const exportTimeout = 5 * time.Minute

// Handler turns report requests into statements and bodies.
type Handler struct {
	svc        *Service
	clock      clock.Clock
	properties *properties.Service
	statements *Statements
	dicts      *translations.Dictionaries
}

// NewHandler returns the handler.
func NewHandler(svc *Service, clk clock.Clock, props *properties.Service, st *Statements, dicts *translations.Dictionaries) *Handler {
	return &Handler{svc: svc, clock: clk, properties: props, statements: st, dicts: dicts}
}

// asOf reads ?as_of= (default today, UTC) and the format.
func (h *Handler) asOf(c *fiber.Ctx) (period.Date, string, error) {
	q, err := listing.Parse(c, listing.Date("as_of"))
	if err != nil {
		return period.Date{}, "", err
	}
	format, err := export.Negotiate(c)
	if err != nil {
		return period.Date{}, "", err
	}
	d := period.DateOf(h.clock.Now())
	if v := q.Get("as_of"); v != "" {
		d, _ = period.ParseDate(v)
	}
	return d, format, nil
}

type arrearsJSON struct {
	PropertyID     uuid.UUID    `json:"property_id"`
	PropertyName   string       `json:"property_name"`
	ContractID     *uuid.UUID   `json:"contract_id"`
	ContractNumber *string      `json:"contract_number"`
	TenantID       *uuid.UUID   `json:"tenant_id"`
	TenantName     *string      `json:"tenant_name"`
	Currency       string       `json:"currency"`
	Days30         money.Amount `json:"days_0_30"`
	Days60         money.Amount `json:"days_31_60"`
	Days90         money.Amount `json:"days_61_90"`
	Over90         money.Amount `json:"days_over_90"`
	Total          money.Amount `json:"total"`
	OldestDue      period.Date  `json:"oldest_due_date"`
}

type arrearsTotal struct {
	Currency string       `json:"currency"`
	Days30   money.Amount `json:"days_0_30"`
	Days60   money.Amount `json:"days_31_60"`
	Days90   money.Amount `json:"days_61_90"`
	Over90   money.Amount `json:"days_over_90"`
	Total    money.Amount `json:"total"`
}

var arrearsColumns = []export.Column{
	{Name: "property_id", Kind: export.Text}, {Name: "property_name", Kind: export.Text},
	{Name: "contract_id", Kind: export.Text}, {Name: "contract_number", Kind: export.Text},
	{Name: "tenant_id", Kind: export.Text}, {Name: "tenant_name", Kind: export.Text},
	{Name: "currency", Kind: export.Text},
	{Name: "days_0_30", Kind: export.Money}, {Name: "days_31_60", Kind: export.Money},
	{Name: "days_61_90", Kind: export.Money}, {Name: "days_over_90", Kind: export.Money},
	{Name: "total", Kind: export.Money}, {Name: "oldest_due_date", Kind: export.Date},
}

func (h *Handler) arrears(c *fiber.Ctx) error {
	asOf, format, err := h.asOf(c)
	if err != nil {
		return err
	}
	ws := auth.Current(c).WorkspaceID
	if format != export.JSON {
		locale, words := h.words(c)
		export.SendIn(c, format, "arrears-"+asOf.String(), arrearsColumns, locale, words, func(w export.Writer) error {
			ctx, cancel := context.WithTimeout(context.Background(), exportTimeout)
			defer cancel()
			totals := map[string]*arrearsTotal{}
			err := h.svc.Arrears(ctx, ws, asOf, func(r *ArrearsRow) error {
				cur := r.Currency
				t := totals[cur]
				if t == nil {
					t = &arrearsTotal{Currency: cur}
					totals[cur] = t
				}
				t.Days30, t.Days60, t.Days90, t.Over90, t.Total = t.Days30+r.Days30, t.Days60+r.Days60, t.Days90+r.Days90, t.Over90+r.Over90, t.Total+r.Total
				return w.Row(r.PropertyID.String(), r.PropertyName, idText(r.ContractID), nullText(r.ContractNumber),
					idText(r.TenantID), nullText(r.TenantName), cur,
					export.Amount{Value: r.Days30, Currency: cur}, export.Amount{Value: r.Days60, Currency: cur},
					export.Amount{Value: r.Days90, Currency: cur}, export.Amount{Value: r.Over90, Currency: cur},
					export.Amount{Value: r.Total, Currency: cur}, r.OldestDue)
			})
			if err != nil {
				return err
			}
			// The JSON answer's totals, one bold row per currency.
			for _, cur := range sortedKeys(totals) {
				t := totals[cur]
				a := func(v money.Amount) export.Amount { return export.Amount{Value: v, Currency: cur} }
				if err := w.Total(export.TotalLabel(words), nil, nil, nil, nil, nil, cur,
					a(t.Days30), a(t.Days60), a(t.Days90), a(t.Over90), a(t.Total), nil); err != nil {
					return err
				}
			}
			return nil
		})
		return nil
	}
	out := struct {
		AsOf    period.Date     `json:"as_of"`
		Arrears []arrearsJSON   `json:"arrears"`
		Totals  []*arrearsTotal `json:"totals"`
	}{AsOf: asOf, Arrears: []arrearsJSON{}, Totals: []*arrearsTotal{}}
	totals := map[string]*arrearsTotal{}
	err = h.svc.Arrears(httpserver.Context(c), ws, asOf, func(r *ArrearsRow) error {
		out.Arrears = append(out.Arrears, arrearsJSON{
			PropertyID: r.PropertyID, PropertyName: r.PropertyName, ContractID: r.ContractID, ContractNumber: strOf(r.ContractNumber.String, r.ContractNumber.Valid),
			TenantID: r.TenantID, TenantName: strOf(r.TenantName.String, r.TenantName.Valid), Currency: r.Currency,
			Days30: r.Days30, Days60: r.Days60, Days90: r.Days90, Over90: r.Over90, Total: r.Total, OldestDue: r.OldestDue,
		})
		t := totals[r.Currency]
		if t == nil {
			t = &arrearsTotal{Currency: r.Currency}
			totals[r.Currency] = t
			out.Totals = append(out.Totals, t)
		}
		t.Days30 += r.Days30
		t.Days60 += r.Days60
		t.Days90 += r.Days90
		t.Over90 += r.Over90
		t.Total += r.Total
		return nil
	})
	if err != nil {
		return err
	}
	sortTotals(out.Totals, func(t *arrearsTotal) string { return t.Currency })
	return c.JSON(out)
}

type unitJSON struct {
	PropertyID     uuid.UUID     `json:"property_id"`
	PropertyName   string        `json:"property_name"`
	Address        string        `json:"address"`
	City           string        `json:"city"`
	Currency       string        `json:"currency"`
	ContractID     *uuid.UUID    `json:"contract_id"`
	ContractNumber *string       `json:"contract_number"`
	TenantID       *uuid.UUID    `json:"tenant_id"`
	TenantName     *string       `json:"tenant_name"`
	StartDate      *period.Date  `json:"start_date"`
	EndDate        *period.Date  `json:"end_date"`
	Rent           *money.Amount `json:"rent"`
	DepositHeld    *money.Amount `json:"deposit_held"`
	Outstanding    money.Amount  `json:"outstanding"`
	Overdue        money.Amount  `json:"overdue"`
}

type rentRollTotal struct {
	Currency    string       `json:"currency"`
	Units       int          `json:"units"`
	Let         int          `json:"let"`
	Rent        money.Amount `json:"rent"`
	DepositHeld money.Amount `json:"deposit_held"`
	Outstanding money.Amount `json:"outstanding"`
	Overdue     money.Amount `json:"overdue"`
}

var rentRollColumns = []export.Column{
	{Name: "property_id", Kind: export.Text}, {Name: "property_name", Kind: export.Text},
	{Name: "address", Kind: export.Text}, {Name: "city", Kind: export.Text}, {Name: "currency", Kind: export.Text},
	{Name: "contract_id", Kind: export.Text}, {Name: "contract_number", Kind: export.Text},
	{Name: "tenant_id", Kind: export.Text}, {Name: "tenant_name", Kind: export.Text},
	{Name: "start_date", Kind: export.Date}, {Name: "end_date", Kind: export.Date},
	{Name: "rent", Kind: export.Money}, {Name: "deposit_held", Kind: export.Money},
	{Name: "outstanding", Kind: export.Money}, {Name: "overdue", Kind: export.Money},
}

func (h *Handler) rentRoll(c *fiber.Ctx) error {
	asOf, format, err := h.asOf(c)
	if err != nil {
		return err
	}
	ws := auth.Current(c).WorkspaceID
	if format != export.JSON {
		locale, words := h.words(c)
		export.SendIn(c, format, "rent-roll-"+asOf.String(), rentRollColumns, locale, words, func(w export.Writer) error {
			ctx, cancel := context.WithTimeout(context.Background(), exportTimeout)
			defer cancel()
			totals := map[string]*rentRollTotal{}
			err := h.svc.RentRoll(ctx, ws, asOf, func(r *RentRollRow) error {
				cur := r.Currency
				t := totals[cur]
				if t == nil {
					t = &rentRollTotal{Currency: cur}
					totals[cur] = t
				}
				if r.Rent != nil {
					t.Rent += *r.Rent
				}
				if r.DepositHeld != nil {
					t.DepositHeld += *r.DepositHeld
				}
				t.Outstanding += r.Outstanding
				t.Overdue += r.Overdue
				return w.Row(r.PropertyID.String(), r.PropertyName, r.Address, r.City, cur, idText(r.ContractID), nullText(r.ContractNumber),
					idText(r.TenantID), nullText(r.TenantName), r.StartDate, r.EndDate, amountCell(r.Rent, cur), amountCell(r.DepositHeld, cur),
					export.Amount{Value: r.Outstanding, Currency: cur}, export.Amount{Value: r.Overdue, Currency: cur})
			})
			if err != nil {
				return err
			}
			for _, cur := range sortedKeys(totals) {
				t := totals[cur]
				a := func(v money.Amount) export.Amount { return export.Amount{Value: v, Currency: cur} }
				if err := w.Total(export.TotalLabel(words), nil, nil, nil, cur, nil, nil, nil, nil, nil, nil,
					a(t.Rent), a(t.DepositHeld), a(t.Outstanding), a(t.Overdue)); err != nil {
					return err
				}
			}
			return nil
		})
		return nil
	}
	out := struct {
		AsOf   period.Date      `json:"as_of"`
		Units  []unitJSON       `json:"units"`
		Totals []*rentRollTotal `json:"totals"`
	}{AsOf: asOf, Units: []unitJSON{}, Totals: []*rentRollTotal{}}
	totals := map[string]*rentRollTotal{}
	err = h.svc.RentRoll(httpserver.Context(c), ws, asOf, func(r *RentRollRow) error {
		u := unitJSON{PropertyID: r.PropertyID, PropertyName: r.PropertyName, Address: r.Address, City: r.City, Currency: r.Currency,
			ContractID: r.ContractID, ContractNumber: strOf(r.ContractNumber.String, r.ContractNumber.Valid), TenantID: r.TenantID,
			TenantName: strOf(r.TenantName.String, r.TenantName.Valid), StartDate: dateOf(r.StartDate), EndDate: dateOf(r.EndDate),
			Rent: r.Rent, DepositHeld: r.DepositHeld, Outstanding: r.Outstanding, Overdue: r.Overdue}
		out.Units = append(out.Units, u)
		t := totals[r.Currency]
		if t == nil {
			t = &rentRollTotal{Currency: r.Currency}
			totals[r.Currency] = t
			out.Totals = append(out.Totals, t)
		}
		t.Units++
		if r.ContractID != nil {
			t.Let++
		}
		if r.Rent != nil {
			t.Rent += *r.Rent
		}
		if r.DepositHeld != nil {
			t.DepositHeld += *r.DepositHeld
		}
		t.Outstanding += r.Outstanding
		t.Overdue += r.Overdue
		return nil
	})
	if err != nil {
		return err
	}
	sortTotals(out.Totals, func(t *rentRollTotal) string { return t.Currency })
	return c.JSON(out)
}

// income is one year of one workspace or property, every month present.
type income struct {
	Year       int          `json:"year"`
	Basis      string       `json:"basis"`
	PropertyID *uuid.UUID   `json:"property_id"`
	Months     []monthJSON  `json:"months"`
	Totals     []*monthJSON `json:"totals"`
	// property is the one the report is narrowed to (its owner statement).
	property *properties.Property
}

type monthJSON struct {
	Month       string       `json:"month,omitempty"`
	Currency    string       `json:"currency"`
	Charged     money.Amount `json:"charged"`
	Collected   money.Amount `json:"collected"`
	Outstanding money.Amount `json:"outstanding"`
	// The split by the report's basis: income (rent and other income)
	// apart from the deposits and operating-cost prepayments, which are
	// the tenant's money held, not income.
	RentIncome  money.Amount `json:"rent_income"`
	OtherIncome money.Amount `json:"other_income"`
	Income      money.Amount `json:"income"`
	Deposits    money.Amount `json:"deposits"`
	Prepayments money.Amount `json:"prepayments"`
	Advance     money.Amount `json:"advance"`
	NonCash     money.Amount `json:"non_cash"`
}

// add puts r's figures into m.
func (m *monthJSON) add(r *monthJSON) {
	m.Charged += r.Charged
	m.Collected += r.Collected
	m.Outstanding += r.Outstanding
	m.RentIncome += r.RentIncome
	m.OtherIncome += r.OtherIncome
	m.Income += r.Income
	m.Deposits += r.Deposits
	m.Prepayments += r.Prepayments
	m.Advance += r.Advance
	m.NonCash += r.NonCash
}

// cells are m's amounts in incomeColumns' order after month and currency.
func (m *monthJSON) cells() []any {
	out := []any{}
	for _, a := range []money.Amount{m.Charged, m.Collected, m.Outstanding, m.RentIncome, m.OtherIncome, m.Income,
		m.Deposits, m.Prepayments, m.Advance, m.NonCash} {
		out = append(out, export.Amount{Value: a, Currency: m.Currency})
	}
	return out
}

var incomeColumns = []export.Column{
	{Name: "month", Kind: export.Text}, {Name: "currency", Kind: export.Text},
	{Name: "charged", Kind: export.Money}, {Name: "collected", Kind: export.Money}, {Name: "outstanding", Kind: export.Money},
	{Name: "rent_income", Kind: export.Money}, {Name: "other_income", Kind: export.Money}, {Name: "income", Kind: export.Money},
	{Name: "deposits", Kind: export.Money}, {Name: "prepayments", Kind: export.Money}, {Name: "advance", Kind: export.Money},
	{Name: "non_cash", Kind: export.Money},
}

// The bases of the income report.
const (
	BasisCash    = "cash"
	BasisAccrual = "accrual"
)

// incomeOf reads ?year= (default this year) and ?property_id= and runs the
// report: twelve months for each currency with a figure (the property's
// currency, when narrowed to one, even without any).
func (h *Handler) incomeOf(c *fiber.Ctx) (*income, error) {
	yearRule := listing.Filter{Name: "year", Rule: "must be a year from 1900 to 9998", MaxLen: 4, OK: func(v string) bool {
		n, err := strconv.Atoi(v)
		return err == nil && n >= 1900 && n <= 9998
	}}
	q, err := listing.Parse(c, yearRule, listing.UUID("property_id"), listing.OneOf("basis", BasisCash, BasisAccrual))
	if err != nil {
		return nil, err
	}
	p := auth.Current(c)
	ctx := httpserver.Context(c)
	out := &income{Year: h.clock.Now().UTC().Year(), Basis: BasisCash, Months: []monthJSON{}, Totals: []*monthJSON{}}
	if v := q.Get("basis"); v != "" {
		out.Basis = v
	}
	if v := q.Get("year"); v != "" {
		out.Year, _ = strconv.Atoi(v)
	}
	if v := q.Get("property_id"); v != "" {
		prop, err := h.properties.Authorize(ctx, p, v)
		if fault.Is(err, fault.KindForbidden) || err == nil && prop.WorkspaceID != p.WorkspaceID {
			// Another workspace's property is not there for this one.
			return nil, apierror.NotFound("Property not found.")
		}
		if err != nil {
			return nil, err
		}
		out.PropertyID, out.property = &prop.ID, prop
	}
	rows, err := h.svc.Income(ctx, p.WorkspaceID, out.Year, out.PropertyID)
	if err != nil {
		return nil, err
	}
	split, err := h.svc.IncomeBy(ctx, p.WorkspaceID, out.Year, out.PropertyID, out.Basis == BasisCash)
	if err != nil {
		return nil, err
	}
	classes := map[string]money.Amount{}
	for _, r := range split {
		classes[r.Currency+strconv.Itoa(r.Month)+"/"+r.Class] += r.Amount
		if !hasCurrency(rows, r.Currency) {
			rows = append(rows, IncomeRow{Month: r.Month, Currency: r.Currency})
		}
	}
	currencies := []string{}
	byKey := map[string]IncomeRow{}
	for _, r := range rows {
		if _, ok := byKey[r.Currency]; !ok {
			currencies = append(currencies, r.Currency)
			byKey[r.Currency] = IncomeRow{}
		}
		byKey[r.Currency+strconv.Itoa(r.Month)] = r
	}
	if len(currencies) == 0 && out.property != nil {
		currencies = append(currencies, out.property.Currency)
	}
	for _, cur := range currencies {
		t := &monthJSON{Currency: cur}
		for m := 1; m <= 12; m++ {
			r := byKey[cur+strconv.Itoa(m)]
			class := func(c string) money.Amount { return classes[cur+strconv.Itoa(m)+"/"+c] }
			row := monthJSON{Month: period.NewDate(out.Year, time.Month(m), 1).String()[:7], Currency: cur,
				Charged: r.Charged, Collected: r.Collected, Outstanding: r.Outstanding,
				RentIncome: class(ClassRent), OtherIncome: class(ClassOther), Deposits: class(ClassDeposit),
				Prepayments: class(ClassPrepayment), Advance: class(ClassAdvance), NonCash: class(ClassNonCash)}
			row.Income = row.RentIncome + row.OtherIncome
			out.Months = append(out.Months, row)
			t.add(&row)
		}
		out.Totals = append(out.Totals, t)
	}
	return out, nil
}

func (h *Handler) income(c *fiber.Ctx) error {
	svg := strings.EqualFold(c.Query("format"), "svg") || c.Query("format") == "" && strings.Contains(c.Get(fiber.HeaderAccept), "image/svg+xml")
	format := export.JSON
	if !svg {
		var err error
		if format, err = export.Negotiate(c); err != nil {
			if c.Query("format") != "" {
				return apierror.Validation("format: must be one of json, csv, xlsx, svg")
			}
			return err
		}
	}
	inc, err := h.incomeOf(c)
	if err != nil {
		return err
	}
	switch {
	case svg:
		// The chart speaks the reader's language (their profile's).
		locale := "en"
		if u, ok := auth.Current(c).Record.(*accounts.User); ok && u.Locale != "" {
			locale = u.Locale
		}
		c.Set(fiber.HeaderContentType, "image/svg+xml")
		return c.Send(Chart(inc, ChartWordsOf(h.dicts, locale), printstyle.Of(locale)))
	case format != export.JSON:
		name := "income-" + strconv.Itoa(inc.Year)
		months, totals := inc.Months, inc.Totals
		locale, words := h.words(c)
		export.SendIn(c, format, name, incomeColumns, locale, words, func(w export.Writer) error {
			for _, m := range months {
				if err := w.Row(append([]any{m.Month, m.Currency}, m.cells()...)...); err != nil {
					return err
				}
			}
			for _, t := range totals {
				if err := w.Total(append([]any{export.TotalLabel(words), t.Currency}, t.cells()...)...); err != nil {
					return err
				}
			}
			return nil
		})
		return nil
	}
	return c.JSON(inc)
}

var chargeColumns = []export.Column{
	{Name: "id", Kind: export.Text}, {Name: "property_id", Kind: export.Text}, {Name: "property_name", Kind: export.Text},
	{Name: "contract_id", Kind: export.Text}, {Name: "name", Kind: export.Text}, {Name: "kind", Kind: export.Text, Enum: true},
	{Name: "period", Kind: export.Text}, {Name: "due_date", Kind: export.Date}, {Name: "currency", Kind: export.Text},
	{Name: "amount", Kind: export.Money}, {Name: "paid_amount", Kind: export.Money}, {Name: "outstanding", Kind: export.Money},
	{Name: "status", Kind: export.Text, Enum: true},
}

// charges streams every charge of the workspace; it has no JSON form (the
// per-property lists are the JSON ones).
func (h *Handler) charges(c *fiber.Ctx) error {
	format, err := export.Negotiate(c)
	if err != nil {
		return err
	}
	if format == export.JSON {
		if c.Query("format") != "" {
			return apierror.Validation("format: must be csv or xlsx")
		}
		format = export.CSV
	}
	ws := auth.Current(c).WorkspaceID
	locale, words := h.words(c)
	export.SendIn(c, format, "charges", chargeColumns, locale, words, func(w export.Writer) error {
		ctx, cancel := context.WithTimeout(context.Background(), exportTimeout)
		defer cancel()
		return h.svc.Charges(ctx, ws, func(r *ChargeRow) error {
			cur := r.Currency
			return w.Row(r.ID, r.PropertyID, r.PropertyName, nullText(r.ContractID), r.Name, r.Kind, r.Period, r.DueDate, cur,
				export.Amount{Value: r.Amount, Currency: cur}, export.Amount{Value: r.PaidAmount, Currency: cur},
				export.Amount{Value: r.Outstanding(), Currency: cur}, r.State())
		})
	})
	return nil
}

// words are the language of the caller's file (?locale=, else
// Accept-Language, else their profile's) and its words; nil words for
// English, whose files keep the API's field names and codes.
func (h *Handler) words(c *fiber.Ctx) (string, export.Words) {
	locale := export.LocaleOf(c)
	if u, ok := auth.Current(c).Record.(*accounts.User); ok && locale == "" {
		locale = strings.Clone(u.Locale)
	}
	return locale, WordsIn(h.dicts, locale)
}

// WordsIn are the catalogue's words of the export files in locale, nil for
// English (or none).
func WordsIn(dicts *translations.Dictionaries, locale string) export.Words {
	if dicts == nil || locale == "" || locale == "en" {
		return nil
	}
	// One file's words, asked for from its one writing goroutine.
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

func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func idText(id *uuid.UUID) any {
	if id == nil {
		return nil
	}
	return id.String()
}

func strOf(s string, ok bool) *string {
	if !ok {
		return nil
	}
	return &s
}

func dateOf(d period.Date) *period.Date {
	if d.IsZero() {
		return nil
	}
	return &d
}

func amountCell(a *money.Amount, currency string) any {
	if a == nil {
		return nil
	}
	return export.Amount{Value: *a, Currency: currency}
}

func sortTotals[T any](list []T, key func(T) string) {
	for i := 1; i < len(list); i++ {
		for j := i; j > 0 && key(list[j]) < key(list[j-1]); j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}
}

// ownerStatement answers the PDF of one property's month (?month=YYYY-MM,
// default this month).
func (h *Handler) ownerStatement(c *fiber.Ctx) error {
	q, err := listing.Parse(c, listing.UUID("property_id"), listing.Month("month"))
	if err != nil {
		return err
	}
	if q.Get("property_id") == "" {
		return apierror.Validation("property_id: is required")
	}
	p := auth.Current(c)
	ctx := httpserver.Context(c)
	prop, err := h.properties.Authorize(ctx, p, q.Get("property_id"))
	if fault.Is(err, fault.KindForbidden) || err == nil && prop.WorkspaceID != p.WorkspaceID {
		return apierror.NotFound("Property not found.")
	}
	if err != nil {
		return err
	}
	now := h.clock.Now().UTC()
	month := period.NewDate(now.Year(), now.Month(), 1)
	if v := q.Get("month"); v != "" {
		t, _ := time.Parse("2006-01", v)
		month = period.NewDate(t.Year(), t.Month(), 1)
	}
	st, err := h.statements.Load(ctx, prop, month)
	if err != nil {
		return err
	}
	pdf, err := st.PDF(now)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/pdf")
	c.Set(fiber.HeaderContentDisposition, `inline; filename="owner-statement-`+month.String()[:7]+`.pdf"`)
	return c.Send(pdf)
}

// nullText is an empty cell for NULL.
func nullText(s sql.NullString) any {
	if !s.Valid {
		return nil
	}
	return s.String
}

// hasCurrency reports whether rows have a row of the currency: a
// currency with payments only in the split still gets its months.
func hasCurrency(rows []IncomeRow, currency string) bool {
	for i := range rows {
		if rows[i].Currency == currency {
			return true
		}
	}
	return false
}
