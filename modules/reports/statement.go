package reports

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/uptrace/bun"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Statements makes the monthly owner statement of a property.
type Statements struct {
	db       *bun.DB
	accounts *accounts.Service
}

// NewStatements returns the statement maker.
func NewStatements(db *bun.DB, acc *accounts.Service) *Statements {
	return &Statements{db: db, accounts: acc}
}

// Statement is one property's month.
type Statement struct {
	Property *properties.Property
	Month    period.Date // first day
	Locale   string
	Owner    string
	// Lines is what the month's payments paid, by charge name; Credit is
	// what they brought beyond the charges (kept as the tenant's credit).
	Lines       []StatementLine
	Credit      money.Amount
	Income      money.Amount
	Expenses    money.Amount
	Charged     money.Amount
	Outstanding money.Amount
}

// StatementLine is one line of income.
type StatementLine struct {
	Name   string
	Amount money.Amount
}

// Net is the month's income less its expenses.
func (s *Statement) Net() money.Amount { return s.Income - s.Expenses }

// Load reads the month of prop: its income in one statement (posted
// payments received that month, split by the charges they paid), and what
// was charged that month and is still outstanding of it.
//
// Expenses: propman keeps no ledger of what a landlord pays out yet (no
// supplier bills), so the statement shows them as 0.00 with a note; the
// figure is here for the day such a ledger exists.
func (s *Statements) Load(ctx context.Context, prop *properties.Property, month period.Date) (*Statement, error) {
	next := period.NewDate(month.Year(), month.Month()+1, 1)
	st := &Statement{Property: prop, Month: month, Locale: "en"}
	if u, err := s.accounts.User(ctx, prop.OwnerID); err == nil {
		st.Owner = u.Name
		if u.Locale != "" {
			st.Locale = u.Locale
		}
	}
	q := s.db.NewRaw(`SELECT 0 AS part, ch.name, CAST(SUM(a.amount_minor) AS BIGINT)
		FROM payments AS pay
		JOIN payment_allocations AS a ON a.payment_id = pay.id AND a.voided_at IS NULL
		JOIN charges AS ch ON ch.id = a.charge_id
		WHERE pay.property_id = ? AND pay.status = ? AND pay.paid_on >= ? AND pay.paid_on < ?
		GROUP BY ch.name
	UNION ALL
	SELECT 1, '', CAST(COALESCE(SUM(pay.unallocated_minor), 0) AS BIGINT) FROM payments AS pay
		WHERE pay.property_id = ? AND pay.status = ? AND pay.paid_on >= ? AND pay.paid_on < ?
	UNION ALL
	SELECT 2, '', CAST(COALESCE(SUM(ch.amount_minor), 0) AS BIGINT) FROM charges AS ch
		WHERE ch.property_id = ? AND ch.status <> ? AND ch.due_date >= ? AND ch.due_date < ?
	UNION ALL
	SELECT 3, '', CAST(COALESCE(SUM(ch.amount_minor - ch.paid_amount_minor), 0) AS BIGINT) FROM charges AS ch
		WHERE ch.property_id = ? AND ch.status <> ? AND ch.due_date >= ? AND ch.due_date < ?
	ORDER BY 1, 2`,
		prop.ID, payments.Posted, month, next,
		prop.ID, payments.Posted, month, next,
		prop.ID, expenses.Cancelled, month, next,
		prop.ID, expenses.Cancelled, month, next)
	text, args, err := database.Render(s.db, q)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.DB.QueryContext(ctx, text, args...)
	if err != nil {
		return nil, fmt.Errorf("owner statement: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var part int
		var name sql.NullString
		var amount money.Amount
		if err := rows.Scan(&part, &name, &amount); err != nil {
			return nil, fmt.Errorf("owner statement: %w", err)
		}
		switch part {
		case 0:
			st.Lines = append(st.Lines, StatementLine{Name: name.String, Amount: amount})
			st.Income += amount
		case 1:
			st.Credit = amount
			st.Income += amount
		case 2:
			st.Charged = amount
		case 3:
			st.Outstanding = amount
		}
	}
	return st, rows.Err()
}

// statementWords are the statement's texts per language; others get
// English.
var statementWords = map[string]map[string]string{
	"en": {"title": "Owner statement", "owner": "Owner", "property": "Property", "month": "Month", "income": "Income",
		"credit": "Paid in advance (tenant credit)", "expenses": "Expenses", "noexp": "No expenses recorded for this property.",
		"net": "Net", "charged": "Charged this month", "outstanding": "Still outstanding of this month", "total": "Total income", "none": "No payments received."},
	"de": {"title": "Eigentümerabrechnung", "owner": "Eigentümer", "property": "Objekt", "month": "Monat", "income": "Einnahmen",
		"credit": "Vorauszahlung (Guthaben des Mieters)", "expenses": "Ausgaben", "noexp": "Für dieses Objekt sind keine Ausgaben erfasst.",
		"net": "Überschuss", "charged": "In diesem Monat berechnet", "outstanding": "Davon noch offen", "total": "Summe der Einnahmen", "none": "Keine Zahlungen eingegangen."},
	"fr": {"title": "Relevé propriétaire", "owner": "Propriétaire", "property": "Bien", "month": "Mois", "income": "Recettes",
		"credit": "Payé d'avance (avoir du locataire)", "expenses": "Dépenses", "noexp": "Aucune dépense enregistrée pour ce bien.",
		"net": "Net", "charged": "Facturé ce mois", "outstanding": "Reste dû de ce mois", "total": "Total des recettes", "none": "Aucun paiement reçu."},
	"es": {"title": "Liquidación al propietario", "owner": "Propietario", "property": "Inmueble", "month": "Mes", "income": "Ingresos",
		"credit": "Pagado por adelantado (saldo del inquilino)", "expenses": "Gastos", "noexp": "No hay gastos registrados para este inmueble.",
		"net": "Neto", "charged": "Facturado este mes", "outstanding": "Pendiente de este mes", "total": "Total de ingresos", "none": "No se recibieron pagos."},
	"uk": {"title": "Звіт власнику", "owner": "Власник", "property": "Об'єкт", "month": "Місяць", "income": "Доходи",
		"credit": "Передоплата (кредит орендаря)", "expenses": "Витрати", "noexp": "Витрат для цього об'єкта не зареєстровано.",
		"net": "Чистий дохід", "charged": "Нараховано цього місяця", "outstanding": "Залишок до сплати за цей місяць", "total": "Усього доходів", "none": "Платежів не надходило."},
}

func wordsOf(locale string) map[string]string {
	lang := strings.ToLower(locale)
	if i := strings.IndexAny(lang, "-_"); i > 0 {
		lang = lang[:i]
	}
	if w, ok := statementWords[lang]; ok {
		return w
	}
	return statementWords["en"]
}

// PDF draws st on one A4 page (more when it has many lines), amounts and
// dates written as the owner's locale writes them (printforms.StyleOf).
func (s *Statement) PDF(created time.Time) ([]byte, error) {
	w := wordsOf(s.Locale)
	style := printforms.StyleOf(s.Locale)
	cur := s.Property.Currency
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetMargins(20, 20, 20)
	pdf.SetAutoPageBreak(true, 20)
	pdf.AddUTF8FontFromBytes("go", "", goregular.TTF)
	pdf.AddUTF8FontFromBytes("go", "B", gobold.TTF)
	created = created.UTC().Truncate(time.Second)
	pdf.SetCreationDate(created)
	pdf.SetModificationDate(created)
	pdf.SetTitle(w["title"], true)
	pdf.SetCreator("propman", true)
	pdf.SetProducer("propman", true)
	pdf.SetLang(s.Locale)
	pdf.AddPage()
	pdf.SetFont("go", "B", 16)
	pdf.CellFormat(0, 9, w["title"], "", 1, "L", false, 0, "")
	pdf.SetFont("go", "", 10)
	label := func(k, v string) {
		pdf.SetFont("go", "B", 10)
		pdf.CellFormat(40, 6, w[k], "", 0, "L", false, 0, "")
		pdf.SetFont("go", "", 10)
		pdf.CellFormat(0, 6, printforms.Printable(v, false), "", 1, "L", false, 0, "")
	}
	if s.Owner != "" {
		label("owner", s.Owner)
	}
	addr := s.Property.Name
	if a := strings.TrimSpace(strings.Join([]string{s.Property.Address, s.Property.PostalCode, s.Property.City}, " ")); a != "" {
		addr += ", " + a
	}
	label("property", addr)
	label("month", style.Period(s.Month.String()[:7]))
	pdf.Ln(4)
	amountRow := func(name string, a money.Amount, bold bool) {
		f := ""
		if bold {
			f = "B"
		}
		pdf.SetFont("go", f, 10)
		pdf.CellFormat(120, 6, printforms.Printable(name, false), "", 0, "L", false, 0, "")
		pdf.CellFormat(0, 6, style.Money(a, cur), "", 1, "R", false, 0, "")
	}
	section := func(k string) {
		pdf.Ln(2)
		pdf.SetFont("go", "B", 12)
		pdf.CellFormat(0, 8, w[k], "B", 1, "L", false, 0, "")
	}
	section("income")
	if len(s.Lines) == 0 && s.Credit == 0 {
		pdf.SetFont("go", "", 10)
		pdf.CellFormat(0, 6, w["none"], "", 1, "L", false, 0, "")
	}
	for _, l := range s.Lines {
		amountRow(l.Name, l.Amount, false)
	}
	if s.Credit != 0 {
		amountRow(w["credit"], s.Credit, false)
	}
	amountRow(w["total"], s.Income, true)
	section("expenses")
	if s.Expenses == 0 {
		pdf.SetFont("go", "", 10)
		pdf.CellFormat(0, 6, w["noexp"], "", 1, "L", false, 0, "")
	}
	amountRow(w["expenses"], s.Expenses, true)
	section("net")
	amountRow(w["net"], s.Net(), true)
	pdf.Ln(4)
	amountRow(w["charged"], s.Charged, false)
	amountRow(w["outstanding"], s.Outstanding, false)
	var out bytes.Buffer
	if err := pdf.Output(&out); err != nil {
		return nil, fmt.Errorf("owner statement: %w", err)
	}
	return out.Bytes(), nil
}
