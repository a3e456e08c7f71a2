package printforms

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// methodSetOff is the payment method of a set-off (payments.SetOff): its
// receipt is printed as a set-off statement, since no money was received.
const methodSetOff = "set_off"

// The statuses of a receipt.
const (
	ReceiptIssued = "issued"
	ReceiptVoid   = "void"
)

// Receipt is everything a receipt's print form shows. The receipts module
// fills it in; printforms renders it (Renderer.Receipt).
type Receipt struct {
	Number   string    // YYYY-NNNNNN
	IssuedAt time.Time // printed as its UTC date
	// Landlord is who received the money and issues the receipt: the
	// owner's name, and the profile's postal address as the contract form
	// writes it (empty: none on file, the row shows the name alone).
	Landlord Party
	// PayerName is who paid (the payer contragent's name); empty prints
	// nothing.
	PayerName       string
	PropertyName    string
	PropertyAddress string
	Currency        string
	// PaidOn is the day the money was paid, Method how (bank_transfer,
	// cash, card, cheque, direct_debit, other: printed in the locale;
	// anything else as it is; set_off prints a set-off statement),
	// Reference the payer's reference (empty prints nothing).
	PaidOn    period.Date
	Method    string
	Reference string
	// ContractNumber is the number of the contract the payment was for
	// (empty: none).
	ContractNumber string
	Lines          []ReceiptLine
	Total          money.Amount
	// Balance is what was still owed right after this payment: on the
	// contract when ContractNumber is set, else on the property (nil
	// prints nothing). Credit is what the payment kept for later charges.
	Balance *money.Amount
	Credit  money.Amount
	// Quittance: the payment left the month's rent and charges of its
	// contract fully paid (payments.Service.SettlesMonth), so the form is a
	// rent receipt (France: quittance de loyer, loi 89-462 art. 21); any
	// other payment gets a plain receipt (reçu).
	Quittance bool
	// Status is ReceiptIssued or ReceiptVoid; a void receipt is printed
	// with a note under its title and a large "VOID" across every page.
	Status string
	// Bank is the account the contract's rent is paid to, printed for the
	// payments to come (nil: none on file, or no contract; nothing
	// printed).
	Bank *Bank
}

// ReceiptLine is one charge the payment went to.
type ReceiptLine struct {
	// Charge is the charge's name as stored. The names the service gives
	// its own charges ("Rent, contract 2026/001", "Deposit", "Late fee:
	// ...", a meter's "Electricity 2026-11 (...)") are printed in the
	// locale; a name the landlord typed is printed as written.
	Charge string
	// Period is the charge's period label (YYYY-MM, YYYY-Qn, YYYY), printed
	// in the locale's order; anything else is printed as it is.
	Period string
	Amount money.Amount // the part of the payment allocated to it
}

// PrintableReceipt is what a ReceiptSource answers for one receipt.
type PrintableReceipt struct {
	Receipt Receipt
	// DefaultLocale is the locale used without ?locale= (the owner's
	// profile locale); English when it is empty or not an active language.
	DefaultLocale string
	// LandlordAddress is the owner's postal address (nil: none on file);
	// ReceiptJob writes it into Receipt.Landlord in the form's locale.
	LandlordAddress *accounts.PostalAddress
	// Version changes whenever anything printed changes (for example the
	// receipt's id, status and updated_at, and those of its payer and
	// property): the ETag and the rendered-bytes cache key are made of it.
	Version string
}

// ReceiptSource is the adapter point for the receipts module: it finds a
// receipt the caller may print. It refuses with platform/fault kinds like every
// Authorize in this code base: 404 not_found for a non-UUID or unknown id,
// 403 forbidden for another user's receipt (unless p is an admin).
//
// To serve GET /print-forms/receipts/{receiptId}: have modules/receipts
// provide an implementation to fx as a printforms.ReceiptSource (e.g.
// fx.Provide(fx.Annotate(newPrintSource, fx.As(new(printforms.ReceiptSource))))),
// uncomment the route line in routes.go, and add the operation README.md
// gives to openapi.yaml; Handler.receipt does the rest.
type ReceiptSource interface {
	PrintableReceipt(ctx context.Context, p auth.Principal, rawID string) (PrintableReceipt, error)
}

// TenantReceipts is the tenant portal's (modules/tenancy) check for GET
// /tenancy/contracts/{contractId}/receipts/{receiptId}/pdf: it returns the
// principal of the contract's workspace to read the receipt with when the
// user is the contract's linked tenant and the receipt is of a payment of
// that contract; a not-found refusal (platform/fault) otherwise. Defined here, where it is used:
// the portal imports this package, not the other way round.
type TenantReceipts interface {
	TenantReceipt(ctx context.Context, userID int64, rawContractID, rawReceiptID string) (auth.Principal, error)
}

// Receipt renders rc in locale as a PDF.
func (r *Renderer) Receipt(locale string, rc Receipt) (out []byte, err error) {
	defer recoverRender(&err)
	l, _ := r.labels.forLocale(locale)
	number := clean(rc.Number, false)
	// A set-off is no payment: its statement says so, and thanks for
	// nothing (LANDLORD-CORE: "Set-offs are not payments").
	setOff := rc.Method == methodSetOff
	titleKey, numberKey, payerKey, dateKey, balanceContract, balanceProperty :=
		keyReceiptTitle, keyReceiptNumber, keyPayer, keyPaidOn, keyBalanceContract, keyBalanceProperty
	if rc.Quittance && !setOff {
		titleKey, numberKey = keyQuittanceTitle, keyQuittanceNumber
	}
	if setOff {
		titleKey, numberKey, payerKey, dateKey, balanceContract, balanceProperty =
			keySetOffTitle, keySetOffNumber, keySetOffTenant, keySetOffDate, keySetOffBalanceContract, keySetOffBalanceProperty
	}
	title := l.get(titleKey)
	d := newDoc(locale, l, title+" "+number, rc.IssuedAt)
	d.title(title, l.get(numberKey)+" "+number)
	if setOff {
		d.font("", 10)
		d.color(0)
		for _, line := range d.wrap(l.get(keySetOffNote), contentW) {
			d.cell(marginL, contentW, d.lineH(), line, "L")
			d.gap(d.lineH())
		}
		d.gap(3)
	}
	void := rc.Status == ReceiptVoid
	if void {
		d.font("B", 11)
		d.color(0)
		d.pdf.SetTextColor(190, 20, 20)
		for _, line := range d.wrap(l.get(keyVoidNote), contentW) {
			d.cell(marginL, contentW, d.lineH(), line, "L")
			d.gap(d.lineH())
		}
		d.gap(3)
	}
	d.row(l.get(keyIssuedOn), d.st.Date(period.DateOf(rc.IssuedAt)))
	if n := clean(rc.Landlord.Name, false); strings.TrimSpace(n) != "" {
		d.row(l.get(keyLandlord), n)
		if a := clean(rc.Landlord.Address, false); strings.TrimSpace(a) != "" {
			d.row(l.get(keyAddress), a)
		}
	}
	if p := clean(rc.PayerName, false); strings.TrimSpace(p) != "" {
		d.row(l.get(payerKey), p)
	}
	if !rc.PaidOn.IsZero() {
		d.row(l.get(dateKey), d.st.Date(rc.PaidOn))
	}
	if rc.Method != "" && !setOff {
		d.row(l.get(keyMethod), d.method(rc.Method))
	}
	if ref := clean(rc.Reference, false); strings.TrimSpace(ref) != "" {
		d.row(l.get(keyReference), ref)
	}
	if n := clean(rc.ContractNumber, false); strings.TrimSpace(n) != "" {
		d.row(l.get(keyReceiptContract), n)
	}
	d.row(l.get(keyProperty), clean(rc.PropertyName, false))
	if a := clean(rc.PropertyAddress, false); strings.TrimSpace(a) != "" {
		d.row(l.get(keyAddress), a)
	}
	d.gap(4)
	currency := clean(rc.Currency, false)
	d.receiptTable(rc.Lines, rc.Total, currency)
	d.gap(1)
	if rc.Credit > 0 {
		d.sumLine(l.get(keyCredit), d.st.Money(rc.Credit, currency), "")
	}
	if rc.Balance != nil {
		key := balanceProperty
		if strings.TrimSpace(rc.ContractNumber) != "" {
			key = balanceContract
		}
		d.sumLine(l.get(key), d.st.Money(*rc.Balance, currency), "B")
	}
	d.gap(2)
	d.bank(rc.Bank, "")

	d.gap(14)
	d.need(22)
	top := d.pdf.GetY()
	d.signLine(marginL, top+10, 80, l.get(keySignature))
	d.signLine(marginL+100, top+10, 50, l.get(keyDate))
	d.pdf.SetY(top + 16)

	watermark := ""
	if void {
		watermark = l.get(keyVoid)
	}
	return d.finish(title+" "+number, watermark)
}

// Column widths of the receipt's table.
const (
	colCharge = contentW - colPeriod - colAmount
	colPeriod = 32.0
	colAmount = 42.0
)

// receiptTable writes the lines (charge, period, amount) under a shaded
// header, and the total; a long table continues on the next page with its
// header repeated.
func (d *doc) receiptTable(lines []ReceiptLine, total money.Amount, currency string) {
	header := func() {
		d.font("B", 9.5)
		h := d.lineH() + 2
		d.need(h + 2*d.lineH())
		y := d.pdf.GetY()
		d.pdf.SetFillColor(235, 235, 235)
		d.pdf.Rect(marginL, y, contentW, h, "F")
		d.color(0)
		d.pdf.SetY(y + 1)
		d.cell(marginL+1, colCharge-2, h-2, d.l.get(keyCharge), "L")
		d.pdf.SetY(y + 1)
		d.cell(marginL+colCharge, colPeriod, h-2, d.fit(d.l.get(keyPeriod), colPeriod), "L")
		d.pdf.SetY(y + 1)
		d.cell(marginL+colCharge+colPeriod, colAmount-1, h-2, d.fit(d.l.get(keyAmount), colAmount-1), "R")
		d.pdf.SetY(y + h + 1)
	}
	// A set-off that settled nothing (all of it kept as a credit) has no
	// table to head.
	if len(lines) > 0 {
		header()
	}
	for _, ln := range lines {
		d.font("", 10)
		h := d.lineH()
		names := d.wrap(d.chargeName(clean(ln.Charge, false)), colCharge-3)
		if len(names) == 0 {
			names = []string{""}
		}
		// A row that fits on a page is not split.
		if rowH := float64(len(names)) * h; rowH <= (bottom-marginT)/2 && d.pdf.GetY()+rowH > bottom {
			d.pdf.AddPage()
			header()
		}
		for i, name := range names {
			if d.pdf.GetY()+h > bottom {
				d.pdf.AddPage()
				header()
			}
			d.font("", 10)
			d.color(0)
			y := d.pdf.GetY()
			d.cell(marginL+1, colCharge-3, h, name, "L")
			if i == 0 {
				d.pdf.SetY(y)
				d.cell(marginL+colCharge, colPeriod, h, d.fit(d.st.Period(clean(ln.Period, false)), colPeriod), "L")
				d.pdf.SetY(y)
				d.cell(marginL+colCharge+colPeriod, colAmount-1, h, d.st.Money(ln.Amount, currency), "R")
			}
			d.pdf.SetY(y + h)
		}
		d.gap(0.8)
		d.rule(210)
		d.gap(0.8)
	}
	d.font("B", 11)
	h := d.lineH()
	d.need(h + 2)
	d.gap(1)
	y := d.pdf.GetY()
	d.color(0)
	d.cell(marginL+1, colCharge+colPeriod-1, h, d.l.get(keyTotal), "L")
	d.pdf.SetY(y)
	d.cell(marginL+colCharge, colPeriod+colAmount-1, h, d.st.Money(total, currency), "R")
	d.pdf.SetY(y + h)
	d.pdf.SetDrawColor(0, 0, 0)
	d.pdf.SetLineWidth(0.4)
	d.pdf.Line(marginL, y-0.5, pageW-marginR, y-0.5)
}

// sumLine writes a line under the table's total: its label over the
// charge and period columns, the amount right-aligned under the amounts.
func (d *doc) sumLine(label, amount, style string) {
	d.font(style, 10)
	h := d.lineH()
	labels := d.wrap(label, colCharge+colPeriod-4)
	d.need(float64(len(labels))*h + 1)
	d.gap(1)
	y := d.pdf.GetY()
	d.color(0)
	d.pdf.SetY(y)
	d.cell(marginL+colCharge, colPeriod+colAmount-1, h, amount, "R")
	d.pdf.SetY(y)
	for _, line := range labels {
		d.cell(marginL+1, colCharge+colPeriod-4, h, line, "L")
		d.gap(h)
	}
}

// recoverRender turns a panic inside the PDF library into an error (a 500
// for that one request) instead of a crash.
func recoverRender(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("printforms: rendering failed: %v", r)
	}
}
