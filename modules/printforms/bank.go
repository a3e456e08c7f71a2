package printforms

import (
	"fmt"
	"strings"
	"unicode/utf8"

	qr "github.com/piglig/go-qr"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// The dictionary keys of the bank details and the rent call
// (modules/translations/locales/*.json, bankaccounts.*).
const (
	keyBankDetails    = "bankaccounts.print.bank_details"
	keyBankHolder     = "bankaccounts.print.holder"
	keyBankIBAN       = "bankaccounts.print.iban"
	keyBankBIC        = "bankaccounts.print.bic"
	keyBankName       = "bankaccounts.print.bank_name"
	keyBankPayTo      = "bankaccounts.print.pay_to"
	keyBankClause     = "bankaccounts.print.contract_clause"
	keyBankQRCaption  = "bankaccounts.print.qr_caption"
	keyRemittance     = "bankaccounts.print.remittance"
	keyRemittanceText = "bankaccounts.print.remittance_text"
	keyRentCallTitle  = "bankaccounts.rentcall.title"
	keyRentCallDue    = "bankaccounts.rentcall.due_date"
	// keyLabelValue joins a label and its value in a mail's line ("IBAN:
	// ...", French "IBAN : ...").
	keyLabelValue = "bankaccounts.print.label_value"
)

func init() {
	labelKeys = append(labelKeys, keyBankDetails, keyBankHolder, keyBankIBAN, keyBankBIC, keyBankName, keyBankPayTo,
		keyBankClause, keyBankQRCaption, keyRemittance, keyRemittanceText, keyRentCallTitle, keyRentCallDue, keyLabelValue)
}

// Bank is the account a tenant pays to, as printed: the holder, the IBAN
// (normalised: upper case, no spaces; printed in groups of four), and the
// BIC and the bank's name when known. A nil *Bank prints nothing.
type Bank struct {
	Holder, IBAN, BIC, BankName string
	// Currency is the account's (ISO 4217); a QR code is made only for EUR.
	Currency string
}

// groupIBAN writes iban in groups of four characters.
func groupIBAN(iban string) string {
	var b strings.Builder
	for i, r := range iban {
		if i > 0 && i%4 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// bankRows are the label and value of each line of b that has a value.
func bankRows(l labels, b *Bank) [][2]string {
	rows := [][2]string{{l.get(keyBankHolder), clean(b.Holder, false)}, {l.get(keyBankIBAN), groupIBAN(clean(b.IBAN, false))}}
	if bic := clean(b.BIC, false); strings.TrimSpace(bic) != "" {
		rows = append(rows, [2]string{l.get(keyBankBIC), bic})
	}
	if name := clean(b.BankName, false); strings.TrimSpace(name) != "" {
		rows = append(rows, [2]string{l.get(keyBankName), name})
	}
	return rows
}

// bank writes the section of the bank details, opened by intro (a
// sentence of the form's own, "" for none); nothing when b is nil.
func (d *doc) bank(b *Bank, intro string) {
	if b == nil {
		return
	}
	d.section(d.l.get(keyBankDetails))
	if intro != "" {
		d.para(intro, "", 10, 0, 0)
		d.gap(1)
	}
	for _, r := range bankRows(d.l, b) {
		d.row(r[0], r[1])
	}
}

// BankLines is b as lines of a mail in locale: the request to pay by
// transfer, then "label: value" per line that has a value, and the
// payment reference when remittance is not empty; "" when b is nil, so a
// workspace without an account gets no empty lines.
func (r *Renderer) BankLines(locale string, b *Bank, remittance string) string {
	if b == nil {
		return ""
	}
	l, _ := r.labels.forLocale(locale)
	line := func(label, value string) string {
		return strings.NewReplacer("{label}", label, "{value}", value).Replace(l.get(keyLabelValue))
	}
	lines := []string{l.get(keyBankPayTo)}
	for _, row := range bankRows(l, b) {
		lines = append(lines, line(row[0], row[1]))
	}
	if remittance != "" {
		lines = append(lines, line(l.get(keyRemittance), remittance))
	}
	return strings.Join(lines, "\n")
}

// Remittance is the payment reference of a rent call in locale ("Miete
// 12/2026 Vertrag 2026/001"): the month of the due date and the contract's
// number, at most 140 characters (EPC069-12's unstructured remittance).
func (r *Renderer) Remittance(locale string, due period.Date, number string) string {
	l, _ := r.labels.forLocale(locale)
	text := strings.NewReplacer("{month}", fmt.Sprintf("%02d/%d", int(due.Month()), due.Year()),
		"{number}", clean(number, false)).Replace(l.get(keyRemittanceText))
	return truncateRunes(text, 140)
}

func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// EPC069-12's bounds of an amount: EUR 0.01 to 999,999,999.99.
const (
	epcMinAmount = money.Amount(1)
	epcMaxAmount = money.Amount(99999999999)
)

// EPCPayload is the text of the EPC QR code (GiroCode, EPC069-12 version
// 002) asking to pay amount in currency to b with the remittance text, or
// false when there is none to make: no account, a currency other than the
// euro (the SEPA credit transfer the code stands for is in euros only), or
// no holder or IBAN. An amount outside EUR 0.01 to 999,999,999.99 is left
// empty for the payer to type. The lines: service tag BCD, version 002,
// character set 1 (UTF-8), identification SCT, BIC (may be empty), name
// (at most 70 characters), IBAN, amount (EUR123.45), purpose (empty),
// structured reference (empty), unstructured remittance (at most 140).
func EPCPayload(b *Bank, amount money.Amount, currency, remittance string) (string, bool) {
	if b == nil || !strings.EqualFold(currency, "EUR") || (b.Currency != "" && !strings.EqualFold(b.Currency, "EUR")) {
		return "", false
	}
	name := truncateRunes(strings.Join(strings.Fields(clean(b.Holder, false)), " "), 70)
	iban := strings.ToUpper(strings.Join(strings.Fields(b.IBAN), ""))
	if name == "" || iban == "" {
		return "", false
	}
	sum := ""
	if amount >= epcMinAmount && amount <= epcMaxAmount {
		sum = fmt.Sprintf("EUR%d.%02d", int64(amount)/100, int64(amount)%100)
	}
	text := truncateRunes(strings.Join(strings.Fields(clean(remittance, false)), " "), 140)
	lines := []string{"BCD", "002", "1", "SCT", strings.ToUpper(strings.TrimSpace(b.BIC)), name, iban, sum, "", "", text}
	return strings.Join(lines, "\n"), true
}

// qrCode draws the QR code of payload (byte mode, error correction level
// M as EPC069-12 asks, never raised) as squares size millimetres wide,
// quiet zone included, with its top left corner at x, y.
func (d *doc) qrCode(payload string, x, y, size float64) error {
	seg, err := qr.MakeBytes([]byte(payload))
	if err != nil {
		return err
	}
	code, err := qr.EncodeSegments([]*qr.QrSegment{seg}, qr.Medium, qr.MinVersion, qr.MaxVersion, -1, false)
	if err != nil {
		return err
	}
	const quiet = 4
	n := code.Size()
	m := size / float64(n+2*quiet)
	d.pdf.SetFillColor(0, 0, 0)
	for row := 0; row < n; row++ {
		// One rectangle per run of dark modules keeps the page small.
		for col := 0; col < n; {
			if !code.Module(col, row) {
				col++
				continue
			}
			start := col
			for col < n && code.Module(col, row) {
				col++
			}
			d.pdf.Rect(x+float64(quiet+start)*m, y+float64(quiet+row)*m, float64(col-start)*m, m, "F")
		}
	}
	return nil
}
