package contracts

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/chargename"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// ChangePrepaymentTx changes, inside tx, the monthly utility prepayment of
// the active contract c to amount from from (the first day of a month
// after the start, within the contract), as an operating-cost statement
// proposes (§ 560 Abs. 4 BGB; France: art. 23 loi n° 89-462): the running
// prepayment expense ends the day before from, a new one bills amount
// from from on (none when amount is 0), and the contract's prepayment term
// says amount. Charges already made are never touched; a month already
// billed is a 409 already_billed. The caller holds the property's lock
// (properties.Lock) and writes the letter.
func (s *Service) ChangePrepaymentTx(ctx context.Context, tx bun.Tx, prop *properties.Property, c *Contract, amount money.Amount, from period.Date) error {
	if c.StatusOn(s.today()) != Active {
		return fault.Conflict("not_active", "Only an active contract's prepayment can change.")
	}
	if amount < 0 || amount > money.Max {
		return fault.Validation("amount: must be 0 or more and at most " + money.Max.String())
	}
	if from.String()[8:] != "01" || !c.StartDate.Before(from) || (!c.EndDate.IsZero() && from.After(c.EndDate)) {
		return fault.Validation("from: must be the first day of a month after the contract's start and within the contract")
	}
	running, err := expenses.ContractExpensesOfKind(ctx, tx, c.ID, chargename.Prepayment)
	if err != nil {
		return err
	}
	var old money.Amount
	for _, e := range running {
		if !e.EndDate.IsZero() && e.EndDate.Before(from) {
			continue
		}
		if !e.StartDate.Before(from) {
			return fault.Conflict("already_changed", fmt.Sprintf("A prepayment from %s is already recorded; choose a later month.", e.StartDate))
		}
		last, err := s.expenses.LastBilledPeriodTx(ctx, tx, e.ID)
		if err != nil {
			return err
		}
		if last != "" && last >= period.MonthLabel(from) {
			return fault.Conflict("already_billed", fmt.Sprintf("The prepayment is billed up to %s; choose a later month.", last))
		}
		if err := s.expenses.EndExpenseTx(ctx, tx, e.ID, dayBefore(from)); err != nil {
			return err
		}
		old = e.Amount
	}
	if amount > 0 {
		name, monthly, due := chargename.Name{Kind: chargename.Prepayment, Args: []string{c.Number}}, expenses.Monthly, c.DueDay
		in := expenses.ExpenseInput{Generated: &name, Type: &monthly, Amount: &amount, StartDate: &from, DueDay: &due}
		if !c.EndDate.IsZero() {
			in.SetEndDate, in.EndDate = true, c.EndDate
		}
		if _, err := s.expenses.CreateExpenseTx(ctx, tx, prop, in, c.ID); err != nil {
			return err
		}
	}
	before := s.view(c)
	terms, err := withPrepayment(c.TermList(), amount)
	if err != nil {
		return err
	}
	now := s.now()
	if err := updateTerms(ctx, tx, c.ID, terms, now); err != nil {
		return err
	}
	after := *c
	after.Terms, after.UpdatedAt = terms, now
	*c = after
	return activity.Record(ctx, tx, activity.Entry{
		Action: "prepayment_changed", RecordType: "contract", RecordID: c.ID.String(), WorkspaceID: c.WorkspaceID,
		Changes: activity.Diff(map[string]any{"prepayment": old, "contract": before}, map[string]any{"prepayment": amount, "from": from, "contract": s.view(&after)}),
	})
}

// withPrepayment is the terms with the prepayment term set to amount: the
// generic term when the contract has it or has neither, else Germany's.
func withPrepayment(terms []Term, amount money.Amount) (string, error) {
	v, err := json.Marshal(amount)
	if err != nil {
		return "", fmt.Errorf("prepayment term: %w", err)
	}
	code := CodePrepayment
	has := map[string]bool{}
	for _, t := range terms {
		has[t.Code] = true
	}
	if !has[CodePrepayment] && has[CodePrepaymentDE] {
		code = CodePrepaymentDE
	}
	out := make([]Term, 0, len(terms)+1)
	set := false
	for _, t := range terms {
		if t.Code == code {
			t.Value, set = json.RawMessage(strings.TrimSpace(string(v))), true
		}
		out = append(out, t)
	}
	if !set {
		out = append(out, Term{Code: code, Value: v})
	}
	text, err := json.Marshal(out)
	if err != nil {
		return "", fmt.Errorf("prepayment term: %w", err)
	}
	return string(text), nil
}
