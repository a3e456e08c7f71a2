package testkit

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Walk reads the list at path (with its filters, if any) through its
// cursors, perPage records at a time, and returns the ids of every record
// in the order served. It fails the test when a page breaks the rules of
// a list: a cursor page with total or page, a first page without them, a
// full page without next, or more pages than records.
func (a *App) Walk(path, token, key string, perPage int) []string {
	a.T.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	first := path + sep + "per_page=" + strconv.Itoa(perPage)
	var ids []string
	after := ""
	for pages := 0; ; pages++ {
		if pages > 1000 {
			a.T.Fatalf("walk %s: more than 1000 pages", path)
		}
		u := first
		if after != "" {
			u += "&after=" + url.QueryEscape(after)
		}
		var page map[string]json.RawMessage
		a.Get(u, token).Expect(http.StatusOK).JSON(&page)
		_, hasTotal := page["total"]
		_, hasPage := page["page"]
		if (after == "") != hasTotal || (after == "") != hasPage {
			a.T.Fatalf("walk %s: total/page present = %v/%v on a page with after=%q", u, hasTotal, hasPage, after)
		}
		var items []struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(page[key], &items); err != nil {
			a.T.Fatalf("walk %s: %s: %v", u, key, err)
		}
		for _, it := range items {
			ids = append(ids, it.ID)
		}
		var next *string
		if err := json.Unmarshal(page["next"], &next); err != nil {
			a.T.Fatalf("walk %s: next: %v", u, err)
		}
		if next == nil {
			return ids
		}
		if len(items) != perPage {
			a.T.Fatalf("walk %s: %d records and a next cursor", u, len(items))
		}
		after = *next
	}
}
