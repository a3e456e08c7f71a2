package contracts

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// CodeLateFee is the late fee, a percentage of what is overdue
// (modules/penalties).
const CodeLateFee = "LATE_FEE_PERCENTAGE"

// LateFees returns, through db, the late-fee percentage of every contract
// of the property that left draft (active, terminated or ended) and whose
// terms set LATE_FEE_PERCENTAGE, by contract id. The percentage is the
// term's stored value: decimal text such as "5" or "2.5" (never an
// exponent), for exact arithmetic by the caller.
func LateFees(ctx context.Context, db bun.IDB, propertyID uuid.UUID) (map[uuid.UUID]string, error) {
	var list []Contract
	if err := db.NewSelect().Model(&list).Column("id", "terms").
		Where("property_id = ?", propertyID).Where("status <> ?", Draft).
		Scan(ctx); err != nil {
		return nil, fmt.Errorf("late fees: %w", err)
	}
	out := map[uuid.UUID]string{}
	for i := range list {
		for _, t := range list[i].TermList() {
			if t.Code == CodeLateFee {
				out[list[i].ID] = string(t.Value)
			}
		}
	}
	return out, nil
}
