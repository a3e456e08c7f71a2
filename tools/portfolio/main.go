// Command portfolio seeds one landlord's portfolio of N units into a
// propman PostgreSQL database and measures the lists of a running propman
// against it: median and p99 of each list's first page, its last page by
// cursor (and, for comparison, by ?page=), and of the contragent search.
// With -only monthend it measures the month-end instead (monthend.go).
// scripts/portfolio builds and starts propman around it.
//
// Configuration is propman's own (PROPMAN_DATABASE_URL, PROPMAN_AUTH_SECRET:
// the token it signs must be one the server accepts) plus flags.
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/tools/portfolio/seed"
)

func main() {
	units := flag.Int("n", 10000, "units to seed")
	base := flag.String("url", "http://127.0.0.1:8080", "base URL of the running propman")
	rounds := flag.Int("rounds", 5, "measurement rounds")
	per := flag.Int("requests", 20, "requests of each case in a round")
	owner := flag.Int64("owner", 0, "measure this landlord instead of seeding a new one")
	sweep := flag.Int("sweep", 2000, "properties in the per-property sweep (0: none)")
	only := flag.String("only", "", "lists or sweep: measure only that part; monthend: the periodic runs of N units instead; reports: the portfolio reports (modules/reports)")
	otherUnits := flag.Int("other-units", 50, "monthend: units of the other landlord, who reads lists meanwhile")
	others := flag.Int("others", 2, "monthend: the other landlord's concurrent clients")
	think := flag.Duration("think", 10*time.Millisecond, "monthend: each client's pause between two requests")
	flag.Parse()
	if *only == "monthend" {
		if err := monthEndMain(*units, strings.TrimRight(*base, "/"), *otherUnits, *others, *think); err != nil {
			fmt.Fprintln(os.Stderr, "portfolio:", err)
			os.Exit(1)
		}
		return
	}
	if *only == "reports" {
		if err := reportsMain(*units, strings.TrimRight(*base, "/"), *rounds, *per, *owner); err != nil {
			fmt.Fprintln(os.Stderr, "portfolio:", err)
			os.Exit(1)
		}
		return
	}
	if *only == "sweep" {
		*per = 0
	}
	if *only == "lists" {
		*sweep = 0
	}
	if err := run(*units, strings.TrimRight(*base, "/"), *rounds, *per, *owner, *sweep); err != nil {
		fmt.Fprintln(os.Stderr, "portfolio:", err)
		os.Exit(1)
	}
}

// open reads propman's configuration and opens its database and the
// tokens it accepts.
func open() (*sql.DB, *auth.Tokens, error) {
	cfg, err := config.Load(config.Options{Environ: config.Environ()})
	if err != nil {
		return nil, nil, err
	}
	if !cfg.Database.IsPostgres() {
		return nil, nil, fmt.Errorf("PROPMAN_DATABASE_URL must be a PostgreSQL URL (the seed is PostgreSQL SQL)")
	}
	secret, _, err := auth.ResolveSecret(cfg)
	if err != nil {
		return nil, nil, err
	}
	tokens, err := auth.NewTokens(cfg.Auth, secret, clock.Real{})
	if err != nil {
		return nil, nil, err
	}
	db, err := sql.Open("pgx", cfg.Database.URL)
	if err != nil {
		return nil, nil, err
	}
	return db, tokens, nil
}

func monthEndMain(units int, base string, otherUnits, others int, think time.Duration) error {
	db, tokens, err := open()
	if err != nil {
		return err
	}
	defer db.Close()
	return monthEnd(context.Background(), db, tokens, base, units, otherUnits, others, think)
}

func run(units int, base string, rounds, per int, ownerID int64, sweepN int) error {
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
	c := &client{base: base, token: token, http: &http.Client{Timeout: 30 * time.Second}}

	var props []string
	rows, err := db.QueryContext(ctx, "SELECT id FROM properties WHERE workspace_id = (SELECT id FROM workspaces WHERE landlord_id = $1) ORDER BY id", ownerID)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		props = append(props, id)
	}
	_ = rows.Close()
	if len(props) == 0 {
		return fmt.Errorf("landlord %d has no properties", ownerID)
	}
	var counter string
	_ = db.QueryRowContext(ctx, "SELECT id FROM counters WHERE property_id = $1 ORDER BY id LIMIT 1", props[0]).Scan(&counter)
	p := "/api/v1/properties/" + props[0]

	type list struct {
		name, path, key string
		perPage         int
	}
	lists := []list{
		{"properties", "/api/v1/properties", "properties", 50},
		{"contracts", "/api/v1/contracts", "contracts", 50},
		{"contracts active", "/api/v1/contracts?status=active", "contracts", 50},
		{"contragents", "/api/v1/contragents", "contragents", 50},
		{"contragents role", "/api/v1/contragents?role=tenant", "contragents", 50},
		{"charges", p + "/charges", "charges", 10},
		{"charges unpaid", p + "/charges?status=unpaid", "charges", 10},
		{"payments", p + "/payments", "payments", 5},
		{"receipts", p + "/receipts", "receipts", 5},
		{"penalties", p + "/penalties", "penalties", 1},
		{"expenses", p + "/expenses", "expenses", 50},
		{"documents", p + "/documents", "documents", 50},
		{"counters", p + "/counters", "counters", 50},
	}
	if counter != "" {
		lists = append(lists, list{"readings", p + "/counters/" + counter + "/readings", "readings", 5})
	}

	type bench struct {
		name, path string
	}
	var cases []bench
	for _, l := range lists {
		if per == 0 {
			break
		}
		u := withQuery(l.path, "per_page="+strconv.Itoa(l.perPage))
		pages, last, err := c.walk(u, l.key)
		if err != nil {
			return fmt.Errorf("%s: %w", l.name, err)
		}
		cases = append(cases, bench{l.name + " first", u})
		if last != "" {
			cases = append(cases, bench{l.name + " last (after)", u + "&after=" + url.QueryEscape(last)})
		}
		if pages > 1 {
			cases = append(cases, bench{l.name + " last (page)", u + "&page=" + strconv.Itoa(pages)})
		}
	}
	for _, q := range []string{"müller", "anna 77", "tenant9999@", "zzzz-nobody"} {
		cases = append(cases, bench{"search " + q, "/api/v1/contragents?q=" + url.QueryEscape(q)})
	}

	samples := make([][]time.Duration, len(cases))
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
	}
	// A whole list read page by page, both ways (issue 25: OFFSET pages
	// made this grow with the square of the list).
	for _, l := range lists[:4] {
		if per == 0 {
			break
		}
		u := withQuery(l.path, "per_page="+strconv.Itoa(l.perPage))
		start := time.Now()
		pages, _, err := c.walk(u, l.key)
		if err != nil {
			return err
		}
		byCursor := time.Since(start)
		start = time.Now()
		for n := 1; n <= pages; n++ {
			if _, err := c.get(u+"&page="+strconv.Itoa(n), nil); err != nil {
				return err
			}
		}
		fmt.Printf("whole %s (%d pages of %d): by cursor %s, by page number %s\n", l.name, pages, l.perPage,
			byCursor.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	}
	fmt.Printf("\n%d units, %d rounds x %d requests per case (ms)\n", len(props), rounds, per)
	fmt.Printf("%-34s %8s %8s %8s\n", "case", "median", "p99", "max")
	for i, bc := range cases {
		if len(samples[i]) == 0 {
			continue
		}
		med, p99, mx := stats(samples[i])
		fmt.Printf("%-34s %8.2f %8.2f %8.2f\n", bc.name, med, p99, mx)
	}

	// The per-property sweep of issue 25: one call for each of many
	// properties (new ids every call) against one property again and again.
	if sweepN == 0 {
		return nil
	}
	if sweepN > len(props) {
		sweepN = len(props)
	}
	var sweepD, aloneD []time.Duration
	for r := 0; r < rounds; r++ {
		for _, id := range props[:sweepN] {
			d, err := c.get("/api/v1/properties/"+id+"/charges?per_page=10", nil)
			if err != nil {
				return err
			}
			sweepD = append(sweepD, d)
		}
		for k := 0; k < sweepN/4; k++ {
			d, err := c.get(p+"/charges?per_page=10", nil)
			if err != nil {
				return err
			}
			aloneD = append(aloneD, d)
		}
	}
	med, p99, mx := stats(sweepD)
	fmt.Printf("%-34s %8.2f %8.2f %8.2f\n", fmt.Sprintf("sweep charges of %d properties", sweepN), med, p99, mx)
	med, p99, mx = stats(aloneD)
	fmt.Printf("%-34s %8.2f %8.2f %8.2f\n", "charges of one property, repeated", med, p99, mx)
	return nil
}

type client struct {
	base, token string
	http        *http.Client
}

// get answers how long GET path took; the body goes to out when given.
func (c *client) get(path string, out any) (time.Duration, error) {
	req, err := http.NewRequest(http.MethodGet, c.base+path, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	start := time.Now()
	res, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	body, err := io.ReadAll(res.Body)
	d := time.Since(start)
	_ = res.Body.Close()
	if err != nil {
		return 0, err
	}
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s: %d %s", path, res.StatusCode, body)
	}
	if out != nil {
		return d, json.Unmarshal(body, out)
	}
	return d, nil
}

// walk reads every page of path through its cursors and returns how many
// pages there are and the cursor that leads to the last one ("" for one).
func (c *client) walk(path, key string) (int, string, error) {
	after, last := "", ""
	for pages := 1; ; pages++ {
		u := path
		if after != "" {
			u += "&after=" + url.QueryEscape(after)
		}
		var page map[string]json.RawMessage
		if _, err := c.get(u, &page); err != nil {
			return 0, "", err
		}
		raw, ok := page["next"]
		if !ok {
			// A propman without cursors (an older build): the last page
			// by number is all there is to measure.
			var total, perPage int
			if err := json.Unmarshal(page["total"], &total); err != nil {
				return 0, "", fmt.Errorf("total: %w", err)
			}
			if err := json.Unmarshal(page["per_page"], &perPage); err != nil {
				return 0, "", fmt.Errorf("per_page: %w", err)
			}
			return max(1, (total+perPage-1)/perPage), "", nil
		}
		var next *string
		if err := json.Unmarshal(raw, &next); err != nil {
			return 0, "", fmt.Errorf("next: %w", err)
		}
		if next == nil {
			return pages, last, nil
		}
		last, after = *next, *next
	}
}

func withQuery(path, q string) string {
	if strings.Contains(path, "?") {
		return path + "&" + q
	}
	return path + "?" + q
}

// stats returns median, p99 and max in milliseconds.
func stats(d []time.Duration) (float64, float64, float64) {
	s := slices.Clone(d)
	slices.Sort(s)
	ms := func(x time.Duration) float64 { return float64(x.Microseconds()) / 1000 }
	p99 := s[min(len(s)-1, (len(s)*99+99)/100-1)]
	return ms(s[len(s)/2]), ms(p99), ms(s[len(s)-1])
}
