package compensations

import (
	"context"
	"fmt"
	"math/big"

	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/law"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// InterestLine is the interest one receipt of the deposit earned: simple
// interest from the day it was received to the settlement's day, counted
// actual days over 365 (act/365, leap years too), rounded half up to the
// cent per line, so the lines add up to the total.
type InterestLine struct {
	ReceivedOn period.Date  `json:"received_on"`
	Amount     money.Amount `json:"amount"`
	Days       int          `json:"days"`
	Interest   money.Amount `json:"interest"`
}

// depositInterest decides the rate and computes the interest the deposit
// held earned up to settled. The rate is the one entered on the settlement,
// else the contract's deposit_interest_rate. Where the law of the
// property's country gives the tenant no interest (France, loi 89-462
// art. 22; the United Kingdom) a rate entered is a 400 and a configured one
// is not used; where the table knows no rule, an agreed rate is applied.
// rate is nil when no interest applies.
func (s *Service) depositInterest(ctx context.Context, tx bun.Tx, country string, c *contracts.Contract, deposit *expenses.Charge,
	entered *contracts.InterestRate, settled period.Date) (rate *contracts.InterestRate, lines []InterestLine, total money.Amount, err error) {
	rule := law.Of(country).DepositInterest
	rate = entered
	if rate == nil {
		rate = c.DepositInterest()
	}
	if !rule.Owed && rule.Source != "" {
		if entered != nil && *entered > 0 {
			return nil, nil, 0, fault.Validation(fmt.Sprintf("interest_rate: the deposit earns the tenant no interest in %s (%s)", country, rule.Source))
		}
		return nil, []InterestLine{}, 0, nil
	}
	if rate == nil {
		if !rule.Owed {
			return nil, []InterestLine{}, 0, nil
		}
		zero := contracts.InterestRate(0)
		rate = &zero
	}
	received, err := payments.ReceivedFor(ctx, tx, deposit.ID)
	if err != nil {
		return nil, nil, 0, err
	}
	// What was marked paid without a payment counts from the day the
	// deposit fell due.
	left := deposit.PaidAmount
	for _, r := range received {
		if left <= 0 {
			break
		}
		a := min(r.Amount, left)
		left -= a
		lines = append(lines, interestLine(r.PaidOn, a, *rate, settled))
	}
	if left > 0 {
		lines = append(lines, interestLine(deposit.DueDate, left, *rate, settled))
	}
	if lines == nil {
		lines = []InterestLine{}
	}
	for _, l := range lines {
		total += l.Interest
	}
	return rate, lines, total, nil
}

// interestLine is amount's simple interest at rate (percent a year) from
// from to to, act/365, rounded half up to the cent.
func interestLine(from period.Date, amount money.Amount, rate contracts.InterestRate, to period.Date) InterestLine {
	days := max(0, int(to.Time().Sub(from.Time()).Hours()/24))
	// cents x (rate/100 in ten-thousandths) x days / 365: exact in big
	// integers, as amount x rate x days overflows 64 bits for large sums.
	num := new(big.Int).Mul(big.NewInt(int64(amount)), big.NewInt(int64(rate)))
	num.Mul(num, big.NewInt(int64(days)))
	den := big.NewInt(100 * 10000 * 365)
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if new(big.Int).Mul(r, big.NewInt(2)).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	return InterestLine{ReceivedOn: from, Amount: amount, Days: days, Interest: money.Amount(q.Int64())}
}
