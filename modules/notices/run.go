package notices

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/messages"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// page is how many candidates the run reads, asks about and decides at
// once.
const page = 500

// Kind is the daily notices run of a workspace (jobs.Periodic): rent
// calls, reminders and contract ends, each decided by set-based reads
// over the workspace and written once per key (messages.Notice), so a
// second run of the day, a retried job or another instance writes nothing
// twice. It runs after the billing (06:00) and the late fees (06:30) by
// default, and waits for their runs of the day when they are late, so the
// day's new charges are called on the day they are made.
func Kind(s *Service) jobs.Kind {
	return jobs.Kind{Name: "notices", At: "08:00", After: []string{"billing", "late_fees"}, Run: s.run}
}

// counts of a run, by name.
const (
	countRentCalls    = "rent_calls"
	countReminders    = "reminders"
	countContractEnds = "contract_ends"
	countSwitchedOff  = "switched_off"
	countErrors       = "errors"
)

func (s *Service) run(ctx context.Context, run jobs.Run) (map[string]int, []string, error) {
	counts := map[string]int{countRentCalls: 0, countReminders: 0, countContractEnds: 0, countSwitchedOff: 0, countErrors: 0}
	var problems []string
	today, err := dateOf(run.LocalDate)
	if err != nil {
		return counts, nil, err
	}
	ws, err := s.store.workspace(ctx, s.db, run.WorkspaceID)
	if err != nil {
		return counts, nil, err
	}
	fail := func(what string, err error) {
		counts[countErrors]++
		if len(problems) < 50 {
			problems = append(problems, fmt.Sprintf("%s: %v", what, err))
		}
		s.log.Warn("notice not written", "workspace", run.WorkspaceID, "notice", what, "error", err)
	}
	if ws.RentCall {
		due, err := s.owed(ctx, run.WorkspaceID, today, today.AddDays(ws.RentCallDays), true)
		if err != nil {
			return counts, problems, err
		}
		for i := range due {
			due[i].today = today
		}
		if err := s.send(ctx, ws, RentCall, due, func(g group) string { return g.due.String() }, counts, countRentCalls, fail); err != nil {
			return counts, problems, err
		}
	}
	if ws.Reminder {
		if err := s.dun(ctx, ws, today, counts, fail); err != nil {
			return counts, problems, err
		}
	}
	if ws.ContractEnd {
		ending, err := s.ending(ctx, run.WorkspaceID, today, today.AddDays(ws.ContractEndDays))
		if err != nil {
			return counts, problems, err
		}
		if err := s.send(ctx, ws, ContractEnd, ending, func(g group) string { return g.due.String() }, counts, countContractEnds, fail); err != nil {
			return counts, problems, err
		}
	}
	return counts, problems, nil
}

// dun climbs the dunning ladder: every contract of the workspace with
// something overdue today (due before today and still owed, of any age:
// the balance's overdue) gets step 1 when it is not on the ladder, and the
// next step once the delay after its last one has passed; step 3 is the
// last. A contract on the ladder with nothing overdue any more is taken
// off it, so its next arrear starts at step 1 again.
func (s *Service) dun(ctx context.Context, ws *Settings, today period.Date, counts map[string]int, fail func(string, error)) error {
	overdue, err := s.owed(ctx, ws.WorkspaceID, period.NewDate(1900, 1, 1), today.AddDays(-FirstReminderDays), false)
	if err != nil {
		return err
	}
	ladder, err := s.store.ladder(ctx, s.db, ws.WorkspaceID)
	if err != nil {
		return err
	}
	inArrears := make(map[uuid.UUID]bool, len(overdue))
	for _, g := range overdue {
		inArrears[g.contract] = true
	}
	var paid []uuid.UUID
	for id := range ladder {
		if !inArrears[id] {
			paid = append(paid, id)
		}
	}
	for start := 0; start < len(paid); start += page {
		if err := s.store.release(ctx, s.db, paid[start:min(start+page, len(paid))]); err != nil {
			return err
		}
	}
	var due []group
	for start := 0; start < len(overdue); start += page {
		chunk := overdue[start:min(start+page, len(overdue))]
		ids := make([]uuid.UUID, len(chunk))
		for i, g := range chunk {
			ids[i] = g.contract
		}
		own, err := s.store.contracts(ctx, s.db, ids)
		if err != nil {
			return err
		}
		for _, g := range chunk {
			d := ladder[g.contract]
			delays := own[g.contract].Delays(ws)
			switch {
			case d == nil:
				g.step, g.since = 1, today
			case d.Step >= lastStep:
				continue // the last step was sent
			case !today.Before(d.SentOn.AddDays(delays[d.Step-1])):
				g.step, g.since = d.Step+1, d.Since
			default:
				continue
			}
			g.today = today
			due = append(due, g)
		}
	}
	return s.send(ctx, ws, Reminder, due, func(g group) string { return g.since.String() + "+" + strconv.Itoa(g.step) },
		counts, countReminders, fail)
}

// lastStep is the dunning ladder's last step: a formal demand with its
// letter as a PDF.
const lastStep = 3

// demand renders the last step's letter (printforms.Demand: in France the
// mise en demeure de payer) and files it as a document of the contract,
// in the notice's transaction; it returns the document to attach.
func (s *Service) demand(ctx context.Context, tx bun.Tx, c *contracts.Contract, l *letter, g group, title string, bank *printforms.Bank) (uuid.UUID, error) {
	lines := make([]printforms.ReceiptLine, len(g.charges))
	var total money.Amount
	for i := range g.charges {
		ch := &g.charges[i]
		lines[i] = printforms.ReceiptLine{Charge: ch.Name, Period: ch.Period, Amount: ch.Outstanding()}
		total += ch.Outstanding()
	}
	currency := g.charges[0].Currency
	pdf, err := s.forms.Demand(c.Locale, printforms.Demand{Title: l.w.FinalTitle, ContractNumber: c.Number, Date: g.today,
		Landlord: printforms.Party{Name: l.landlord, Address: l.landlordAddress}, Tenant: printforms.Party{Name: l.tenant, Address: l.tenantAddress},
		PropertyAddress: l.place(), Currency: currency, Lines: lines, Total: total,
		Paragraphs: []string{fmt.Sprintf(l.w.FinalDemand, l.st.Money(total, currency))}, Bank: bank})
	if err != nil {
		return uuid.Nil, err
	}
	name := fileName("demand-" + c.Number + "-" + g.today.String() + ".pdf")
	blob, err := s.files.Put(ctx, name, bytes.NewReader(pdf))
	if err != nil {
		return uuid.Nil, err
	}
	doc, err := s.files.Insert(ctx, tx, documents.NewFile{WorkspaceID: c.WorkspaceID, PropertyID: c.PropertyID,
		ContractID: &c.ID, Title: title, Category: "other", UploadedBy: c.OwnerID}, blob)
	if err != nil {
		s.files.Discard(blob)
		return uuid.Nil, err
	}
	return doc.ID, nil
}

// group is one notice's matter: a contract's charges due on one day (a
// rent call), a contract's overdue charges, due the oldest (a reminder),
// or (charges nil) a contract ending on due.
type group struct {
	contract uuid.UUID
	due      period.Date
	charges  []expenses.Charge
	// A reminder's step on the ladder, the day its arrear began (step 1)
	// and the run's day.
	step         int
	since, today period.Date
}

// owed reads the workspace's owed charges due from from to to, grouped by
// contract and, for a rent call (call), by due date: a call names what
// falls due on one day, without the late fees (they are due at once, and
// the reminders name them); a reminder names everything overdue, so a
// tenant late with the rent and its interest gets one mail, not two.
func (s *Service) owed(ctx context.Context, workspaceID int64, from, to period.Date, call bool) ([]group, error) {
	type key struct {
		contract uuid.UUID
		due      string
	}
	byKey := map[key]*group{}
	for after := uuid.Nil; ; {
		list, err := s.expenses.Owed(ctx, workspaceID, from, to, after, page)
		if err != nil {
			return nil, err
		}
		for _, c := range list {
			k := key{contract: *c.ContractID}
			if call {
				if c.Kind == expenses.Penalty {
					continue
				}
				k.due = c.DueDate.String()
			}
			g := byKey[k]
			if g == nil {
				g = &group{contract: k.contract, due: c.DueDate}
				byKey[k] = g
			}
			if c.DueDate.Before(g.due) {
				g.due = c.DueDate
			}
			g.charges = append(g.charges, c)
		}
		if len(list) < page {
			break
		}
		after = list[len(list)-1].ID
	}
	out := make([]group, 0, len(byKey))
	for _, g := range byKey {
		sortCharges(g.charges)
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].due != out[j].due {
			return out[i].due.Before(out[j].due)
		}
		return out[i].contract.String() < out[j].contract.String()
	})
	return out, nil
}

// sortCharges orders a notice's charges: late fees last, then by due
// date, period and name.
func sortCharges(charges []expenses.Charge) {
	sort.Slice(charges, func(i, j int) bool {
		if (charges[i].Kind == expenses.Penalty) != (charges[j].Kind == expenses.Penalty) {
			return charges[j].Kind == expenses.Penalty
		}
		if charges[i].DueDate != charges[j].DueDate {
			return charges[i].DueDate.Before(charges[j].DueDate)
		}
		if charges[i].Period != charges[j].Period {
			return charges[i].Period < charges[j].Period
		}
		return charges[i].Name < charges[j].Name
	})
}

// ending reads the workspace's contracts ending from from to to.
func (s *Service) ending(ctx context.Context, workspaceID int64, from, to period.Date) ([]group, error) {
	var out []group
	for after := uuid.Nil; ; {
		list, err := s.contracts.Ending(ctx, workspaceID, from, to, after, page)
		if err != nil {
			return nil, err
		}
		for i := range list {
			out = append(out, group{contract: list[i].ID, due: list[i].EndsOn()})
		}
		if len(list) < page {
			return out, nil
		}
		after = list[len(list)-1].ID
	}
}

// send writes the notices of kind for groups, a batch (page) at a time:
// the notices that exist already and the contracts that switched kind off
// are left out with one read each, and the others are written together in
// the batch's transaction (sendBatch). A batch that fails is written
// again notice by notice, each in its own transaction, so one that fails
// (counted, with its problem) does not hold back the others.
func (s *Service) send(ctx context.Context, ws *Settings, kind string, groups []group, step func(group) string,
	counts map[string]int, counter string, fail func(string, error)) error {
	size := s.batchSize()
	for start := 0; start < len(groups); start += size {
		chunk := groups[start:min(start+size, len(groups))]
		keys := make([]string, len(chunk))
		ids := make([]uuid.UUID, 0, len(chunk))
		for i, g := range chunk {
			keys[i] = messages.Notice{Kind: kind, Subject: g.contract, Step: step(g)}.Key()
			ids = append(ids, g.contract)
		}
		done, err := s.messages.Noticed(ctx, s.db, keys)
		if err != nil {
			return err
		}
		own, err := s.store.contracts(ctx, s.db, ids)
		if err != nil {
			return err
		}
		todo := make([]group, 0, len(chunk))
		for i, g := range chunk {
			if done[keys[i]] {
				continue
			}
			if !own[g.contract].On(ws, kind) {
				counts[countSwitchedOff]++
				continue
			}
			todo = append(todo, g)
		}
		if len(todo) == 0 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		batched := false
		if !s.batch.oneByOne {
			sent, err := s.sendBatch(ctx, kind, todo, step)
			if err := ctx.Err(); err != nil {
				return err
			}
			if err == nil {
				counts[counter] += sent
				batched = true
			} else {
				s.log.Warn("notices' batch not written; writing them one by one", "workspace", ws.WorkspaceID, "kind", kind,
					"notices", len(todo), "error", err)
			}
		}
		if !batched {
			for _, g := range todo {
				if err := ctx.Err(); err != nil {
					return err
				}
				sent, err := s.notify(ctx, g.contract, func(ctx context.Context, tx bun.Tx, c *contracts.Contract) (messages.Notice, error) {
					return s.compose(ctx, tx, c, kind, g, step(g))
				})
				if err != nil {
					fail(fmt.Sprintf("%s of contract %s (%s)", kind, g.contract, step(g)), err)
					continue
				}
				if sent {
					counts[counter]++
				}
			}
		}
		if s.batch.after != nil {
			if err := s.batch.after(); err != nil {
				return err
			}
		}
	}
	return nil
}

// compose writes the notice of kind about g in c's language, one notice
// by itself: the letter and the account read through tx, the reminder's
// step recorded in tx.
func (s *Service) compose(ctx context.Context, tx bun.Tx, c *contracts.Contract, kind string, g group, step string) (messages.Notice, error) {
	l, err := s.letterFor(ctx, tx, c)
	if err != nil {
		return messages.Notice{}, err
	}
	var bank *printforms.Bank
	if kind == RentCall || kind == Reminder {
		if bank, err = s.bankOf(ctx, tx, c); err != nil {
			return messages.Notice{}, err
		}
	}
	n, d, err := s.write(ctx, tx, c, l, bank, kind, g, step)
	if err != nil || d == nil {
		return n, err
	}
	// The contract stands on this step from now, in the notice's
	// transaction: the next step counts its delay from today.
	return n, s.store.climb(ctx, tx, d)
}

// write is the notice of kind about g in c's language from its letter l
// and the account the rent is paid to (bank, nil when none); the letter
// of a rent call or a last step is rendered and filed through tx. A
// reminder comes with the step the contract stands on once it is sent,
// for the caller to record in the same transaction.
func (s *Service) write(ctx context.Context, tx bun.Tx, c *contracts.Contract, l *letter, bank *printforms.Bank, kind string, g group, step string) (messages.Notice, *Dunning, error) {
	n := messages.Notice{Kind: kind, Subject: c.ID, Step: step, ContractID: c.ID}
	due := l.st.Date(g.due)
	switch kind {
	case RentCall:
		n.Title = fmt.Sprintf(l.w.RentCallSubject, due, c.Number)
		remittance := ""
		if bank != nil {
			remittance = s.forms.Remittance(c.Locale, g.due, c.Number)
		}
		// The letter, with the account and the QR code of the payment, is
		// attached and kept as a document of the contract.
		doc, err := s.rentCallDoc(ctx, tx, c, s.rentCallForm(c, l, g, g.today, bank), n.Title)
		if err != nil {
			return messages.Notice{}, nil, err
		}
		n.Attachments = []uuid.UUID{doc}
		n.Body = l.body(fmt.Sprintf(l.w.RentCallIntro, due), l.chargeLines(g.charges),
			s.forms.BankLines(c.Locale, bank, remittance), l.w.RentCallOutro)
		return n, nil, nil
	case Reminder:
		n.Title = fmt.Sprintf(l.w.ReminderSubject[g.step-1], due, c.Number)
		outro := l.w.ReminderOutro
		if g.step == lastStep {
			outro = l.w.FinalOutro
			doc, err := s.demand(ctx, tx, c, l, g, n.Title, bank)
			if err != nil {
				return messages.Notice{}, nil, err
			}
			n.Attachments = []uuid.UUID{doc}
		}
		n.Body = l.body(fmt.Sprintf(l.w.ReminderIntro, due), l.chargeLines(g.charges),
			s.forms.BankLines(c.Locale, bank, ""), outro)
		return n, &Dunning{ContractID: c.ID, WorkspaceID: c.WorkspaceID, Since: g.since, Step: g.step,
			SentOn: g.today, UpdatedAt: s.now()}, nil
	case ContractEnd:
		n.Title = fmt.Sprintf(l.w.EndSubject, due)
		n.Body = l.body(fmt.Sprintf(l.w.EndBody, due))
		return n, nil, nil
	default:
		return messages.Notice{}, nil, fmt.Errorf("notices: no text for %q", kind)
	}
}
