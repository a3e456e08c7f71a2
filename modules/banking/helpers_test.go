package banking_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/testkit"
)

// entry is one booked line the tests write into a statement.
type entry struct {
	Ref    string // the bank's reference; "" for none
	Date   string // YYYY-MM-DD
	Cents  int64  // signed
	Name   string
	IBAN   string
	Text   string
	Return string // a return reason code: a returned direct debit
	E2E    string // the end-to-end reference; "" writes NOTPROVIDED
	// SubFamily is the CAMT bank transaction code's sub-family ("" is
	// ESCT, a credit transfer; UPDD an unpaid direct debit).
	SubFamily string
}

func (e entry) amount() string { return fmt.Sprintf("%d.%02d", abs(e.Cents)/100, abs(e.Cents)%100) }

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// camt writes a camt.053.001.0<version> statement (ISO 20022 schema
// order: GrpHdr, Stmt with Id, CreDtTm, Acct, Bal, Ntry).
func camt(version int, iban string, entries []entry) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.%02d" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<BkToCstmrStmt><GrpHdr><MsgId>MSG-1</MsgId><CreDtTm>2026-11-22T08:00:00</CreDtTm></GrpHdr>
<Stmt><Id>STMT-1</Id><CreDtTm>2026-11-22T08:00:00</CreDtTm><Acct><Id><IBAN>%s</IBAN></Id><Ccy>EUR</Ccy></Acct>
`, version, iban)
	for _, e := range entries {
		ind, party, acct := "CRDT", "Dbtr", "DbtrAcct"
		if e.Cents < 0 {
			ind = "DBIT"
		}
		if e.Cents < 0 && e.Return == "" {
			party, acct = "Cdtr", "CdtrAcct"
		}
		name := "<Nm>" + e.Name + "</Nm>"
		if version >= 8 {
			name = "<Pty><Nm>" + e.Name + "</Nm></Pty>"
		}
		sts := "<Sts>BOOK</Sts>"
		if version >= 6 {
			sts = "<Sts><Cd>BOOK</Cd></Sts>"
		}
		b.WriteString("<Ntry>")
		if e.Ref != "" {
			fmt.Fprintf(&b, "<NtryRef>%s</NtryRef>", e.Ref)
		}
		fmt.Fprintf(&b, `<Amt Ccy="EUR">%s</Amt><CdtDbtInd>%s</CdtDbtInd>`, e.amount(), ind)
		if e.Return != "" {
			b.WriteString("<RvslInd>true</RvslInd>")
		}
		fmt.Fprintf(&b, "%s<BookgDt><Dt>%s</Dt></BookgDt><ValDt><Dt>%s</Dt></ValDt>", sts, e.Date, e.Date)
		if e.Ref != "" {
			fmt.Fprintf(&b, "<AcctSvcrRef>%s</AcctSvcrRef>", e.Ref)
		}
		sub, e2e := "ESCT", "NOTPROVIDED"
		if e.SubFamily != "" {
			sub = e.SubFamily
		}
		if e.E2E != "" {
			e2e = e.E2E
		}
		fmt.Fprintf(&b, "<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>%s</SubFmlyCd></Fmly></Domn></BkTxCd>", sub)
		fmt.Fprintf(&b, "<NtryDtls><TxDtls><Refs><EndToEndId>%s</EndToEndId></Refs><RltdPties><%s>%s</%s>", e2e, party, name, party)
		if e.IBAN != "" {
			fmt.Fprintf(&b, "<%s><Id><IBAN>%s</IBAN></Id></%s>", acct, e.IBAN, acct)
		}
		b.WriteString("</RltdPties>")
		if e.Text != "" {
			fmt.Fprintf(&b, "<RmtInf><Ustrd>%s</Ustrd></RmtInf>", xmlEscape(e.Text))
		}
		if e.Return != "" {
			fmt.Fprintf(&b, "<RtrInf><Rsn><Cd>%s</Cd></Rsn></RtrInf>", e.Return)
		}
		b.WriteString("</TxDtls></NtryDtls></Ntry>\n")
	}
	b.WriteString("</Stmt></BkToCstmrStmt></Document>\n")
	return []byte(b.String())
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// mt940 writes one MT940 statement with German structured :86: fields;
// closingDelta breaks the closing balance when not 0.
func mt940(entries []entry, closingDelta int64) []byte {
	var b strings.Builder
	opening := int64(100000)
	b.WriteString(":20:STARTUMSE\r\n:25:37040044/0532013000\r\n:28C:00001/001\r\n")
	fmt.Fprintf(&b, ":60F:C261031EUR%s\r\n", mtAmount(opening))
	sum := opening
	for _, e := range entries {
		d := strings.ReplaceAll(e.Date[2:], "-", "")
		mark := "C"
		if e.Cents < 0 {
			mark = "D"
		}
		ref := "NONREF"
		if e.Ref != "" {
			ref = "NONREF//" + e.Ref
		}
		fmt.Fprintf(&b, ":61:%s%s%s%sNTRF%s\r\n", d, d[2:], mark, mtAmount(abs(e.Cents)), ref)
		gvc := "166"
		if e.Return != "" {
			gvc = "109"
		}
		purpose := e.Text
		if e.Return != "" {
			purpose = "RETOURE " + e.Return + " " + e.Text
		}
		if e.E2E != "" {
			// SEPA's structured purpose, as German banks write it.
			purpose = "EREF+" + e.E2E + " SVWZ+" + purpose
		}
		var sub strings.Builder
		fmt.Fprintf(&sub, "%s?00GUTSCHR. UEBERWEISUNG", gvc)
		for i, chunk := range chunks(purpose, 27) {
			fmt.Fprintf(&sub, "?%d%s", 20+i, chunk)
		}
		fmt.Fprintf(&sub, "?30COBADEFFXXX?31%s", e.IBAN)
		for i, chunk := range chunks(e.Name, 27) {
			fmt.Fprintf(&sub, "?%d%s", 32+i, chunk)
		}
		// :86: lines are at most 65 characters.
		for i, chunk := range chunks(sub.String(), 65) {
			if i == 0 {
				b.WriteString(":86:")
			}
			b.WriteString(chunk + "\r\n")
		}
		sum += e.Cents
	}
	fmt.Fprintf(&b, ":62F:C261122EUR%s\r\n-\r\n", mtAmount(sum+closingDelta))
	return []byte(b.String())
}

func mtAmount(cents int64) string { return fmt.Sprintf("%d,%02d", cents/100, cents%100) }

func chunks(s string, n int) []string {
	var out []string
	r := []rune(s)
	for len(r) > n {
		out = append(out, string(r[:n]))
		r = r[n:]
	}
	if len(r) > 0 {
		out = append(out, string(r))
	}
	return out
}

// ofx writes an OFX 1.x (SGML, no end tags on leaves) or 2.x (XML) file.
func ofx(xml bool, entries []entry) []byte {
	var b strings.Builder
	if xml {
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>` + "\n")
	} else {
		b.WriteString("OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nSECURITY:NONE\r\nENCODING:USASCII\r\nCHARSET:1252\r\nCOMPRESSION:NONE\r\nOLDFILEUID:NONE\r\nNEWFILEUID:NONE\r\n\r\n")
	}
	leaf := func(tag, v string) {
		if xml {
			fmt.Fprintf(&b, "<%s>%s</%s>\n", tag, xmlEscape(v), tag)
		} else {
			fmt.Fprintf(&b, "<%s>%s\n", tag, xmlEscape(v))
		}
	}
	b.WriteString("<OFX><SIGNONMSGSRSV1><SONRS><STATUS>")
	leaf("CODE", "0")
	leaf("SEVERITY", "INFO")
	b.WriteString("</STATUS>")
	leaf("DTSERVER", "20261122080000")
	leaf("LANGUAGE", "ENG")
	b.WriteString("</SONRS></SIGNONMSGSRSV1><BANKMSGSRSV1><STMTTRNRS>")
	leaf("TRNUID", "1")
	b.WriteString("<STATUS>")
	leaf("CODE", "0")
	leaf("SEVERITY", "INFO")
	b.WriteString("</STATUS><STMTRS>")
	leaf("CURDEF", "EUR")
	b.WriteString("<BANKACCTFROM>")
	leaf("BANKID", "37040044")
	leaf("ACCTID", "0532013000")
	leaf("ACCTTYPE", "CHECKING")
	b.WriteString("</BANKACCTFROM><BANKTRANLIST>")
	leaf("DTSTART", "20261101")
	leaf("DTEND", "20261122")
	for _, e := range entries {
		b.WriteString("<STMTTRN>")
		kind := "CREDIT"
		if e.Cents < 0 {
			kind = "DEBIT"
		}
		leaf("TRNTYPE", kind)
		leaf("DTPOSTED", strings.ReplaceAll(e.Date, "-", "")+"120000")
		sign := ""
		if e.Cents < 0 {
			sign = "-"
		}
		leaf("TRNAMT", sign+e.amount())
		leaf("FITID", e.Ref)
		leaf("NAME", e.Name)
		if e.IBAN != "" {
			b.WriteString("<BANKACCTTO>")
			leaf("BANKID", "COBADEFFXXX")
			leaf("ACCTID", e.IBAN)
			leaf("ACCTTYPE", "CHECKING")
			b.WriteString("</BANKACCTTO>")
		}
		leaf("MEMO", e.Text)
		b.WriteString("</STMTTRN>\n")
	}
	b.WriteString("</BANKTRANLIST><LEDGERBAL>")
	leaf("BALAMT", "1000.00")
	leaf("DTASOF", "20261122")
	b.WriteString("</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n")
	return []byte(b.String())
}

// sparkasseCSV writes a German bank's CSV export (preamble, ; and decimal
// comma).
func sparkasseCSV(entries []entry) []byte {
	var b strings.Builder
	b.WriteString("\"Umsatzanzeige\";\"Konto DE89370400440532013000\"\n\n")
	b.WriteString("Buchungstag;Valutadatum;Beguenstigter/Zahlungspflichtiger;Kontonummer/IBAN;Verwendungszweck;Betrag;Waehrung\n")
	for _, e := range entries {
		d := e.Date[8:10] + "." + e.Date[5:7] + "." + e.Date[0:4]
		sign := ""
		if e.Cents < 0 {
			sign = "-"
		}
		fmt.Fprintf(&b, "%s;%s;\"%s\";%s;\"%s\";%s%s;EUR\n", d, d, e.Name, e.IBAN, e.Text, sign, strings.ReplaceAll(e.amount(), ".", ","))
	}
	return []byte(b.String())
}

var sparkasseMapping = map[string]any{"delimiter": ";", "date_format": "DD.MM.YYYY", "decimal_comma": true,
	"date": "Buchungstag", "amount": "Betrag", "name": "Beguenstigter/Zahlungspflichtiger", "iban": "Kontonummer/IBAN", "text": "Verwendungszweck"}

// fixture is an app with a landlord, a property in Germany, a bank
// account and the contracts the test adds.
type fixture struct {
	app      *testkit.App
	user     accountstest.User
	property string
	account  string
	// propOf is each contract's property (one unit each, so that the
	// contracts' dates may overlap).
	propOf map[string]string
	props  []string
}

func start(t testing.TB, opts ...testkit.Option) *fixture {
	t.Helper()
	app := testkit.Start(t, opts...)
	u := accountstest.NewUser(t, app)
	f := &fixture{app: app, user: u, propOf: map[string]string{}}
	f.property = id(t, app.Post("/api/v1/properties", u.Token, map[string]any{"name": "Haus am See", "country_code": "DE"}).Expect(http.StatusCreated))
	f.account = id(t, app.Post("/api/v1/bank-accounts", u.Token, map[string]any{"holder": "Hausverwaltung Schmidt", "iban": "DE89370400440532013000"}).Expect(http.StatusCreated))
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	return f
}

func id(t testing.TB, r *testkit.Response) string {
	t.Helper()
	var v struct {
		ID string `json:"id"`
	}
	r.JSON(&v)
	return v.ID
}

// contract adds an active contract of a new tenant, rent in euros from
// start, and bills it up to today.
func (f *fixture) contract(t testing.TB, number, tenant string, rent int, startDate string) string {
	t.Helper()
	return f.contractIn(t, number, tenant, rent, startDate, "")
}

// contractIn is contract with the contract's locale ("" for the default).
func (f *fixture) contractIn(t testing.TB, number, tenant string, rent int, startDate, locale string) string {
	t.Helper()
	tid := id(t, f.app.Post("/api/v1/contragents", f.user.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": tenant}).Expect(http.StatusCreated))
	return f.contractOf(t, number, tid, rent, startDate, locale)
}

// contractOf adds an active contract of the tenant contragent tid in a
// property of its own, billed up to today.
func (f *fixture) contractOf(t testing.TB, number, tid string, rent int, startDate, locale string) string {
	t.Helper()
	prop := id(t, f.app.Post("/api/v1/properties", f.user.Token, map[string]any{"name": "Wohnung " + number, "country_code": "DE"}).Expect(http.StatusCreated))
	body := map[string]any{"property_id": prop, "tenant_id": tid, "number": number,
		"terms": []any{map[string]any{"code": "MONTHLY_RENT_AMOUNT", "value": rent}, map[string]any{"code": "CONTRACT_START_DATE", "value": startDate}}}
	if locale != "" {
		body["locale"] = locale
	}
	c := id(t, f.app.Post("/api/v1/contracts", f.user.Token, body).Expect(http.StatusCreated))
	f.app.Post("/api/v1/contracts/"+c+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	f.propOf[c] = prop
	f.props = append(f.props, prop)
	return c
}

func (f *fixture) bill(t testing.TB) {
	t.Helper()
	for _, p := range f.props {
		f.app.Post("/api/v1/properties/"+p+"/expenses/refresh-all?since=2026-09", f.user.Token, nil).Expect(http.StatusOK)
	}
}

type result struct {
	Format     string `json:"format"`
	Lines      int    `json:"lines"`
	Duplicates int    `json:"duplicates"`
	Posted     int    `json:"posted"`
	Suggested  int    `json:"suggested"`
	Unmatched  int    `json:"unmatched"`
	Debits     int    `json:"debits"`
	Returns    int    `json:"returns"`
}

// upload sends a statement file to the account as token.
func (f *fixture) upload(account, token string, data []byte, fields map[string]string) *testkit.Response {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	fw, _ := w.CreateFormFile("file", "statement")
	_, _ = fw.Write(data)
	_ = w.Close()
	return f.app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/bank-accounts/" + account + "/statements",
		Token: token, Body: body.Bytes(), Headers: map[string]string{"Content-Type": w.FormDataContentType()}})
}

func (f *fixture) importFile(t testing.TB, data []byte, fields map[string]string) result {
	t.Helper()
	var r result
	f.upload(f.account, f.user.Token, data, fields).Expect(http.StatusCreated).JSON(&r)
	return r
}

type line struct {
	ID               string   `json:"id"`
	Amount           float64  `json:"amount"`
	Status           string   `json:"status"`
	Reasons          []string `json:"reasons"`
	ContractID       *string  `json:"contract_id"`
	PaymentID        *string  `json:"payment_id"`
	ReturnedBy       *string  `json:"returned_by"`
	CounterpartyName string   `json:"counterparty_name"`
	CounterpartyIBAN string   `json:"counterparty_iban"`
	Remittance       string   `json:"remittance"`
	BookingDate      string   `json:"booking_date"`
	IsReturn         bool     `json:"is_return"`
	ReturnCode       string   `json:"return_code"`
	EndToEndID       string   `json:"end_to_end_id"`
	Splits           []struct {
		ContractID string  `json:"contract_id"`
		PaymentID  string  `json:"payment_id"`
		Amount     float64 `json:"amount"`
	} `json:"splits"`
	BankRef string `json:"bank_reference"`
}

func (l line) BankReference() string { return l.BankRef }

// lines walks every page of the workspace's lines with the query.
func (f *fixture) lines(t testing.TB, query string) []line {
	t.Helper()
	var all []line
	path := "/api/v1/bank-lines?per_page=200" + query
	for {
		var page struct {
			Lines []line  `json:"bank_lines"`
			Next  *string `json:"next"`
		}
		f.app.Get(path, f.user.Token).Expect(http.StatusOK).JSON(&page)
		all = append(all, page.Lines...)
		if page.Next == nil {
			return all
		}
		path = "/api/v1/bank-lines?per_page=200" + query + "&after=" + *page.Next
	}
}

type payment struct {
	ID          string      `json:"id"`
	Amount      json.Number `json:"amount"`
	Method      string      `json:"method"`
	Status      string      `json:"status"`
	PaidOn      string      `json:"paid_on"`
	ContractID  *string     `json:"contract_id"`
	Unallocated json.Number `json:"unallocated"`
	Reference   string      `json:"reference"`
}

func (f *fixture) payments(t testing.TB) []payment {
	t.Helper()
	var all []payment
	for _, p := range f.props {
		var out struct {
			Payments []payment `json:"payments"`
		}
		f.app.Get("/api/v1/properties/"+p+"/payments?per_page=200", f.user.Token).Expect(http.StatusOK).JSON(&out)
		all = append(all, out.Payments...)
	}
	return all
}

type balance struct {
	Charged     json.Number `json:"charged"`
	Paid        json.Number `json:"paid"`
	Outstanding json.Number `json:"outstanding"`
	Credit      json.Number `json:"credit"`
}

func (f *fixture) balance(t testing.TB, contract string) balance {
	t.Helper()
	var b balance
	f.app.Get("/api/v1/properties/"+f.propOf[contract]+"/balance?contract_id="+contract, f.user.Token).Expect(http.StatusOK).JSON(&b)
	return b
}

// activities is how many activity entries are about bank lines.
func (f *fixture) activities(t testing.TB) int {
	t.Helper()
	n, err := f.app.DB.NewSelect().Table("activity").Where("record_type = ?", "bank_line").Count(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// count is how many bank lines the database holds.
func (f *fixture) count(t testing.TB) int {
	t.Helper()
	n, err := f.app.DB.NewSelect().Table("bank_lines").Count(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func testkitMaxBytes(v string) testkit.Option {
	return testkit.WithConfig("modules.banking.maxbytes", v)
}

func replace(s, old, new string) string { return strings.ReplaceAll(s, old, new) }

func repeat(s string, n int) string { return strings.Repeat(s, n) }

// other is the bank account of another landlord's workspace.
func (f *fixture) other(t testing.TB) string {
	t.Helper()
	u := accountstest.NewUser(t, f.app)
	return id(t, f.app.Post("/api/v1/bank-accounts", u.Token, map[string]any{"holder": "Someone Else", "iban": "DE12500105170648489890"}).Expect(http.StatusCreated))
}
