package receipts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
)

// PaymentsByNumber returns, through db, the payments whose receipts in
// the workspace carry one of the numbers, by number: a tenant who quotes a
// receipt's number in a transfer names the contract that payment was for
// (the banking module's matcher).
func PaymentsByNumber(ctx context.Context, db bun.IDB, workspaceID int64, numbers []string) (map[string]uuid.UUID, error) {
	out := map[string]uuid.UUID{}
	if len(numbers) == 0 {
		return out, nil
	}
	var rows []Receipt
	err := database.Select(ctx, db, db.NewSelect().Model(&rows).Column("number", "payment_id").
		Where("workspace_id = ?", database.Param{V: workspaceID}).Where("number ?", database.In(numbers)))
	if err != nil {
		return nil, fmt.Errorf("receipts by number: %w", err)
	}
	for _, r := range rows {
		out[r.Number] = r.PaymentID
	}
	return out, nil
}

// issueMany numbers the receipts, each owner's in their order, with one
// upsert an owner, and stores them.
func issueMany(ctx context.Context, tx bun.IDB, rs []Receipt) error {
	if len(rs) == 0 {
		return nil
	}
	byOwner := map[int64][]int{}
	var owners []int64
	for i := range rs {
		if _, ok := byOwner[rs[i].OwnerID]; !ok {
			owners = append(owners, rs[i].OwnerID)
		}
		byOwner[rs[i].OwnerID] = append(byOwner[rs[i].OwnerID], i)
	}
	for _, owner := range owners {
		idx := byOwner[owner]
		n := int64(len(idx))
		year := rs[idx[0]].Year
		var last int64
		err := database.Query(ctx, tx, tx.NewRaw(`INSERT INTO receipt_sequences (owner_id, year, last) VALUES (?, ?, ?)
			ON CONFLICT (owner_id, year) DO UPDATE SET last = receipt_sequences.last + ?
			RETURNING last`, database.Param{V: owner}, database.Param{V: year}, database.Param{V: n}, database.Param{V: n}), &last)
		if err != nil {
			return fmt.Errorf("receipt numbers: %w", err)
		}
		for k, i := range idx {
			rs[i].Seq = int(last - n + int64(k) + 1)
			if err := checkSeq(&rs[i]); err != nil {
				return err
			}
			rs[i].Number = fmt.Sprintf("%04d-%06d", rs[i].Year, rs[i].Seq)
		}
	}
	for start := 0; start < len(rs); start += 500 {
		batch := rs[start:min(start+500, len(rs))]
		if _, err := database.Exec(ctx, tx, tx.NewInsert().Model(&batch)); err != nil {
			return fmt.Errorf("insert receipts: %w", err)
		}
	}
	return nil
}

// issue numbers r with its owner's next number of the year and stores it.
// On PostgreSQL one statement does both, so the number's row is held for
// that statement and the commit only.
func issue(ctx context.Context, tx bun.IDB, r *Receipt) error {
	next := tx.NewRaw(`INSERT INTO receipt_sequences (owner_id, year, last) VALUES (?, ?, 1)
		ON CONFLICT (owner_id, year) DO UPDATE SET last = receipt_sequences.last + 1
		RETURNING last`, database.Param{V: r.OwnerID}, database.Param{V: r.Year})
	if database.IsPostgres(tx) {
		err := database.Query(ctx, tx, tx.NewInsert().With("next_seq", next).Model(r).
			Value("seq", "(SELECT last FROM next_seq)").
			Value("number", "? || lpad((SELECT last FROM next_seq)::text, 6, '0')", fmt.Sprintf("%04d-", r.Year)).
			Returning("seq, number"), r)
		if err != nil {
			return fmt.Errorf("insert receipt: %w", err)
		}
		return checkSeq(r)
	}
	if err := database.Query(ctx, tx, next, &r.Seq); err != nil {
		return fmt.Errorf("receipt number: %w", err)
	}
	if err := checkSeq(r); err != nil {
		return err
	}
	r.Number = fmt.Sprintf("%04d-%06d", r.Year, r.Seq)
	if _, err := database.Exec(ctx, tx, tx.NewInsert().Model(r)); err != nil {
		return fmt.Errorf("insert receipt: %w", err)
	}
	return nil
}

// checkSeq refuses a seventh digit: the number has room for six.
func checkSeq(r *Receipt) error {
	if r.Seq > 999999 {
		return fmt.Errorf("receipt number: owner %d issued a million receipts in %d", r.OwnerID, r.Year)
	}
	return nil
}

// voidOfPayment voids the payment's issued receipt, keeping when and why.
func voidOfPayment(ctx context.Context, db bun.IDB, paymentID uuid.UUID, at *time.Time, reason *string, now time.Time) error {
	_, err := database.Exec(ctx, db, db.NewUpdate().Model((*Receipt)(nil)).
		Set("status = ?", Void).Set("voided_at = ?", at).Set("void_reason = ?", reason).
		Set("updated_at = ?", now).
		Where("payment_id = ?", paymentID).Where("status = ?", Issued))
	if err != nil {
		return fmt.Errorf("void receipt: %w", err)
	}
	return nil
}

// receiptBy is the receipt whose column ("id" or "payment_id") is id, or
// nil.
func receiptBy(ctx context.Context, db bun.IDB, column string, id uuid.UUID) (*Receipt, error) {
	r := new(Receipt)
	err := database.Select(ctx, db, db.NewSelect().Model(r).Where("? = ?", bun.Ident(column), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("receipt by %s: %w", column, err)
	}
	return r, nil
}

// listOfProperty is a page of the property's receipts, newest first.
func listOfProperty(ctx context.Context, db bun.IDB, propertyID uuid.UUID, q listing.Query) ([]Receipt, listing.Result, error) {
	var list []Receipt
	sel := db.NewSelect().Model(&list).Where("property_id = ?", propertyID)
	if v := q.Get("status"); v != "" {
		sel = sel.Where("status = ?", v)
	}
	total, err := listing.Scan(ctx, sel, q, listing.Desc("issued_at", "id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list receipts: %w", err)
	}
	return list, total, nil
}

// listOfContract is a page of the property's receipts of payments for the
// contract, newest first.
func listOfContract(ctx context.Context, db bun.IDB, propertyID, contractID uuid.UUID, q listing.Query) ([]Receipt, listing.Result, error) {
	var list []Receipt
	sel := db.NewSelect().Model(&list).Where("property_id = ?", propertyID).
		Where("payment_id IN (SELECT id FROM payments WHERE property_id = ? AND contract_id = ?)", propertyID, contractID)
	total, err := listing.Scan(ctx, sel, q, listing.Desc("issued_at", "id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list receipts of contract: %w", err)
	}
	return list, total, nil
}
