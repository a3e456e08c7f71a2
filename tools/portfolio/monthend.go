package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/tools/portfolio/seed"
)

// The month-end (-only monthend): one landlord's N units, every contract's
// current month not yet billed, and the workspace's periodic runs (every
// kind the service knows: billing, late fees, notices) made due at once;
// timed from the schedule change to every run of the day finished, while
// another landlord with a small portfolio reads lists the whole time.

// offSchedule keeps a seeded workspace's runs from starting before the
// measurement says so (the kinds' default times may have passed today).
// Kinds this build does not know are ignored by the service.
const offSchedule = `{"billing":"off","late_fees":"off","notices":"off"}`

// monthEndSize is the portfolio of issue 25 with rent billed up to the
// month before now: the run has the current month to bill for every unit.
func monthEndSize(units int, now time.Time) seed.Size {
	first := time.Date(2022, 9, 1, 0, 0, 0, 0, time.UTC)
	billed := (now.Year()-first.Year())*12 + int(now.Month()-first.Month())
	size := seed.Portfolio(units)
	size.ChargesPerUnit = billed + 2
	return size
}

// landlord adds a user and their workspace with its runs off, then seeds
// size into it.
func landlord(ctx context.Context, db *sql.DB, name string, size seed.Size) (user, ws int64, err error) {
	now := time.Now().UTC()
	email := fmt.Sprintf("portfolio-%d@example.com", now.UnixNano())
	err = db.QueryRowContext(ctx, `INSERT INTO users (email, name, password_hash, locale, country_code, roles, is_active, token_version, created_at, updated_at)
		VALUES ($1, $2, '!unusable', 'en', 'DE', 'ROLE_USER', true, 0, $3, $3) RETURNING id`, email, name, now).Scan(&user)
	if err != nil {
		return 0, 0, fmt.Errorf("landlord: %w", err)
	}
	// The seed's own workspace insert leaves this one as it is.
	err = db.QueryRowContext(ctx, `INSERT INTO workspaces (name, landlord_id, schedule, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $4) RETURNING id`, name, user, offSchedule, now).Scan(&ws)
	if err != nil {
		return 0, 0, fmt.Errorf("workspace: %w", err)
	}
	if err := seed.Seed(ctx, db, user, seed.Tag(user), size); err != nil {
		return 0, 0, err
	}
	return user, ws, nil
}

type monthEndRun struct {
	ID         int64          `json:"id"`
	Kind       string         `json:"kind"`
	LocalDate  string         `json:"local_date"`
	State      string         `json:"state"`
	Attempts   int            `json:"attempts"`
	Counts     map[string]int `json:"counts"`
	Problems   []string       `json:"problems"`
	Error      *string        `json:"error"`
	QueuedAt   time.Time      `json:"queued_at"`
	StartedAt  *time.Time     `json:"started_at"`
	FinishedAt *time.Time     `json:"finished_at"`
}

func monthEnd(ctx context.Context, db *sql.DB, tokens *auth.Tokens, base string, units, otherUnits, others int, think time.Duration) error {
	start := time.Now()
	user, ws, err := landlord(ctx, db, "Month-end landlord", monthEndSize(units, time.Now().UTC()))
	if err != nil {
		return err
	}
	otherUser, _, err := landlord(ctx, db, "Other landlord", seed.Portfolio(otherUnits))
	if err != nil {
		return err
	}
	fmt.Printf("seeded %d units (landlord %d) and %d units (landlord %d) in %s\n", units, user, otherUnits, otherUser,
		time.Since(start).Round(time.Millisecond))
	token, err := tokens.Issue(user, 0, time.Now())
	if err != nil {
		return err
	}
	c := &client{base: base, token: token, http: &http.Client{Timeout: 30 * time.Second}}
	otherToken, err := tokens.Issue(otherUser, 0, time.Now())
	if err != nil {
		return err
	}
	oc := &client{base: base, token: otherToken, http: &http.Client{Timeout: 30 * time.Second}}
	var prop string
	if err := db.QueryRowContext(ctx, `SELECT id FROM properties WHERE workspace_id = (SELECT id FROM workspaces WHERE landlord_id = $1)
		ORDER BY id LIMIT 1`, otherUser).Scan(&prop); err != nil {
		return fmt.Errorf("other landlord's property: %w", err)
	}
	reads := []string{
		"/api/v1/properties?per_page=50",
		"/api/v1/contracts?status=active&per_page=50",
		"/api/v1/contragents?q=anna&per_page=50",
		"/api/v1/properties/" + prop + "/charges?per_page=10",
		"/api/v1/properties/" + prop + "/payments?per_page=10",
	}

	// The other landlord reads before (what the API answers when quiet)
	// and during the month-end.
	var mu sync.Mutex
	phase := "before"
	samples := map[string][]time.Duration{}
	var readErr error
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range others {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				d, err := oc.get(reads[i%len(reads)], nil)
				mu.Lock()
				if err != nil && readErr == nil {
					readErr = err
				}
				if err == nil {
					samples[phase] = append(samples[phase], d)
				}
				mu.Unlock()
				time.Sleep(think)
			}
		}()
	}
	time.Sleep(5 * time.Second)

	// Every kind the workspace knows, due at this minute of its zone.
	var w struct {
		TimeZone string            `json:"time_zone"`
		Schedule map[string]string `json:"schedule"`
	}
	if _, err := c.get(fmt.Sprintf("/api/v1/workspaces/%d", ws), &w); err != nil {
		return err
	}
	zone, err := time.LoadLocation(w.TimeZone)
	if err != nil {
		return err
	}
	schedule := map[string]string{}
	var kinds []string
	for k := range w.Schedule {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	mu.Lock()
	phase = "during"
	mu.Unlock()
	trigger := time.Now()
	for _, k := range kinds {
		schedule[k] = trigger.In(zone).Format("15:04")
	}
	today := trigger.In(zone).Format(time.DateOnly)
	if err := c.send(http.MethodPatch, fmt.Sprintf("/api/v1/workspaces/%d", ws), map[string]any{"schedule": schedule}); err != nil {
		return err
	}

	var runs []monthEndRun
	reported := map[string]bool{}
	for deadline := time.Now().Add(15 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		var page struct {
			Runs []monthEndRun `json:"runs"`
		}
		if _, err := c.get(fmt.Sprintf("/api/v1/workspaces/%d/runs?per_page=200", ws), &page); err != nil {
			return err
		}
		runs = runs[:0]
		finished := 0
		for _, r := range page.Runs {
			if r.LocalDate != today {
				continue
			}
			runs = append(runs, r)
			if r.State == "finished" {
				finished++
			}
			if r.Error != nil && !reported[*r.Error] {
				reported[*r.Error] = true
				fmt.Printf("run %d (%s) failed, River tries it again: %s\n", r.ID, r.Kind, *r.Error)
			}
		}
		if finished == len(kinds) {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("month-end not finished after 15 minutes: %d of %d runs", finished, len(kinds))
		}
	}
	took := time.Since(trigger)
	mu.Lock()
	phase = "after"
	mu.Unlock()
	close(stop)
	wg.Wait()
	if readErr != nil {
		return fmt.Errorf("other landlord's reads: %w", readErr)
	}

	fmt.Printf("\nmonth-end of %d units, kinds %v: %s from the schedule change to every run finished\n", units, kinds, took.Round(time.Millisecond))
	slices.SortFunc(runs, func(a, b monthEndRun) int { return a.QueuedAt.Compare(b.QueuedAt) })
	// The API's times are whole seconds: clock times, not differences.
	clockOf := func(t *time.Time) string {
		if t == nil {
			return "-"
		}
		return t.In(time.Local).Format("15:04:05")
	}
	fmt.Printf("  schedule changed at %s\n", trigger.Format("15:04:05.000"))
	for _, r := range runs {
		fmt.Printf("  %-10s queued %s, last attempt %s to %s, %d attempts, counts %v, %d problems\n", r.Kind,
			clockOf(&r.QueuedAt), clockOf(r.StartedAt), clockOf(r.FinishedAt), r.Attempts, r.Counts, len(r.Problems))
	}
	fmt.Printf("\nother landlord (%d units), %d clients, %s pause, lists of %d kinds (ms)\n", otherUnits, others, think, len(reads))
	fmt.Printf("%-22s %8s %8s %8s %8s\n", "", "requests", "p50", "p99", "max")
	for _, p := range []string{"before", "during"} {
		if len(samples[p]) == 0 {
			continue
		}
		med, p99, mx := stats(samples[p])
		fmt.Printf("%-22s %8d %8.2f %8.2f %8.2f\n", p+" the month-end", len(samples[p]), med, p99, mx)
	}
	return nil
}

// send makes a request with a JSON body and wants a 200.
func (c *client) send(method, path string, body any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	res, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, out)
	}
	return nil
}
