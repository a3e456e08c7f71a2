package banking

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/bankaccounts"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/receipts"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
	"github.com/propman/propman/platform/validate"
)

// Service imports statements and matches their lines.
type Service struct {
	db        *bun.DB
	store     *Store
	clock     clock.Clock
	cfg       Config
	accounts  *bankaccounts.Service
	contracts *contracts.Service
	parties   *contragents.Service
	payments  *payments.Service
	dicts     *translations.Dictionaries
}

// NewService returns the service.
func NewService(db *bun.DB, store *Store, clk clock.Clock, cfg Config, accounts *bankaccounts.Service,
	ctrs *contracts.Service, parties *contragents.Service, pay *payments.Service, dicts *translations.Dictionaries) *Service {
	return &Service{db: db, store: store, clock: clk, cfg: cfg, accounts: accounts, contracts: ctrs, parties: parties, payments: pay, dicts: dicts}
}

// MaxBytes is the largest statement file the service reads.
func (s *Service) MaxBytes() int64 { return s.cfg.MaxBytes }

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

func errLineNotFound() error { return apierror.NotFound("Bank line not found.") }

// Result is what an import did.
type Result struct {
	Format     string `json:"format"`
	Lines      int    `json:"lines"`
	Duplicates int    `json:"duplicates"`
	Posted     int    `json:"posted"`
	Suggested  int    `json:"suggested"`
	Unmatched  int    `json:"unmatched"`
	Debits     int    `json:"debits"`
	Returns    int    `json:"returns"`
}

// ImportInput is a statement file and how to read it when it is a CSV.
type ImportInput struct {
	Data      []byte
	MappingID string
	Mapping   *CSVMapping
}

// Account returns the bank account p may import into or read.
func (s *Service) Account(ctx context.Context, p auth.Principal, rawID string) (*bankaccounts.Account, error) {
	return s.accounts.Get(ctx, &p, rawID)
}

// Import reads a statement into the account and decides each new line.
// The account is checked first, so a stranger learns nothing of the
// file's faults; a file that cannot be read imports nothing.
func (s *Service) Import(ctx context.Context, p auth.Principal, acct *bankaccounts.Account, in ImportInput) (*Result, error) {
	if acct.WorkspaceID != p.WorkspaceID {
		// An administrator reaches other workspaces' accounts, but the
		// matcher reads the caller's workspace's contracts.
		return nil, apierror.Forbidden("Import a statement from within the account's workspace.")
	}
	if int64(len(in.Data)) > s.cfg.MaxBytes {
		return nil, apierror.New(http.StatusRequestEntityTooLarge, "file_too_large",
			fmt.Sprintf("The file is larger than %d bytes, the limit of one statement (modules.banking.maxbytes).", s.cfg.MaxBytes))
	}
	if len(in.Data) == 0 {
		return nil, apierror.Validation("file: is empty")
	}
	mapping := in.Mapping
	if in.MappingID != "" {
		id, err := uuid.Parse(in.MappingID)
		if err != nil {
			return nil, apierror.Validation("mapping_id: must be a UUID")
		}
		m, err := s.store.mapping(ctx, acct.ID, id)
		if errors.Is(err, errNotFound) {
			return nil, apierror.Validation("mapping_id: is not a CSV mapping of this bank account")
		}
		if err != nil {
			return nil, err
		}
		mapping = &m.Spec
	} else if mapping != nil {
		if d := mapping.check(); len(d) > 0 {
			return nil, apierror.Validation(d...)
		}
	}
	format := Sniff(in.Data)
	switch {
	case format == "" && mapping != nil:
		format = FormatCSV
	case format == "xml":
		return nil, apierror.New(http.StatusBadRequest, "unsupported_format", "The XML file is neither a camt.053 statement nor an OFX file.")
	}
	parsed, err := Parse(format, in.Data, mapping)
	var pe *ParseError
	if errors.As(err, &pe) {
		return nil, apierror.New(http.StatusBadRequest, pe.Code, pe.Msg)
	}
	if err != nil {
		return nil, err
	}
	res := &Result{Format: format, Lines: len(parsed)}
	book, err := s.loadBook(ctx, p)
	if err != nil {
		return nil, err
	}
	seen := map[string]int{}
	lines := make([]*BankLine, len(parsed))
	for i := range parsed {
		lines[i] = s.newLine(acct, format, &parsed[i], seen)
		if lines[i].Currency != acct.Currency && acct.Currency != "" {
			lines[i].Reasons = append(lines[i].Reasons, ReasonCurrency)
		}
	}
	// A transaction per chunk of lines, not per line: a commit is most of
	// a line's cost. Lines are decided in the file's order, so a chunk's
	// later lines see what its earlier ones learnt.
	for start := 0; start < len(lines); start += importChunk {
		chunk := lines[start:min(start+importChunk, len(lines))]
		var counts Result
		err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
			counts = Result{}
			if err := s.readChunk(ctx, tx, book, chunk); err != nil {
				return err
			}
			for _, l := range chunk {
				created, err := s.decideAndStore(ctx, tx, p, book, l)
				if err != nil {
					return err
				}
				count(&counts, l, created)
			}
			return activity.RecordAll(ctx, tx, book.entries)
		})
		if err != nil {
			return nil, err
		}
		res.Duplicates += counts.Duplicates
		res.Posted += counts.Posted
		res.Suggested += counts.Suggested
		res.Unmatched += counts.Unmatched
		res.Debits += counts.Debits
		res.Returns += counts.Returns
	}
	return res, nil
}

// importChunk is how many lines one transaction of an import decides.
const importChunk = 100

// count adds what happened to l to r.
func count(r *Result, l *BankLine, created bool) {
	switch {
	case !created:
		r.Duplicates++
	case l.IsReturn && l.Status == Posted:
		r.Returns++
	case l.Status == Posted:
		r.Posted++
	case l.Status == Suggested:
		r.Suggested++
	case l.Status == Debit:
		r.Debits++
	default:
		r.Unmatched++
	}
}

// newLine makes the row of a parsed line. Its entry key is the bank's
// reference when it gives one, else a hash of what the line says and of
// how many identical lines came before it in the file: two equal
// transfers on one day stay two lines, and the same file again (or an
// overlapping one) gives the same keys.
func (s *Service) newLine(acct *bankaccounts.Account, format string, pl *Line, seen map[string]int) *BankLine {
	now := s.now()
	id, _ := uuid.NewV7()
	l := &BankLine{
		ID: id, WorkspaceID: acct.WorkspaceID, BankAccountID: acct.ID, Format: format,
		BookingDate: pl.BookingDate, ValueDate: pl.ValueDate, Amount: pl.Amount, Currency: pl.Currency,
		CounterpartyName: pl.Name, CounterpartyIBAN: pl.IBAN, Remittance: pl.Remittance, BankReference: pl.BankRef,
		IsReturn: pl.IsReturn, ReturnCode: clean(pl.ReturnCode, 10), Reasons: []string{}, CreatedAt: now, UpdatedAt: now,
	}
	content := strings.Join([]string{pl.BookingDate.String(), pl.Amount.String(), pl.IBAN, fold(pl.Name), fold(pl.Remittance)}, "\x1f")
	if pl.BankRef != "" && !strings.EqualFold(pl.BankRef, "NONREF") {
		// A bank's reference is unique per entry; the date and amount
		// guard against one that repeats across years.
		content = "ref\x1f" + pl.BankRef + "\x1f" + pl.BookingDate.String() + "\x1f" + pl.Amount.String()
	}
	n := seen[content]
	seen[content] = n + 1
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x1f%d", content, n)))
	l.EntryKey = hex.EncodeToString(sum[:])
	return l
}

// book is what the matcher knows of the workspace's contracts for one
// import.
type book struct {
	cands []*candidate
	byID  map[uuid.UUID]*candidate
	// What readChunk read for the chunk of lines being decided: the entry
	// keys the account has, the contracts the chunk's IBANs paid; and the
	// activity entries the chunk writes at its end.
	known   map[string]bool
	ibans   map[string][]uuid.UUID
	entries []activity.Entry
}

// readChunk reads, inside tx, what deciding the chunk needs to know in
// two statements instead of two a line.
func (s *Service) readChunk(ctx context.Context, tx bun.Tx, b *book, chunk []*BankLine) error {
	keys := make([]string, 0, len(chunk))
	ibans := make([]string, 0, len(chunk))
	for _, l := range chunk {
		keys = append(keys, l.EntryKey)
		if l.CounterpartyIBAN != "" {
			ibans = append(ibans, l.CounterpartyIBAN)
		}
	}
	var err error
	if b.known, err = s.store.existing(ctx, tx, chunk[0].BankAccountID, keys); err != nil {
		return err
	}
	b.ibans, err = s.store.payerContracts(ctx, tx, chunk[0].WorkspaceID, ibans)
	b.entries = b.entries[:0]
	return err
}

// bookPage is how many contracts or contragents one read of loadBook
// takes: a portfolio of 1,000 units is read in a dozen statements, not
// two per contract.
const bookPage = listing.MaxPerPage

// loadBook reads the workspace's contracts (drafts left out: nothing is
// owed on them) with their tenants' names, through the contracts' and
// contragents' own lists.
func (s *Service) loadBook(ctx context.Context, p auth.Principal) (*book, error) {
	names := map[uuid.UUID]string{}
	if s.parties != nil {
		for page := 1; ; page++ {
			list, _, err := s.parties.List(ctx, &p, contragents.ListFilter{}, listing.Query{Page: page, PerPage: bookPage}.Uncounted())
			if err != nil {
				return nil, err
			}
			for _, c := range list {
				names[c.ID] = c.Name
			}
			if len(list) < bookPage {
				break
			}
		}
	}
	b := &book{byID: map[uuid.UUID]*candidate{}}
	for page := 1; ; page++ {
		list, _, err := s.contracts.List(ctx, &p, contracts.ListFilter{}, listing.Query{Page: page, PerPage: bookPage}.Uncounted())
		if err != nil {
			return nil, err
		}
		for _, d := range list {
			if d.Status == contracts.Draft {
				continue
			}
			c := &candidate{ID: d.ID, PropertyID: d.PropertyID, TenantID: d.TenantID, Number: d.Number, key: numberKey(d.Number),
				nameTokens: nameTokens(names[d.TenantID])}
			b.cands = append(b.cands, c)
			b.byID[c.ID] = c
		}
		if len(list) < bookPage {
			break
		}
	}
	return b, nil
}

// owed returns what the contract's open charges still owe, oldest first.
func (s *Service) owed(ctx context.Context, db bun.IDB, c *candidate) ([]money.Amount, error) {
	open, err := expenses.OpenCharges(ctx, db, c.PropertyID, &c.ID)
	if err != nil {
		return nil, err
	}
	out := make([]money.Amount, 0, len(open))
	for _, ch := range open {
		out = append(out, ch.Amount-ch.PaidAmount)
	}
	return out, nil
}

// decision is the matcher's verdict on a line.
type decision struct {
	status   string
	contract *candidate
	reasons  []string
	// learn: the line's IBAN is to be remembered for the contract.
	learn bool
}

// decide runs the matching rules (README "Matching") on a credit line.
func (s *Service) decide(ctx context.Context, db bun.IDB, b *book, l *BankLine) (decision, error) {
	var sg signals
	findRefs(&sg, b.cands, l.Remittance)
	if err := s.findReceipts(ctx, db, &sg, b, l); err != nil {
		return decision{}, err
	}
	findNames(&sg, b.cands, l.CounterpartyName, l.Remittance)
	if l.CounterpartyIBAN != "" {
		for _, id := range b.ibans[l.CounterpartyIBAN] {
			if _, ok := b.byID[id]; ok {
				sg.iban = append(sg.iban, id)
			}
		}
	}
	amountOf := func(c *candidate) (string, error) {
		owed, err := s.owed(ctx, db, c)
		if err != nil {
			return "", err
		}
		return amountReason(l.Amount, owed), nil
	}
	reasonsFor := func(c *candidate, ref string) ([]string, bool, error) {
		var r []string
		if ref != "" {
			r = append(r, ref)
		}
		if contains(sg.iban, c.ID) {
			r = append(r, ReasonPayerIBAN)
		}
		if contains(sg.name, c.ID) {
			r = append(r, ReasonPayerName)
		}
		a, err := amountOf(c)
		if err != nil {
			return nil, false, err
		}
		if a != "" {
			r = append(r, a)
		}
		// The tenant's name of another contract contradicts; so does an
		// IBAN that paid one other contract only, unless the text names
		// this contract's tenant (a third party paying for several
		// tenants, a social office, pays from one IBAN).
		nameConflict := len(sg.name) > 0 && !contains(sg.name, c.ID)
		ibanConflict := len(sg.iban) == 1 && sg.iban[0] != c.ID && !contains(sg.name, c.ID)
		conflict := nameConflict || ibanConflict
		if conflict {
			r = append(r, ReasonConflict)
		}
		return r, conflict, nil
	}
	suggest := func(c *candidate, r []string) decision {
		return decision{status: Suggested, contract: c, reasons: r}
	}
	// Several numbers in reach: the one the payer's IBAN or name supports,
	// when exactly one is.
	narrow := func(ids []uuid.UUID) []uuid.UUID {
		if len(ids) < 2 {
			return ids
		}
		var out []uuid.UUID
		for _, id := range ids {
			if contains(sg.iban, id) || contains(sg.name, id) {
				out = append(out, id)
			}
		}
		if len(out) == 1 {
			return out
		}
		return ids
	}
	sg.exact, sg.typo = narrow(sg.exact), narrow(sg.typo)
	switch {
	case len(sg.exact) == 1:
		c := b.byID[sg.exact[0]]
		ref := ReasonReference
		if sg.byReceipt[c.ID] {
			ref = ReasonReceipt
		}
		r, conflict, err := reasonsFor(c, ref)
		if err != nil || conflict {
			return suggest(c, r), err
		}
		// The number is the tenant's own word: the payer (a third party
		// too) is learnt for it.
		return decision{status: Posted, contract: c, reasons: r, learn: true}, nil
	case len(sg.exact) > 1:
		r, _, err := reasonsFor(b.byID[sg.exact[0]], ReasonReference)
		return suggest(b.byID[sg.exact[0]], append(r, ReasonSeveral)), err
	case len(sg.typo) == 1:
		c := b.byID[sg.typo[0]]
		r, conflict, err := reasonsFor(c, ReasonReferenceTypo)
		if err != nil || conflict || len(r) < 2 {
			if len(r) < 2 {
				r = append(r, ReasonWeakSignal)
			}
			return suggest(c, r), err
		}
		return decision{status: Posted, contract: c, reasons: r, learn: true}, nil
	case len(sg.typo) > 1:
		r, _, err := reasonsFor(b.byID[sg.typo[0]], ReasonReferenceTypo)
		return suggest(b.byID[sg.typo[0]], append(r, ReasonSeveral)), err
	case len(sg.iban) == 1:
		c := b.byID[sg.iban[0]]
		r, conflict, err := reasonsFor(c, "")
		if err != nil || conflict {
			return suggest(c, r), err
		}
		return decision{status: Posted, contract: c, reasons: r}, nil
	case len(sg.iban) > 1:
		r, _, err := reasonsFor(b.byID[sg.iban[0]], "")
		return suggest(b.byID[sg.iban[0]], append(r, ReasonSeveral)), err
	case len(sg.name) == 1:
		c := b.byID[sg.name[0]]
		r, _, err := reasonsFor(c, "")
		if err != nil {
			return decision{}, err
		}
		if len(r) >= 2 {
			// The tenant's name and an amount the contract owes: a known
			// tenant paying from a new account. Its IBAN is learnt.
			return decision{status: Posted, contract: c, reasons: r, learn: true}, nil
		}
		return suggest(c, append(r, ReasonWeakSignal)), nil
	case len(sg.name) > 1:
		r, _, err := reasonsFor(b.byID[sg.name[0]], "")
		return suggest(b.byID[sg.name[0]], append(r, ReasonSeveral)), err
	}
	return decision{status: Unmatched, reasons: []string{ReasonNoSignal}}, nil
}

// findReceipts adds to sg.exact the contracts whose receipts' numbers the
// line's text quotes (the payment the receipt was for names the contract).
func (s *Service) findReceipts(ctx context.Context, db bun.IDB, sg *signals, b *book, l *BankLine) error {
	numbers := receiptNumbers(l.Remittance)
	if len(numbers) == 0 {
		return nil
	}
	found, err := receipts.PaymentsByNumber(ctx, db, l.WorkspaceID, numbers)
	if err != nil {
		return err
	}
	for _, paymentID := range found {
		pay, err := s.payments.Read(ctx, db, paymentID)
		if err != nil {
			return err
		}
		if pay.ContractID == nil || b.byID[*pay.ContractID] == nil || contains(sg.exact, *pay.ContractID) {
			continue
		}
		if sg.byReceipt == nil {
			sg.byReceipt = map[uuid.UUID]bool{}
		}
		sg.exact = append(sg.exact, *pay.ContractID)
		sg.byReceipt[*pay.ContractID] = true
	}
	return nil
}

// decideAndStore decides l and stores it with what the decision does,
// inside tx; false when the account had the line already.
func (s *Service) decideAndStore(ctx context.Context, tx bun.Tx, p auth.Principal, b *book, l *BankLine) (bool, error) {
	if b.known[l.EntryKey] {
		return false, nil
	}
	today := period.DateOf(s.clock.Now())
	var (
		d        decision
		original *BankLine
		err      error
	)
	switch {
	case l.Amount < 0 && l.IsReturn:
		original, err = s.store.returned(ctx, tx, l.BankAccountID, -l.Amount, l.CounterpartyIBAN, l.BookingDate)
		switch {
		case errors.Is(err, errNotFound):
			d = decision{status: Unmatched, reasons: []string{ReasonReturnedDebit, ReasonReturnNotFound}}
		case err != nil:
			return false, err
		default:
			d = decision{status: Posted, reasons: []string{ReasonReturnedDebit}, contract: b.byID[derefID(original.ContractID)]}
		}
	case l.Amount < 0:
		// TODO(bills slice): debit lines become bill proposals.
		d = decision{status: Debit, reasons: []string{ReasonDebit}}
	default:
		if d, err = s.decide(ctx, tx, b, l); err != nil {
			return false, err
		}
		if d.status == Posted && l.BookingDate.After(today) {
			d.status, d.reasons = Suggested, append(d.reasons, ReasonFutureDate)
		}
		if d.status == Posted && len(l.Reasons) > 0 {
			// The line is in another currency than the account.
			d.status = Suggested
		}
	}
	l.Status = d.status
	l.Reasons = append(l.Reasons, d.reasons...)
	if d.contract != nil {
		l.ContractID, l.PropertyID = &d.contract.ID, &d.contract.PropertyID
	}
	var prop *properties.Property
	if l.Status == Posted {
		propID := d.contract.PropertyID
		if original != nil {
			propID = derefID(original.PropertyID)
		}
		if prop, err = properties.Lock(ctx, tx, propID); err != nil {
			return false, err
		}
	}
	// The unique index decides between two imports of one line at once.
	ok, err := s.store.insertLine(ctx, tx, l)
	if err != nil || !ok {
		return false, err
	}
	if l.Status == Posted {
		if original != nil {
			err = s.reverse(ctx, tx, p, prop, original, l)
		} else {
			err = s.post(ctx, tx, p, prop, d.contract, l, nil, d.learn)
		}
		if err != nil {
			return false, err
		}
	}
	b.known[l.EntryKey] = true
	if d.learn && l.Status == Posted && l.CounterpartyIBAN != "" && !contains(b.ibans[l.CounterpartyIBAN], d.contract.ID) {
		b.ibans[l.CounterpartyIBAN] = append(b.ibans[l.CounterpartyIBAN], d.contract.ID)
	}
	b.entries = append(b.entries, activity.Entry{
		Action: activity.Imported, RecordType: "bank_line", RecordID: l.ID.String(), WorkspaceID: l.WorkspaceID,
		Changes: activity.Diff(nil, lineOut(l)),
	})
	return true, nil
}

func derefID(id *uuid.UUID) uuid.UUID {
	if id == nil {
		return uuid.Nil
	}
	return *id
}

// post posts l as a payment of the contract inside tx (which holds the
// property's lock), links it to the line and, when learn, remembers the
// payer's IBAN for the contract.
func (s *Service) post(ctx context.Context, tx bun.Tx, p auth.Principal, prop *properties.Property, c *candidate,
	l *BankLine, allocs []payments.AllocationInput, learn bool) error {
	in := payments.Input{
		Amount: l.Amount, PaidOn: l.BookingDate, Method: "bank_transfer",
		Reference: paymentReference(l), ContractID: &c.ID,
		Allocations: allocs, Explicit: allocs != nil,
	}
	if c.TenantID != uuid.Nil {
		in.PayerID = &c.TenantID
	}
	pay, err := s.payments.PostTx(ctx, tx, prop, p.UserID, in)
	if err != nil {
		return err
	}
	l.PaymentID = &pay.ID
	l.UpdatedAt = s.now()
	if _, err := s.store.settle(ctx, tx, l, l.Status); err != nil {
		return err
	}
	if learn && l.CounterpartyIBAN != "" {
		return s.store.learn(ctx, tx, &PayerIBAN{WorkspaceID: l.WorkspaceID, IBAN: l.CounterpartyIBAN, ContractID: c.ID, CreatedAt: s.now()})
	}
	return nil
}

// paymentReference is what the receipt prints as the payer's reference:
// the transfer's own text (the payer's words, in their language), else
// the bank's reference. The line names the payment (payment_id).
func paymentReference(l *BankLine) string {
	ref := l.Remittance
	if ref == "" {
		ref = l.BankReference
	}
	return clean(ref, payments.MaxReferenceLen)
}

// reverse reverses the payment of original, whose money the return line
// l took back, inside tx (which holds the property's lock).
func (s *Service) reverse(ctx context.Context, tx bun.Tx, p auth.Principal, prop *properties.Property, original, l *BankLine) error {
	reason, err := s.returnReason(ctx, tx, original.ContractID, l.ReturnCode)
	if err != nil {
		return err
	}
	if _, err := s.payments.ReverseTx(ctx, tx, prop, p.UserID, *original.PaymentID, reason); err != nil {
		return err
	}
	l.PaymentID = original.PaymentID
	l.ContractID, l.PropertyID = original.ContractID, original.PropertyID
	if _, err := s.store.settle(ctx, tx, l, l.Status); err != nil {
		return err
	}
	return s.store.markReturned(ctx, tx, original.ID, l.ID, s.now())
}

// keyReturned is the catalogue's reversal reason of a returned debit.
const keyReturned = "banking.reversal.returned_debit"

// returnReason is the reversal reason of a returned debit in the
// contract's locale: the tenant reads it on the voided receipt.
func (s *Service) returnReason(ctx context.Context, db bun.IDB, contractID *uuid.UUID, code string) (string, error) {
	locale := "en"
	if contractID != nil {
		c, err := s.contracts.ByID(ctx, db, *contractID)
		if err != nil {
			return "", err
		}
		locale = c.Locale
	}
	texts, _ := s.dicts.Select(locale, []string{keyReturned})
	text := texts[keyReturned]
	if code == "" {
		return strings.TrimSpace(strings.ReplaceAll(text, "({code})", "")), nil
	}
	return strings.ReplaceAll(text, "{code}", code), nil
}

// Lines returns a page of the workspace's lines.
func (s *Service) Lines(ctx context.Context, p *auth.Principal, f LineFilter, q listing.Query) ([]BankLine, listing.Result, error) {
	return s.store.list(ctx, p, f, q)
}

// Line returns the line with the raw id when p may see it.
func (s *Service) Line(ctx context.Context, p auth.Principal, rawID string) (*BankLine, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, errLineNotFound()
	}
	l, err := s.store.line(ctx, s.db, id)
	if errors.Is(err, errNotFound) {
		return nil, errLineNotFound()
	}
	if err != nil {
		return nil, err
	}
	if l.WorkspaceID != p.WorkspaceID && !p.IsAdmin() {
		return nil, auth.Refuse(ctx, p, "This bank line belongs to another workspace.", "Bank line not found.")
	}
	return l, nil
}

// MatchInput is a person's decision for a line.
type MatchInput struct {
	ContractID  uuid.UUID
	Allocations []payments.AllocationInput
}

// Match posts the credit line l to a contract the person chose, with the
// payments module's allocation or the given one, and learns the payer's
// IBAN for the contract.
func (s *Service) Match(ctx context.Context, p auth.Principal, l *BankLine, in MatchInput) (*BankLine, error) {
	if l.Amount <= 0 {
		return nil, apierror.Conflict("not_a_credit", "Only a credit line is matched to a contract; a debit is not a tenant's payment.")
	}
	if l.Status != Suggested && l.Status != Unmatched {
		return nil, apierror.Conflict("already_decided", fmt.Sprintf("The line is %s already.", l.Status))
	}
	c, err := s.contracts.ByID(ctx, s.db, in.ContractID)
	if err != nil || c.WorkspaceID != l.WorkspaceID {
		return nil, apierror.Validation("contract_id: must be a contract of this workspace")
	}
	if c.Status == contracts.Draft {
		return nil, apierror.Validation("contract_id: must not be a draft")
	}
	var sum money.Amount
	seen := map[uuid.UUID]bool{}
	var details []string
	for i, a := range in.Allocations {
		if seen[a.ChargeID] {
			details = append(details, fmt.Sprintf("allocations[%d].charge_id: appears twice", i))
		}
		seen[a.ChargeID] = true
		sum += a.Amount
	}
	if sum > l.Amount {
		details = append(details, fmt.Sprintf("allocations: add up to %s, more than the line's amount %s", sum, l.Amount))
	}
	if l.BookingDate.After(period.DateOf(s.clock.Now())) {
		details = append(details, "the line is booked in the future; match it on its booking day")
	}
	if len(details) > 0 {
		return nil, apierror.Validation(details...)
	}
	cand := &candidate{ID: c.ID, PropertyID: c.PropertyID, TenantID: c.TenantID, Number: c.Number}
	before := lineOut(l)
	next := *l
	next.Status, next.ContractID, next.PropertyID = Posted, &c.ID, &c.PropertyID
	next.Reasons = append(append([]string{}, l.Reasons...), ReasonManual)
	next.UpdatedAt = s.now()
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		prop, err := properties.Lock(ctx, tx, c.PropertyID)
		if err != nil {
			return err
		}
		ok, err := s.store.settle(ctx, tx, &next, Suggested, Unmatched)
		if err != nil {
			return err
		}
		if !ok {
			return apierror.Conflict("already_decided", "The line was decided by another request.")
		}
		if in.Allocations != nil {
			charges := make([]uuid.UUID, len(in.Allocations))
			for i, a := range in.Allocations {
				charges[i] = a.ChargeID
			}
			found, err := expenses.ChargesByID(ctx, tx, c.PropertyID, charges)
			if err != nil {
				return err
			}
			for i, a := range in.Allocations {
				if ch, ok := found[a.ChargeID]; !ok || ch.ContractID == nil || *ch.ContractID != c.ID {
					return apierror.Validation(fmt.Sprintf("allocations[%d].charge_id: must be a charge of the contract", i))
				}
			}
		}
		if err := s.post(ctx, tx, p, prop, cand, &next, in.Allocations, true); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{
			Action: activity.Updated, RecordType: "bank_line", RecordID: l.ID.String(), WorkspaceID: l.WorkspaceID,
			Changes: activity.Diff(before, lineOut(&next)),
		})
	})
	if err != nil {
		return nil, err
	}
	return &next, nil
}

// Ignore marks an undecided or debit line as nothing to book.
func (s *Service) Ignore(ctx context.Context, l *BankLine) (*BankLine, error) {
	if l.Status != Suggested && l.Status != Unmatched && l.Status != Debit {
		return nil, apierror.Conflict("already_decided", fmt.Sprintf("The line is %s already.", l.Status))
	}
	before := lineOut(l)
	next := *l
	next.Status, next.UpdatedAt = Ignored, s.now()
	next.Reasons = append(append([]string{}, l.Reasons...), ReasonIgnored)
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		ok, err := s.store.settle(ctx, tx, &next, Suggested, Unmatched, Debit)
		if err != nil {
			return err
		}
		if !ok {
			return apierror.Conflict("already_decided", "The line was decided by another request.")
		}
		return activity.Record(ctx, tx, activity.Entry{
			Action: activity.Updated, RecordType: "bank_line", RecordID: l.ID.String(), WorkspaceID: l.WorkspaceID,
			Changes: activity.Diff(before, lineOut(&next)),
		})
	})
	if err != nil {
		return nil, err
	}
	return &next, nil
}

// MaxMappingName bounds a mapping's name.
const MaxMappingName = 100

// MappingInput is a CSV mapping to save.
type MappingInput struct {
	Name string
	Spec CSVMapping
}

func checkMapping(in *MappingInput) error {
	var details []string
	in.Name = strings.TrimSpace(in.Name)
	if in.Name == "" || len([]rune(in.Name)) > MaxMappingName {
		details = append(details, fmt.Sprintf("name: is required, at most %d characters", MaxMappingName))
	}
	details = append(details, in.Spec.check()...)
	for _, c := range in.Spec.columns() {
		if msg := validate.Text(c, false); msg != "" || len([]rune(c)) > 100 {
			details = append(details, "mapping: column names must be one line of at most 100 characters")
			break
		}
	}
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	return nil
}

// Mappings returns the account's saved CSV mappings.
func (s *Service) Mappings(ctx context.Context, acct *bankaccounts.Account) ([]Mapping, error) {
	return s.store.mappings(ctx, acct.ID)
}

// Mapping returns the account's mapping with the raw id.
func (s *Service) Mapping(ctx context.Context, acct *bankaccounts.Account, rawID string) (*Mapping, error) {
	id, err := uuid.Parse(rawID)
	if err != nil {
		return nil, apierror.NotFound("CSV mapping not found.")
	}
	m, err := s.store.mapping(ctx, acct.ID, id)
	if errors.Is(err, errNotFound) {
		return nil, apierror.NotFound("CSV mapping not found.")
	}
	return m, err
}

// CreateMapping saves a CSV mapping for the account.
func (s *Service) CreateMapping(ctx context.Context, acct *bankaccounts.Account, in MappingInput) (*Mapping, error) {
	if err := checkMapping(&in); err != nil {
		return nil, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	now := s.now()
	m := &Mapping{ID: id, WorkspaceID: acct.WorkspaceID, BankAccountID: acct.ID, Name: in.Name, Spec: in.Spec, CreatedAt: now, UpdatedAt: now}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.insertMapping(ctx, tx, m); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "bank_csv_mapping", RecordID: id.String(),
			WorkspaceID: acct.WorkspaceID, Changes: activity.Diff(nil, MappingOut(m))})
	})
	return m, err
}

// UpdateMapping replaces a saved mapping.
func (s *Service) UpdateMapping(ctx context.Context, m *Mapping, in MappingInput) (*Mapping, error) {
	if err := checkMapping(&in); err != nil {
		return nil, err
	}
	before := MappingOut(m)
	next := *m
	next.Name, next.Spec, next.UpdatedAt = in.Name, in.Spec, s.now()
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.updateMapping(ctx, tx, &next); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "bank_csv_mapping", RecordID: m.ID.String(),
			WorkspaceID: m.WorkspaceID, Changes: activity.Diff(before, MappingOut(&next))})
	})
	return &next, err
}

// DeleteMapping removes a saved mapping.
func (s *Service) DeleteMapping(ctx context.Context, m *Mapping) error {
	return database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.deleteMapping(ctx, tx, m.ID); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Deleted, RecordType: "bank_csv_mapping", RecordID: m.ID.String(),
			WorkspaceID: m.WorkspaceID, Changes: activity.Diff(MappingOut(m), nil)})
	})
}
