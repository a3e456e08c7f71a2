package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/propman/propman/tools/portfolio/seed"
)

// reportsMain measures modules/reports over the landlord's portfolio
// (seeded unless ownerID is set): each report's median and p99 over
// rounds x per requests, and the CSV of every charge, streamed, in rows a
// second. GET /api/v1 (no database) is measured in the same rounds as the
// ceiling of a request on this machine at this moment.
func reportsMain(units int, base string, rounds, per int, ownerID int64) error {
	ctx := context.Background()
	db, tokens, err := open()
	if err != nil {
		return err
	}
	defer db.Close()
	if ownerID == 0 {
		now := time.Now().UTC()
		email := fmt.Sprintf("portfolio-%d@example.com", now.UnixNano())
		err := db.QueryRowContext(ctx, `INSERT INTO users (email, name, password_hash, locale, country_code, roles, is_active, token_version, created_at, updated_at)
			VALUES ($1, 'Portfolio landlord', '!unusable', 'en', 'DE', 'ROLE_USER', true, 0, $2, $2) RETURNING id`, email, now).Scan(&ownerID)
		if err != nil {
			return fmt.Errorf("landlord: %w", err)
		}
		start := time.Now()
		if err := seed.Seed(ctx, db, ownerID, seed.Tag(ownerID), seed.Portfolio(units)); err != nil {
			return err
		}
		fmt.Printf("seeded %d units for landlord %d in %s\n", units, ownerID, time.Since(start).Round(time.Millisecond))
	}
	token, err := tokens.Issue(ownerID, 0, time.Now())
	if err != nil {
		return err
	}
	c := &client{base: base, token: token, http: &http.Client{Timeout: 5 * time.Minute}}
	cases := []struct{ name, path string }{
		{"ceiling: GET /api/v1", "/api/v1"},
		{"arrears", "/api/v1/reports/arrears?as_of=2026-11-22"},
		{"rent roll", "/api/v1/reports/rent-roll?as_of=2026-11-22"},
		{"income 2025", "/api/v1/reports/income?year=2025"},
		{"trial balance", "/api/v1/reports/trial-balance?as_of=2026-11-22"},
		{"tax year 2025", "/api/v1/reports/tax-year?year=2025"},
	}
	samples := make([][]time.Duration, len(cases))
	var csvRate []float64
	var csvRows int
	for r := 0; r < rounds; r++ {
		for i, bc := range cases {
			for k := 0; k < per; k++ {
				d, err := c.get(bc.path, nil)
				if err != nil {
					return fmt.Errorf("%s: %w", bc.name, err)
				}
				samples[i] = append(samples[i], d)
			}
		}
		n, d, err := c.lines("/api/v1/reports/charges?format=csv")
		if err != nil {
			return err
		}
		csvRows = n - 1
		csvRate = append(csvRate, float64(n-1)/d.Seconds())
	}
	fmt.Printf("\nreports over %d units, %d rounds x %d requests per case (ms)\n", units, rounds, per)
	fmt.Printf("%-34s %8s %8s %8s   %s\n", "case", "median", "p99", "max", "median of each round")
	for i, bc := range cases {
		med, p99, mx := stats(samples[i])
		// Each round's median beside the whole: the spread between
		// rounds is what a figure quoted from one run may be off by.
		var each []string
		for r := 0; r < rounds; r++ {
			m, _, _ := stats(slices.Clone(samples[i][r*per : (r+1)*per]))
			each = append(each, fmt.Sprintf("%.2f", m))
		}
		fmt.Printf("%-34s %8.2f %8.2f %8.2f   %s\n", bc.name, med, p99, mx, strings.Join(each, " "))
	}
	slices.Sort(csvRate)
	fmt.Printf("CSV of all %d charges, rows/s over %d rounds: median %.0f, min %.0f, max %.0f\n",
		csvRows, len(csvRate), csvRate[len(csvRate)/2], csvRate[0], csvRate[len(csvRate)-1])
	return nil
}

// lines downloads path and counts its lines, timing the whole body.
func (c *client) lines(path string) (int, time.Duration, error) {
	req, err := http.NewRequest(http.MethodGet, c.base+path, nil)
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	start := time.Now()
	res, err := c.http.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return 0, 0, fmt.Errorf("GET %s: %d", path, res.StatusCode)
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
	}
	return n, time.Since(start), sc.Err()
}
