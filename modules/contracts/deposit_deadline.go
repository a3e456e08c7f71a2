package contracts

import (
	"strings"

	"github.com/propman/propman/platform/period"
)

// DepositDeadline is the day by which a landlord must settle the deposit of
// a contract that ended on end, in the country (ISO 3166-1 alpha-2) of its
// property. Deposit settlement (modules/compensations) prints it on the
// statement and the calendar shows it, so both read this one table.
// statutory is false where the law sets no fixed term and the date is the
// customary one.
//
//   - DE: no fixed term; courts allow a reasonable one, at most six months
//     (BGH VIII ZR 71/05).
//   - FR: two months after the keys are returned, one month when the
//     check-out matches the check-in (loi n° 89-462, art. 22); matching
//     says which.
//   - ES: thirty days (Ley 29/1994, art. 36.4).
//   - GB: ten days once the amount is agreed (Housing Act 2004, deposit
//     protection schemes); counted here from the end.
//   - elsewhere: thirty days, not statutory.
func DepositDeadline(country string, end period.Date, matching bool) (deadline period.Date, statutory bool) {
	switch strings.ToUpper(country) {
	case "DE":
		return addMonths(end, 6), false
	case "FR":
		if matching {
			return addMonths(end, 1), true
		}
		return addMonths(end, 2), true
	case "ES":
		return end.AddDays(30), true
	case "GB":
		return end.AddDays(10), true
	default:
		return end.AddDays(30), false
	}
}

// addMonths keeps the day of the month, or the month's last day where it has
// fewer: six months after 31 August is 28 February, not 3 March.
func addMonths(d period.Date, n int) period.Date {
	first := period.NewDate(d.Year(), d.Month(), 1).Time().AddDate(0, n, 0)
	last := first.AddDate(0, 1, -1).Day()
	return period.NewDate(first.Year(), first.Month(), min(d.Day(), last))
}
