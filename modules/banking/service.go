package banking

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
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
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
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

func errLineNotFound() error { return fault.NotFound("Bank line not found.") }

// ImportInput is a statement file and how to read it when it is a CSV.
type ImportInput struct {
	// File is the statement, read from its start as often as the import
	// needs (a temporary file the handler spilt the upload to): never
	// held in memory whole.
	File io.ReadSeeker
	// Size is the file's length in bytes; a caller that stopped reading
	// at MaxBytes+1 gives that.
	Size      int64
	MappingID string
	Mapping   *CSVMapping
}

// Account returns the bank account p may import into or read.
func (s *Service) Account(ctx context.Context, p auth.Principal, rawID string) (*bankaccounts.Account, error) {
	return s.accounts.Get(ctx, &p, rawID)
}

// newLine makes the row of a parsed line. Its entry key is the bank's
// reference when it gives one, else a hash of what the line says and of
// how many identical lines came before it in the file: two equal
// transfers on one day stay two lines, and the same file again (or an
// overlapping one) gives the same keys.
func (s *Service) newLine(acct *bankaccounts.Account, format string, pl *Line, seen map[[32]byte]int) *BankLine {
	now := s.now()
	id, _ := uuid.NewV7()
	l := &BankLine{
		ID: id, WorkspaceID: acct.WorkspaceID, BankAccountID: acct.ID, Format: format,
		BookingDate: pl.BookingDate, ValueDate: pl.ValueDate, Amount: pl.Amount, Currency: pl.Currency,
		CounterpartyName: pl.Name, CounterpartyIBAN: pl.IBAN, Remittance: pl.Remittance, BankReference: pl.BankRef,
		EndToEndID: pl.EndToEndID, IsReturn: pl.IsReturn, ReturnCode: clean(pl.ReturnCode, 10), Reasons: []string{}, CreatedAt: now, UpdatedAt: now,
	}
	content := strings.Join([]string{pl.BookingDate.String(), pl.Amount.String(), pl.IBAN, fold(pl.Name), fold(pl.Remittance)}, "\x1f")
	if pl.BankRef != "" && !strings.EqualFold(pl.BankRef, "NONREF") {
		// A bank's reference is unique per entry; the date and amount
		// guard against one that repeats across years.
		content = "ref\x1f" + pl.BankRef + "\x1f" + pl.BookingDate.String() + "\x1f" + pl.Amount.String()
	}
	// The count is kept by the content's hash: 32 bytes a distinct line,
	// whatever its texts' length.
	h := sha256.Sum256([]byte(content))
	n := seen[h]
	seen[h] = n + 1
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x1f%d", content, n)))
	l.EntryKey = hex.EncodeToString(sum[:])
	return l
}

// book is what the matcher knows of the workspace's contracts for one
// import, and of the payer IBANs for the batch being decided.
type book struct {
	cands []*candidate
	byID  map[uuid.UUID]*candidate
	ibans map[string][]uuid.UUID
	// providers are the workspace's contragents with the provider role:
	// the suppliers a debit line may pay.
	providers []provider
	idx       *index
}

// provider is a supplier as the bill proposal knows it.
type provider struct {
	id     uuid.UUID
	tokens []string
}

// billProposal is the bill a debit line may be (README "Debits"): the
// supplier whose every name word is in the payee's name, when exactly one
// is; dated and paid on the booking day, the amount paid.
func billProposal(b *book, l *BankLine) *BillProposal {
	have := map[string]bool{}
	for _, w := range words(l.CounterpartyName) {
		have[w] = true
	}
	var found []uuid.UUID
	for _, p := range b.providers {
		all := len(p.tokens) > 0
		for _, w := range p.tokens {
			all = all && have[w]
		}
		if all {
			found = append(found, p.id)
		}
	}
	bp := &BillProposal{BillDate: l.BookingDate, PaidOn: l.BookingDate, Amount: -l.Amount, Note: clean(l.CounterpartyName+" "+l.Remittance, 2000)}
	if len(found) == 1 {
		bp.SupplierID = &found[0]
	}
	return bp
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
	b := &book{byID: map[uuid.UUID]*candidate{}}
	if s.parties != nil {
		for page := 1; ; page++ {
			list, _, err := s.parties.List(ctx, &p, contragents.ListFilter{}, listing.Query{Page: page, PerPage: bookPage}.Uncounted())
			if err != nil {
				return nil, err
			}
			for _, c := range list {
				names[c.ID] = c.Name
				if c.HasRole(contragents.RoleProvider) {
					b.providers = append(b.providers, provider{id: c.ID, tokens: nameTokens(c.Name)})
				}
			}
			if len(list) < bookPage {
				break
			}
		}
	}
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
	b.idx = newIndex(b.cands)
	return b, nil
}

// decision is the matcher's verdict on a line.
type decision struct {
	status   string
	contract *candidate
	reasons  []string
	// learn: the line's IBAN is to be remembered for the contract.
	learn bool
	// split: the contracts of one payer the line is split over (the
	// first is contract), nil when it pays one.
	split []uuid.UUID
}

// signalsOf finds what the line's text, name and IBAN say (README
// "Matching"): numbers, receipts, names, learnt IBANs.
func (s *Service) signalsOf(ctx context.Context, db bun.IDB, b *book, l *BankLine) (signals, error) {
	var sg signals
	findRefs(&sg, b.idx, l.Remittance)
	if err := s.findReceipts(ctx, db, &sg, b, l); err != nil {
		return sg, err
	}
	findNames(&sg, b.idx, l.CounterpartyName, l.Remittance)
	if l.CounterpartyIBAN != "" {
		for _, id := range b.ibans[l.CounterpartyIBAN] {
			if _, ok := b.byID[id]; ok {
				sg.iban = append(sg.iban, id)
			}
		}
	}
	return sg, nil
}

// decide runs the matching rules (README "Matching") on a credit line
// with its signals; owed gives what a contract's open charges still owe,
// oldest first.
func (s *Service) decide(b *book, l *BankLine, sg signals, owed func(*candidate) []money.Amount) (decision, error) {
	amountOf := func(c *candidate) (string, error) {
		return amountReason(l.Amount, owed(c)), nil
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
	// Several contracts of one tenant named, or paid before from the
	// IBAN, and none of another's: the line is split over them (README
	// "One payer, several contracts").
	if ids := oneTenant(b, sg.exact); len(ids) > 1 {
		return s.splitDecision(b, sg, ids, ReasonReference, true, reasonsFor)
	}
	if ids := oneTenant(b, sg.iban); len(ids) > 1 && len(sg.exact) == 0 && len(sg.typo) == 0 {
		return s.splitDecision(b, sg, ids, "", false, reasonsFor)
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

// oneTenant returns ids when they are two or more contracts of one
// tenant, nil otherwise.
func oneTenant(b *book, ids []uuid.UUID) []uuid.UUID {
	if len(ids) < 2 {
		return nil
	}
	tenant := b.byID[ids[0]].TenantID
	for _, id := range ids {
		if t := b.byID[id].TenantID; t == uuid.Nil || t != tenant {
			return nil
		}
	}
	return ids
}

// splitDecision posts a line over the contracts ids of one tenant unless
// the payer's name or IBAN points at another tenant's contract.
func (s *Service) splitDecision(b *book, sg signals, ids []uuid.UUID, ref string, learn bool,
	reasonsFor func(*candidate, string) ([]string, bool, error)) (decision, error) {
	c := b.byID[ids[0]]
	r, _, err := reasonsFor(c, ref)
	if err != nil {
		return decision{}, err
	}
	conflict := false
	for _, id := range sg.name {
		conflict = conflict || !contains(ids, id)
	}
	if len(sg.iban) > 0 {
		own := false
		for _, id := range sg.iban {
			own = own || contains(ids, id)
		}
		conflict = conflict || (!own && len(sg.name) == 0)
	}
	r = slices.DeleteFunc(r, func(x string) bool { return x == ReasonConflict })
	if conflict {
		return decision{status: Suggested, contract: c, reasons: append(r, ReasonConflict)}, nil
	}
	return decision{status: Posted, contract: c, reasons: append(r, ReasonSplit), learn: learn, split: ids}, nil
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
		Allocations: allocs, Explicit: allocs != nil, BankAccountID: &l.BankAccountID,
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

// reverseReturned reverses the payment of original (each of its
// payments when it was split), whose money the return line l took back,
// inside tx, which holds the properties' locks (props). l is written
// afterwards by its batch, with the payment it names.
func (s *Service) reverseReturned(ctx context.Context, tx bun.Tx, p auth.Principal, b *book, props map[uuid.UUID]*properties.Property,
	original, l *BankLine) error {
	reason, err := s.returnReason(ctx, tx, original.ContractID, l.ReturnCode)
	if err != nil {
		return err
	}
	type one struct{ payment, property uuid.UUID }
	list := []one{{*original.PaymentID, derefID(original.PropertyID)}}
	if len(original.Splits) > 0 {
		list = list[:0]
		for _, sp := range original.Splits {
			if c := b.byID[sp.ContractID]; c != nil {
				list = append(list, one{sp.PaymentID, c.PropertyID})
			}
		}
	}
	for _, o := range list {
		if _, err := s.payments.ReverseTx(ctx, tx, props[o.property], p.UserID, o.payment, reason); err != nil {
			return err
		}
	}
	l.PaymentID = original.PaymentID
	l.ContractID, l.PropertyID = original.ContractID, original.PropertyID
	return nil
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
		return nil, fault.Conflict("not_a_credit", "Only a credit line is matched to a contract; a debit is not a tenant's payment.")
	}
	if l.Status != Suggested && l.Status != Unmatched {
		return nil, fault.Conflict("already_decided", fmt.Sprintf("The line is %s already.", l.Status))
	}
	c, err := s.contracts.ByID(ctx, s.db, in.ContractID)
	if err != nil || c.WorkspaceID != l.WorkspaceID {
		return nil, fault.Validation("contract_id: must be a contract of this workspace")
	}
	if c.Status == contracts.Draft {
		return nil, fault.Validation("contract_id: must not be a draft")
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
		return nil, fault.Validation(details...)
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
			return fault.Conflict("already_decided", "The line was decided by another request.")
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
					return fault.Validation(fmt.Sprintf("allocations[%d].charge_id: must be a charge of the contract", i))
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
		return nil, fault.Conflict("already_decided", fmt.Sprintf("The line is %s already.", l.Status))
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
			return fault.Conflict("already_decided", "The line was decided by another request.")
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
		return fault.Validation(details...)
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
		return nil, fault.NotFound("CSV mapping not found.")
	}
	m, err := s.store.mapping(ctx, acct.ID, id)
	if errors.Is(err, errNotFound) {
		return nil, fault.NotFound("CSV mapping not found.")
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

// accountUser keeps a bank account with imported lines from being
// deleted (bankaccounts.User): the lines are the bank's record of the
// payments posted from them, which the books keep (10 years in Germany,
// § 147 AO; 6 in France, art. L102 B LPF), and only this account's
// entry keys keep the same statement from posting its payments twice.
type accountUser struct{ store *Store }

func newAccountUser(store *Store) *accountUser { return &accountUser{store: store} }

// AccountInUse refuses the deletion of an account with lines.
func (u *accountUser) AccountInUse(ctx context.Context, tx bun.Tx, id uuid.UUID) (string, error) {
	n, err := u.store.accountLines(ctx, tx, id)
	if err != nil || n == 0 {
		return "", err
	}
	lines := fmt.Sprintf("%d lines", n)
	if n == 1 {
		lines = "1 line"
	}
	return "Bank statements were imported into this account (" + lines + "); they are the record of the payments posted from them and are kept, so the account is not deleted.", nil
}
