// Package jobstest reads a workspace's periodic runs through the API, for
// the tests of the modules whose kinds run by themselves.
package jobstest

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/testkit"
)

// Run is a periodic run as GET /workspaces/{id}/runs answers it.
type Run struct {
	ID        int64          `json:"id"`
	Kind      string         `json:"kind"`
	LocalDate string         `json:"local_date"`
	State     string         `json:"state"`
	Counts    map[string]int `json:"counts"`
	Problems  []string       `json:"problems"`
}

// WaitForRuns polls the workspace's runs until there are n, all finished,
// and returns them newest first; it fails the test after 20 s.
func WaitForRuns(t testing.TB, app *testkit.App, token string, ws int64, n int) []Run {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var page struct {
			Runs []Run `json:"runs"`
		}
		app.Get(fmt.Sprintf("/api/v1/workspaces/%d/runs", ws), token).Expect(http.StatusOK).JSON(&page)
		done := 0
		for _, r := range page.Runs {
			if r.State == jobs.Finished {
				done++
			}
		}
		if done >= n && len(page.Runs) == n {
			return page.Runs
		}
		if time.Now().After(deadline) {
			t.Fatalf("runs after 20 s: %+v (want %d finished)", page.Runs, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Workspace is the id of the first workspace the user with token sees:
// their own, for a user who joined none.
func Workspace(t testing.TB, app *testkit.App, token string) int64 {
	t.Helper()
	var list struct {
		Workspaces []struct {
			ID int64 `json:"id"`
		} `json:"workspaces"`
	}
	app.Get("/api/v1/workspaces", token).Expect(http.StatusOK).JSON(&list)
	return list.Workspaces[0].ID
}
