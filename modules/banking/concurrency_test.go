package banking_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// Twelve imports of the same file at once, on a pool of four
// connections: the lines exist once, each credit is posted once, and the
// answers' new lines add up to the file.
func TestConcurrentImportsOfOneFile(t *testing.T) {
	f := start(t, testkit.WithListener(), testkit.WithConfig("database.maxopen", 4), testkit.WithConfig("database.maxidle", 4))
	var entries []entry
	for i := range 10 {
		number := fmt.Sprintf("MV-%04d", 100+i)
		name := fmt.Sprintf("Mieter%c Nummer%c", 'A'+i, 'A'+i)
		f.contract(t, number, name, 500+10*i, "2026-11-01")
		entries = append(entries,
			entry{Date: "2026-11-03", Cents: int64(50000 + 1000*i), Name: name, IBAN: fmt.Sprintf("DE%020d", i), Text: "Miete " + number},
			entry{Date: "2026-11-04", Cents: -1000, Name: "Bank", Text: fmt.Sprintf("Gebuehr %d", i)})
	}
	f.bill(t)
	data := mt940(entries, 0)
	const imports = 12
	answers := make([]*testkit.Response, imports)
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for i := range imports {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			answers[i] = f.upload(f.account, f.user.Token, data, nil)
		}()
	}
	close(gate)
	wg.Wait()
	created, posted := 0, 0
	for _, a := range answers {
		switch a.Status {
		case http.StatusCreated:
			var r result
			a.JSON(&r)
			created += r.Lines - r.Duplicates
			posted += r.Posted
		case http.StatusServiceUnavailable:
			// A lock not granted in time: the client retries.
		default:
			t.Fatalf("import answered %d: %s", a.Status, a.Body)
		}
	}
	// A last import finds everything there.
	last := f.importFile(t, data, nil)
	created += last.Lines - last.Duplicates
	posted += last.Posted
	if n := f.count(t); n != 20 || created != 20 || posted != 10 || len(f.payments(t)) != 10 {
		t.Fatalf("%d lines stored, %d created by the answers, %d posted, %d payments", n, created, posted, len(f.payments(t)))
	}
}
