package proposals_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// TestPagesOnKeepAliveConnections: the page cache keeps slugs that came
// from Fiber's reused buffers. Many keep-alive clients ask for three pages
// and unknown slugs of the same length at once, each many times; every
// answer must be its own page (a slug kept uncopied would be overwritten
// by the connection's next request and file a page under another name).
func TestPagesOnKeepAliveConnections(t *testing.T) {
	f := start(t, testkit.WithListener())
	slugs := []string{f.proposal.Slug}
	for i := 0; i < 2; i++ {
		p := f.create(t)
		slugs = append(slugs, f.publish(t, p.ID).Slug)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for c := 0; c < 12; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			client := testkit.KeepAliveClient(t)
			for i := 0; i < 30; i++ {
				slug := slugs[(c+i)%len(slugs)]
				want := http.StatusOK
				if (c+i)%4 == 3 {
					slug, want = fmt.Sprintf("zz%010d", c*100+i), http.StatusNotFound
				}
				res := f.app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/public/proposals/" + slug, Client: client})
				if res.Status != want || (want == http.StatusOK && !strings.Contains(res.String(), `"slug":"`+slug+`"`)) {
					select {
					case errs <- fmt.Sprintf("%s: %d %s", slug, res.Status, res.String()):
					default:
					}
					return
				}
			}
		}(c)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestDeletingThePropertyDeletesProposals: a property with proposals,
// applications and a pending one is deleted with them.
func TestDeletingThePropertyDeletesProposals(t *testing.T) {
	f := start(t)
	id, code := f.apply(t, "anna@example.com")
	f.confirm(id, code).Expect(http.StatusOK)
	f.apply(t, "ben@example.com")
	f.app.Delete("/api/v1/properties/"+f.property, f.user.Token).Expect(http.StatusNoContent)
	if n := count(t, f.app, "proposals") + count(t, f.app, "proposal_applications"); n != 0 {
		t.Errorf("%d rows left", n)
	}
	f.app.Get(f.proposal.PublicPath, "").Expect(http.StatusNotFound)
}
