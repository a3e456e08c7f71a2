package contragents_test

import (
	"context"
	"net/http"
	"reflect"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/testkit"
)

// holder is a test module's contragents.User: it refuses the deletion of
// the contragents it holds, and sees the deleting transaction.
type holder struct {
	mu    sync.Mutex
	held  map[uuid.UUID]bool
	asked []uuid.UUID
}

func (h *holder) ContragentDeleting(ctx context.Context, tx bun.Tx, id uuid.UUID) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.asked = append(h.asked, id)
	// The row is still there, inside the transaction.
	n, err := tx.NewSelect().Table("contragents").Where("id = ?", id).Count(ctx)
	if err != nil || n != 1 {
		return err
	}
	if h.held[id] {
		return apierror.Conflict("in_use", "A test contract names this contragent.")
	}
	return nil
}

func TestDeleteRefusedWhileAUserHoldsTheContragent(t *testing.T) {
	h := &holder{held: map[uuid.UUID]bool{}}
	entry := module.Entry{
		Name: "holder", Summary: "test module", Status: module.Ready, Depends: []string{contragents.Name},
		Options: contragents.ProvideUser(func() *holder { return h }),
	}
	app := testkit.Start(t, testkit.WithEntries(append(modules.Catalog(), entry)))
	u := newUser(t, app)
	held, free := create(t, app, u.Token, tenant("Held")), create(t, app, u.Token, tenant("Free"))
	h.held[uuid.MustParse(held.ID)] = true

	before := snapshot(t, app)
	res := app.Delete(base+"/"+held.ID, u.Token).Expect(http.StatusConflict)
	if res.Map()["error"] != "in_use" {
		t.Fatalf("409 body %s", res.String())
	}
	if after := snapshot(t, app); !reflect.DeepEqual(before, after) {
		t.Fatal("a refused delete changed the table")
	}
	app.Delete(base+"/"+free.ID, u.Token).Expect(http.StatusNoContent)
	if want := []uuid.UUID{uuid.MustParse(held.ID), uuid.MustParse(free.ID)}; !reflect.DeepEqual(h.asked, want) {
		t.Fatalf("asked about %v, want %v", h.asked, want)
	}
	// Once released, it goes.
	delete(h.held, uuid.MustParse(held.ID))
	app.Delete(base+"/"+held.ID, u.Token).Expect(http.StatusNoContent)
}

// A row of a module that is switched off (no User answers) still keeps the
// contragent through its foreign key: 409 in_use, never a 500.
func TestDeleteRefusedByAForeignKey(t *testing.T) {
	app := testkit.Start(t)
	u := newUser(t, app)
	c := create(t, app, u.Token, tenant("Referred to"))
	ctx := context.Background()
	idType := "CHAR(36)"
	if app.Engine == "postgres" {
		idType = "UUID"
	}
	for _, q := range []string{
		"CREATE TABLE test_refs (contragent_id " + idType + " NOT NULL REFERENCES contragents (id))",
		"INSERT INTO test_refs (contragent_id) VALUES ('" + c.ID + "')",
	} {
		if _, err := app.DB.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	res := app.Delete(base+"/"+c.ID, u.Token).Expect(http.StatusConflict)
	if res.Map()["error"] != "in_use" {
		t.Fatalf("409 body %s", res.String())
	}
	app.Get(base+"/"+c.ID, u.Token).Expect(http.StatusOK)
}
