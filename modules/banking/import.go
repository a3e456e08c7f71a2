package banking

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/bankaccounts"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

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

func (r *Result) add(o Result) {
	r.Duplicates += o.Duplicates
	r.Posted += o.Posted
	r.Suggested += o.Suggested
	r.Unmatched += o.Unmatched
	r.Debits += o.Debits
	r.Returns += o.Returns
}

// importBatch is how many lines one transaction of an import decides and
// writes. Every statement of a batch carries all of its lines, so the
// round trips are a few a batch, not a few a line; 500 keeps a batch's
// transaction (and the properties' locks it holds) well under a second.
const importBatch = 500

// errRaced is a batch whose lines another import stored while it was
// being decided: the batch is rolled back and decided again.
var errRaced = errors.New("banking: another import stored some of the batch's lines first")

// Import reads a statement into the account and decides each new line.
// The account is checked first, so a stranger learns nothing of the
// file's faults; a file that cannot be read imports nothing: it is read
// once to the end without keeping anything, then again in batches that
// are decided and written as they come, so memory holds a batch, never
// the file's lines nor its bytes (in.File is read as a stream each time).
func (s *Service) Import(ctx context.Context, p auth.Principal, acct *bankaccounts.Account, in ImportInput) (*Result, error) {
	if err := s.MayImport(p, acct); err != nil {
		return nil, err
	}
	if in.Size > s.cfg.MaxBytes {
		return nil, s.TooLarge()
	}
	if in.Size == 0 {
		return nil, fault.Validation("file: is empty")
	}
	mapping := in.Mapping
	if in.MappingID != "" {
		id, err := uuid.Parse(in.MappingID)
		if err != nil {
			return nil, fault.Validation("mapping_id: must be a UUID")
		}
		m, err := s.store.mapping(ctx, acct.ID, id)
		if errors.Is(err, errNotFound) {
			return nil, fault.Validation("mapping_id: is not a CSV mapping of this bank account")
		}
		if err != nil {
			return nil, err
		}
		mapping = &m.Spec
	} else if mapping != nil {
		if d := mapping.check(); len(d) > 0 {
			return nil, fault.Validation(d...)
		}
	}
	if _, err := in.File.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	format, err := SniffFrom(in.File)
	if err != nil {
		return nil, err
	}
	switch {
	case format == "" && mapping != nil:
		format = FormatCSV
	case format == "xml":
		return nil, fault.New(fault.KindInvalid, "unsupported_format", "The XML file is neither a camt.053 statement nor an OFX file.")
	}
	n := 0
	if err := ParseFrom(format, in.File, mapping, func(*Line) error { n++; return nil }); err != nil {
		return nil, parseFailure(err)
	}
	res := &Result{Format: format, Lines: n}
	b, err := s.loadBook(ctx, p)
	if err != nil {
		return nil, err
	}
	seen := map[[32]byte]int{}
	batch := make([]*BankLine, 0, importBatch)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := s.importBatch(ctx, p, b, batch, res)
		batch = batch[:0]
		return err
	}
	err = ParseFrom(format, in.File, mapping, func(pl *Line) error {
		l := s.newLine(acct, format, pl, seen)
		if l.Currency != acct.Currency && acct.Currency != "" {
			l.Reasons = append(l.Reasons, ReasonCurrency)
		}
		batch = append(batch, l)
		if len(batch) == importBatch {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return nil, parseFailure(err)
	}
	return res, nil
}

// MayImport refuses p an import into acct of another workspace: an
// administrator reaches other workspaces' accounts, but the matcher reads
// the caller's workspace's contracts. The handler asks before it reads
// the file, so a stranger's upload is not read.
func (s *Service) MayImport(p auth.Principal, acct *bankaccounts.Account) error {
	if acct.WorkspaceID != p.WorkspaceID {
		return fault.Forbidden("Import a statement from within the account's workspace.")
	}
	return nil
}

// TooLarge is the 413 of a statement file over modules.banking.maxbytes.
func (s *Service) TooLarge() error {
	return fault.New(fault.KindTooLarge, "file_too_large",
		fmt.Sprintf("The file is larger than %d bytes, the limit of one statement (modules.banking.maxbytes).", s.cfg.MaxBytes))
}

// parseFailure is the 400 of a file that cannot be read, any other error
// as it is.
func parseFailure(err error) error {
	var pe *ParseError
	if errors.As(err, &pe) {
		return fault.New(fault.KindInvalid, pe.Code, pe.Msg)
	}
	return err
}

// importBatch decides and stores the lines in one transaction, again when
// a concurrent import of the same lines got there first (the second time
// they are duplicates).
func (s *Service) importBatch(ctx context.Context, p auth.Principal, b *book, lines []*BankLine, res *Result) error {
	for attempt := 0; ; attempt++ {
		var counts Result
		err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
			counts = Result{}
			return s.decideBatch(ctx, tx, p, b, lines, &counts)
		})
		if errors.Is(err, errRaced) && attempt < 5 {
			continue
		}
		if err != nil {
			return err
		}
		res.add(counts)
		return nil
	}
}

// batchState is what deciding one batch knows: the open charges of the
// contracts its lines point at (what they still owe, taken off in memory
// as the batch's earlier lines pay them), the properties it holds locked.
type batchState struct {
	owed  map[uuid.UUID][]owedCharge
	props map[uuid.UUID]*properties.Property
}

// owedCharge is what an open charge still owes and when it was due.
type owedCharge struct {
	due  period.Date
	left money.Amount
}

func (st *batchState) owedOf(c *candidate) []money.Amount {
	list := st.owed[c.ID]
	out := make([]money.Amount, len(list))
	for i, o := range list {
		out[i] = o.left
	}
	return out
}

// pay takes amount off what the contract owes, oldest first, as the
// payment will be allocated.
func (st *batchState) pay(contract uuid.UUID, amount money.Amount) {
	list := st.owed[contract]
	for len(list) > 0 && amount > 0 {
		give := min(amount, list[0].left)
		list[0].left -= give
		amount -= give
		if list[0].left == 0 {
			list = list[1:]
		}
	}
	st.owed[contract] = list
}

// split shares amount out over the contracts of one payer: their open
// charges together, oldest due first (the same due day: in the order the
// contracts are given), each contract's oldest first as its payment is
// allocated; what is left over is the first contract's credit. It returns
// each contract's share, in the contracts' order (a share may be 0).
func (st *batchState) split(contracts []uuid.UUID, amount money.Amount) []money.Amount {
	type ref struct{ c, i int }
	var all []ref
	for c, id := range contracts {
		for i := range st.owed[id] {
			all = append(all, ref{c, i})
		}
	}
	slices.SortStableFunc(all, func(a, b ref) int {
		da, db := st.owed[contracts[a.c]][a.i].due, st.owed[contracts[b.c]][b.i].due
		switch {
		case da.Before(db):
			return -1
		case db.Before(da):
			return 1
		}
		return 0
	})
	shares := make([]money.Amount, len(contracts))
	left := amount
	for _, r := range all {
		if left == 0 {
			break
		}
		give := min(left, st.owed[contracts[r.c]][r.i].left)
		shares[r.c] += give
		left -= give
	}
	shares[0] += left
	return shares
}

// decideBatch decides the lines in the file's order and writes them with
// what the decisions do, in a few statements for the whole batch: the
// matcher's reads (known lines, learnt IBANs, open charges) once, the
// properties locked at once, the sure payments posted together
// (payments.PostManyTx), the lines inserted together. Lines are worked on
// as copies, so a batch decided again starts from the file's lines.
func (s *Service) decideBatch(ctx context.Context, tx bun.Tx, p auth.Principal, b *book, in []*BankLine, counts *Result) error {
	work := make([]*BankLine, len(in))
	keys := make([]string, len(in))
	var ibans []string
	for i, l := range in {
		c := *l
		c.Reasons = slices.Clone(l.Reasons)
		work[i] = &c
		keys[i] = l.EntryKey
		if l.CounterpartyIBAN != "" {
			ibans = append(ibans, l.CounterpartyIBAN)
		}
	}
	acctID, ws := in[0].BankAccountID, in[0].WorkspaceID
	var err error
	if b.ibans, err = s.store.payerContracts(ctx, tx, ws, ibans); err != nil {
		return err
	}
	// What the texts say, and which contracts (and properties) the batch
	// may post to or reverse on: those are locked before their charges
	// are read.
	sgs := make([]signals, len(work))
	stored := make([]*BankLine, len(work))
	var contractIDs, propIDs []uuid.UUID
	inSet := map[uuid.UUID]bool{}
	addContract := func(id uuid.UUID) {
		c := b.byID[id]
		if c == nil || inSet[id] {
			return
		}
		inSet[id] = true
		contractIDs = append(contractIDs, id)
		if !inSet[c.PropertyID] {
			inSet[c.PropertyID] = true
			propIDs = append(propIDs, c.PropertyID)
		}
	}
	for i, l := range work {
		switch {
		case l.Amount < 0 && l.IsReturn:
			o, err := s.store.returned(ctx, tx, acctID, -l.Amount, l.CounterpartyIBAN, l.EndToEndID, l.BookingDate)
			if errors.Is(err, errNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			stored[i] = o
			if o.PropertyID != nil && !inSet[*o.PropertyID] {
				inSet[*o.PropertyID] = true
				propIDs = append(propIDs, *o.PropertyID)
			}
			for _, sp := range o.Splits {
				addContract(sp.ContractID)
			}
		case l.Amount > 0:
			if sgs[i], err = s.signalsOf(ctx, tx, b, l); err != nil {
				return err
			}
			for _, list := range [][]uuid.UUID{sgs[i].exact, sgs[i].typo, sgs[i].iban, sgs[i].name} {
				for _, id := range list {
					addContract(id)
				}
			}
		}
	}
	slices.SortFunc(propIDs, func(a, b uuid.UUID) int { return slices.Compare(a[:], b[:]) })
	st := &batchState{}
	if st.props, err = properties.LockMany(ctx, tx, propIDs); err != nil {
		return err
	}
	known, err := s.store.existing(ctx, tx, acctID, keys)
	if err != nil {
		return err
	}
	open, err := expenses.OpenChargesOf(ctx, tx, contractIDs)
	if err != nil {
		return err
	}
	st.owed = make(map[uuid.UUID][]owedCharge, len(open))
	for id, list := range open {
		owed := make([]owedCharge, 0, len(list))
		for _, ch := range list {
			owed = append(owed, owedCharge{due: ch.DueDate, left: ch.Outstanding()})
		}
		st.owed[id] = owed
	}

	today := period.DateOf(s.clock.Now())
	var (
		fresh    []*BankLine
		toPost   []*BankLine
		toSplit  []int
		postIns  []payments.Input
		postProp []uuid.UUID
		returns  []int
		learnt   []PayerIBAN
		original = make([]*BankLine, len(work))
		usedOrig = map[uuid.UUID]bool{}
	)
	for i, l := range work {
		if known[l.EntryKey] {
			counts.Duplicates++
			continue
		}
		// Two identical lines of one batch have different keys; a key
		// twice would be the file's own repetition of an entry.
		known[l.EntryKey] = true
		var d decision
		switch {
		case l.Amount < 0 && l.IsReturn:
			o := returnedInBatch(fresh, l)
			if o == nil && stored[i] != nil && !usedOrig[stored[i].ID] {
				o = stored[i]
			}
			if o == nil {
				d = decision{status: Unmatched, reasons: []string{ReasonReturnedDebit, ReasonReturnNotFound}}
				break
			}
			usedOrig[o.ID] = true
			original[i] = o
			d = decision{status: Posted, reasons: []string{ReasonReturnedDebit}, contract: b.byID[derefID(o.ContractID)]}
		case l.Amount < 0:
			d = decision{status: Debit, reasons: []string{ReasonDebit}}
			l.BillProposal = billProposal(b, l)
			if l.BillProposal.SupplierID != nil {
				d.reasons = append(d.reasons, ReasonSupplier)
			}
		default:
			sg := sgs[i]
			// A payer IBAN learnt by an earlier line of the batch counts.
			sg.iban = sg.iban[:0:0]
			for _, id := range b.ibans[l.CounterpartyIBAN] {
				if l.CounterpartyIBAN != "" && b.byID[id] != nil {
					sg.iban = append(sg.iban, id)
				}
			}
			if d, err = s.decide(b, l, sg, st.owedOf); err != nil {
				return err
			}
			if d.status == Posted && l.BookingDate.After(today) {
				d.status, d.reasons = Suggested, append(d.reasons, ReasonFutureDate)
			}
			if d.status == Posted && len(l.Reasons) > 0 {
				// The line is in another currency than the account.
				d.status = Suggested
			}
			if d.status == Posted && st.props[d.contract.PropertyID] == nil {
				// A contract the IBAN learnt in this batch points at, whose
				// property was not locked: a person decides.
				d.status, d.reasons = Suggested, append(d.reasons, ReasonWeakSignal)
			}
		}
		l.Status = d.status
		l.Reasons = append(l.Reasons, d.reasons...)
		if d.contract != nil {
			l.ContractID, l.PropertyID = &d.contract.ID, &d.contract.PropertyID
		}
		fresh = append(fresh, l)
		switch {
		case l.Status == Posted && original[i] != nil:
			returns = append(returns, i)
		case l.Status == Posted:
			ids, shares := []uuid.UUID{d.contract.ID}, []money.Amount{l.Amount}
			if d.split != nil {
				ids, shares = d.split, st.split(d.split, l.Amount)
			}
			for k, id := range ids {
				c := b.byID[id]
				if shares[k] == 0 {
					continue
				}
				st.pay(id, shares[k])
				in := payments.Input{Amount: shares[k], PaidOn: l.BookingDate, Method: "bank_transfer", Reference: paymentReference(l), ContractID: &c.ID,
					BankAccountID: &l.BankAccountID}
				if c.TenantID != uuid.Nil {
					in.PayerID = &c.TenantID
				}
				toPost, postIns, postProp = append(toPost, l), append(postIns, in), append(postProp, c.PropertyID)
				if d.split != nil {
					toSplit = append(toSplit, len(toPost)-1)
					l.Splits = append(l.Splits, LineSplit{ContractID: id, Amount: shares[k]})
				}
			}
			if d.learn && l.CounterpartyIBAN != "" && !contains(b.ibans[l.CounterpartyIBAN], d.contract.ID) {
				b.ibans[l.CounterpartyIBAN] = append(b.ibans[l.CounterpartyIBAN], d.contract.ID)
				learnt = append(learnt, PayerIBAN{WorkspaceID: ws, IBAN: l.CounterpartyIBAN, ContractID: d.contract.ID, CreatedAt: s.now()})
			}
		}
		count(counts, l)
	}
	if len(fresh) == 0 {
		return nil
	}
	pays, err := s.payments.PostManyTx(ctx, tx, st.props, postProp, p.UserID, postIns)
	if err != nil {
		return err
	}
	for i, pay := range pays {
		if toPost[i].PaymentID == nil {
			// A split line names its first payment; each is in its splits.
			toPost[i].PaymentID = &pay.ID
		}
	}
	for _, k := range toSplit {
		l := toPost[k]
		for j := range l.Splits {
			if l.Splits[j].ContractID == *postIns[k].ContractID {
				l.Splits[j].PaymentID = pays[k].ID
			}
		}
	}
	var marks []*BankLine
	for _, i := range returns {
		l, o := work[i], original[i]
		if err := s.reverseReturned(ctx, tx, p, b, st.props, o, l); err != nil {
			return err
		}
		o.ReturnedBy = &l.ID
		if !slices.Contains(fresh, o) {
			marks = append(marks, o)
		}
	}
	n, err := s.store.insertLines(ctx, tx, fresh)
	if err != nil {
		return err
	}
	if n != len(fresh) {
		return errRaced
	}
	entries := make([]activity.Entry, 0, len(fresh)+len(marks))
	for _, o := range marks {
		before := lineOut(o)
		before.ReturnedBy = nil
		o.UpdatedAt = s.now()
		if err := s.store.markReturned(ctx, tx, o.ID, *o.ReturnedBy, o.UpdatedAt); err != nil {
			return err
		}
		// The earlier line's payment is reversed: its change is a
		// decision of this import too.
		entries = append(entries, activity.Entry{Action: activity.Updated, RecordType: "bank_line", RecordID: o.ID.String(),
			WorkspaceID: o.WorkspaceID, Changes: activity.Diff(before, lineOut(o))})
	}
	if err := s.store.learnMany(ctx, tx, learnt); err != nil {
		return err
	}
	for _, l := range fresh {
		entries = append(entries, activity.Entry{Action: activity.Imported, RecordType: "bank_line", RecordID: l.ID.String(),
			WorkspaceID: l.WorkspaceID, Changes: activity.Diff(nil, lineOut(l))})
	}
	return activity.RecordAll(ctx, tx, entries)
}

// returnedInBatch is the posted credit line of the batch so far that the
// return l takes back: the same end-to-end reference, or else the same
// amount and payer IBAN; the latest, booked by the return's day.
func returnedInBatch(fresh []*BankLine, l *BankLine) *BankLine {
	for k := len(fresh) - 1; k >= 0; k-- {
		o := fresh[k]
		if o.Status != Posted || o.Amount <= 0 || o.ReturnedBy != nil || o.BookingDate.After(l.BookingDate) {
			continue
		}
		if l.EndToEndID != "" && o.EndToEndID == l.EndToEndID {
			return o
		}
	}
	for k := len(fresh) - 1; k >= 0; k-- {
		o := fresh[k]
		if o.Status != Posted || o.Amount != -l.Amount || o.ReturnedBy != nil || o.BookingDate.After(l.BookingDate) {
			continue
		}
		if l.CounterpartyIBAN == "" || o.CounterpartyIBAN == l.CounterpartyIBAN {
			return o
		}
	}
	return nil
}

// count adds what happened to the new line l to r.
func count(r *Result, l *BankLine) {
	switch {
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
