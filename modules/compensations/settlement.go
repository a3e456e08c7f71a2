package compensations

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/journal"
	"github.com/propman/propman/platform/law"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// DepositChargeName is the name the contracts module gives a contract's
// deposit charge (a manual charge of the contract made at activation).
const DepositChargeName = "Deposit"

// Settlement is a row of deposit_settlements.
type Settlement struct {
	bun.BaseModel `bun:"table:deposit_settlements"`

	ID               uuid.UUID    `bun:"id,pk"`
	WorkspaceID      int64        `bun:"workspace_id,notnull"`
	PropertyID       uuid.UUID    `bun:"property_id,notnull"`
	ContractID       uuid.UUID    `bun:"contract_id,notnull"`
	Currency         string       `bun:"currency,notnull"`
	EndedOn          period.Date  `bun:"ended_on,notnull"`
	SettledOn        period.Date  `bun:"settled_on,notnull"`
	Held             money.Amount `bun:"deposit_held_minor,notnull"`
	Owed             money.Amount `bun:"owed_minor,notnull"`
	DeductionsTotal  money.Amount `bun:"deductions_minor,notnull"`
	Applied          money.Amount `bun:"applied_minor,notnull"`
	Refund           money.Amount `bun:"refund_minor,notnull"`
	StillOwed        money.Amount `bun:"still_owed_minor,notnull"`
	Deductions       string       `bun:"deductions,notnull"`
	AppliedPaymentID *uuid.UUID   `bun:"applied_payment_id"`
	CompensationID   *uuid.UUID   `bun:"compensation_id"`
	Deadline         period.Date  `bun:"deadline,notnull"`
	Statutory        bool         `bun:"statutory,notnull"`
	Matching         *bool        `bun:"matching"`
	// InterestRateE4 is the yearly rate the interest was computed at (a
	// contracts.InterestRate; nil: no interest applies), Interest the
	// interest the deposit earned (part of the refund), InterestLines the
	// JSON of its InterestLines.
	InterestRateE4 *int64       `bun:"interest_rate_e4"`
	Interest       money.Amount `bun:"interest_minor,notnull"`
	InterestLines  string       `bun:"interest_lines,notnull"`
	CreatedBy      int64        `bun:"created_by,notnull"`
	CreatedAt      time.Time    `bun:"created_at,notnull"`
}

// Deduction is one agreed deduction from the deposit (stored as JSON).
type Deduction struct {
	Reason   string       `json:"reason"`
	Amount   money.Amount `json:"amount"`
	Evidence []string     `json:"evidence"`
}

// SettleInput is a settlement request as the handler checked it.
type SettleInput struct {
	ContractID uuid.UUID
	Deductions []Deduction
	// InterestRate is the yearly rate entered (nil: the contract's).
	InterestRate *contracts.InterestRate
	evidence     []uuid.UUID
}

func errNoSettlement() error { return fault.NotFound("Deposit settlement not found.") }

// Settle settles the deposit of an ended or terminated contract of prop in
// one transaction under the property's lock:
//
//   - held: what was paid on the contract's deposit charge;
//   - owed: what is still owed on the contract's other charges, less a
//     fine the law voids (platform/law) and its late fee;
//   - deductions: the agreed ones, each with a reason and evidence; their
//     sum may not exceed held (400);
//   - applied = min(owed, held - deductions) is paid from the deposit: a
//     payment (method other) allocated to the owed charges oldest first,
//     so the contract's balance shows them paid;
//   - refund = held - deductions - applied, recorded as a pending
//     deposit_refund compensation (none when 0); still_owed = owed -
//     applied is what the tenant still owes.
//
// The legal deadline is contracts.DepositDeadline of the property's
// country, the contract's end and whether its check-out matches its
// check-in. 409 contract_not_ended, no_deposit, already_settled.
func (s *Service) Settle(ctx context.Context, p auth.Principal, prop *properties.Property, in SettleInput) (*Settlement, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("settlement id: %w", err)
	}
	var out *Settlement
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if _, err := properties.Lock(ctx, tx, prop.ID); err != nil {
			return err
		}
		c, err := s.contractOf(ctx, tx, prop, in.ContractID, "contract_id")
		if err != nil {
			return err
		}
		today := s.today()
		if st := c.StatusOn(today); st != contracts.Ended && st != contracts.Terminated {
			return fault.Conflict("contract_not_ended", "The contract has not ended; terminate it or wait for its end date.")
		}
		done, err := settled(ctx, tx, c.ID)
		if err != nil {
			return err
		}
		if done {
			return fault.Conflict("already_settled", "The contract's deposit was settled already.")
		}
		if len(in.evidence) > 0 {
			found, err := s.files.OfProperty(ctx, tx, prop.ID, in.evidence)
			if err != nil {
				return err
			}
			if len(found) != len(in.evidence) {
				return fault.Validation("deductions: every evidence id must be a document of this property")
			}
		}
		charges, err := expenses.ContractCharges(ctx, tx, prop.ID, c.ID)
		if err != nil {
			return err
		}
		var deposit *expenses.Charge
		var owedCharges []*expenses.Charge
		var owed money.Amount
		// A fine the law voids (one recorded before the law table refused
		// it) is no debt, nor is a late fee on it: neither is taken from
		// the deposit.
		void := map[uuid.UUID]bool{}
		if !law.Of(prop.CountryCode).Fines {
			for i := range charges {
				if charges[i].Kind == expenses.Fine {
					void[charges[i].ID] = true
				}
			}
		}
		for i := range charges {
			ch := &charges[i]
			if deposit == nil && ch.Kind == expenses.Regular && ch.ExpenseID == nil && ch.Name == DepositChargeName {
				deposit = ch
				continue
			}
			if void[ch.ID] || (ch.PenaltyFor != nil && void[*ch.PenaltyFor]) {
				continue
			}
			if o := ch.Outstanding(); o > 0 {
				owed += o
				owedCharges = append(owedCharges, ch)
			}
		}
		if deposit == nil {
			return fault.Conflict("no_deposit", "The contract has no deposit charge to settle.")
		}
		st := &Settlement{ID: id, WorkspaceID: prop.WorkspaceID, PropertyID: prop.ID, ContractID: c.ID, Currency: prop.Currency,
			EndedOn: c.EndsOn(), SettledOn: today, Held: deposit.PaidAmount, Owed: owed, Deductions: "[]",
			CreatedBy: p.UserID, CreatedAt: s.now()}
		rate, lines, interest, err := s.depositInterest(ctx, tx, prop.CountryCode, c, deposit, in.InterestRate, today)
		if err != nil {
			return err
		}
		if rate != nil {
			n := int64(*rate)
			st.InterestRateE4 = &n
		}
		st.Interest = interest
		if b, err := json.Marshal(lines); err == nil {
			st.InterestLines = string(b)
		}
		// The interest increases the security (§ 551 Abs. 3 BGB): it is
		// the tenant's, set off against what is owed like the deposit and
		// refunded with what is left.
		security := st.Held + st.Interest
		for _, d := range in.Deductions {
			st.DeductionsTotal += d.Amount
		}
		if st.DeductionsTotal > security {
			return fault.Validation(fmt.Sprintf("deductions: add up to %s, more than the deposit held with its interest, %s", st.DeductionsTotal, security))
		}
		if b, err := json.Marshal(in.Deductions); err == nil && len(in.Deductions) > 0 {
			st.Deductions = string(b)
		}
		st.Applied = min(owed, security-st.DeductionsTotal)
		st.Refund = security - st.DeductionsTotal - st.Applied
		st.StillOwed = owed - st.Applied
		matching, recorded, err := s.assets.Matching(ctx, tx, c.ID)
		if err != nil {
			return err
		}
		if recorded {
			st.Matching = &matching
		}
		st.Deadline, st.Statutory = contracts.DepositDeadline(prop.CountryCode, st.EndedOn, matching)
		tenant, hasTenant, err := contracts.TenantOf(ctx, tx, c.ID)
		if err != nil {
			return err
		}
		if st.Applied > 0 {
			contractID := c.ID
			// The deposit set off against what is owed: no money moved,
			// so its receipt is a set-off statement (payments.SetOff).
			pin := payments.Input{Amount: st.Applied, PaidOn: today, Method: payments.SetOff, ContractID: &contractID, Explicit: true,
				Contra: journal.DepositsHeld}
			if hasTenant {
				pin.PayerID = &tenant
			}
			left := st.Applied
			for _, ch := range owedCharges {
				if left == 0 {
					break
				}
				give := min(left, ch.Outstanding())
				pin.Allocations = append(pin.Allocations, payments.AllocationInput{ChargeID: ch.ID, Amount: give})
				left -= give
			}
			pay, err := s.payments.PostTx(ctx, tx, prop, p.UserID, pin)
			if err != nil {
				return err
			}
			st.AppliedPaymentID = &pay.ID
		}
		if err := insertSettlement(ctx, tx, st); err != nil {
			if database.IsUniqueViolation(err) {
				return fault.Conflict("already_settled", "The contract's deposit was settled already.")
			}
			return fmt.Errorf("insert settlement: %w", err)
		}
		if st.Refund > 0 {
			cp, err := s.insert(ctx, tx, p, prop, c, Input{ContractID: c.ID, Kind: DepositRefund, Amount: st.Refund,
				Description: "Deposit refund, contract " + c.Number}, &st.ID)
			if err != nil {
				return err
			}
			st.CompensationID = &cp.ID
			if err := setSettlementCompensation(ctx, tx, st); err != nil {
				return err
			}
		}
		if err := s.journal.Post(ctx, tx, settlementEntries(prop, st)...); err != nil {
			return err
		}
		out = st
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "deposit_settlement", RecordID: st.ID.String(),
			WorkspaceID: prop.WorkspaceID, Changes: activity.Diff(nil, settlementOut(st))})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (s *Service) settlementByID(ctx context.Context, id uuid.UUID) (*Settlement, error) {
	st, err := loadSettlement(ctx, s.db, id)
	if err == nil && st == nil {
		return nil, errNoSettlement()
	}
	return st, err
}

// Settlements returns one page of prop's settlements, oldest first.
func (s *Service) Settlements(ctx context.Context, prop *properties.Property, q listing.Query) ([]Settlement, listing.Result, error) {
	return listSettlements(ctx, s.db, prop.ID, q)
}
