package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/tools/portfolio/seed"
)

// asPropman makes this test binary the propman binary (the same run as
// main's): the multi-instance test starts it again as separate processes,
// which it can kill, without a go build of its own.
const asPropman = "RUN_AS_PROPMAN"

func TestMain(m *testing.M) {
	if os.Getenv(asPropman) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// periodicChecks says, for each kind of periodic run, what must hold of
// workspace ws once its run of today finished: every item made once, none
// twice. A kind the instances know that is missing here fails the test, so
// that a new kind comes with its check.
var periodicChecks = map[string]func(ctx context.Context, db *sql.DB, ws int64) error{
	"billing":   checkBilling,
	"late_fees": checkLateFees,
	"notices":   checkNotices,
	"invoices":  checkInvoices,
}

// The invoices run made the workspace's subscription, issued at most one
// invoice of a month, and the numbers of every invoice of a year have no
// gap, however many instances ran it.
func checkInvoices(ctx context.Context, db *sql.DB, ws int64) error {
	var subscriptions, invoices, gaps int
	err := db.QueryRowContext(ctx, `SELECT
			(SELECT count(*) FROM billing_subscriptions WHERE workspace_id = $1),
			(SELECT count(*) - count(DISTINCT period) FROM billing_invoices WHERE workspace_id = $1),
			(SELECT coalesce(sum(max_seq - n), 0) FROM (SELECT max(seq) AS max_seq, count(*) AS n
				FROM billing_invoices GROUP BY issuer, year) AS y)`, ws).Scan(&subscriptions, &invoices, &gaps)
	switch {
	case err != nil:
		return err
	case subscriptions != 1:
		return fmt.Errorf("workspace %d has %d subscriptions, want 1", ws, subscriptions)
	case invoices != 0:
		return fmt.Errorf("workspace %d has %d invoices of a month twice", ws, invoices)
	case gaps != 0:
		return fmt.Errorf("invoice numbers have %d gaps", gaps)
	}
	return nil
}

// A charge has at most one late fee (the unique index on penalty_for says
// so too; this says the run did not fail on it), and the run made some.
func checkLateFees(ctx context.Context, db *sql.DB, ws int64) error {
	var fees, twice int
	err := db.QueryRowContext(ctx, `SELECT count(*), count(*) - count(DISTINCT c.penalty_for) FROM charges AS c
		JOIN properties AS p ON p.id = c.property_id WHERE p.workspace_id = $1 AND c.kind = 'penalty'`, ws).Scan(&fees, &twice)
	switch {
	case err != nil:
		return err
	case twice > 0:
		return fmt.Errorf("%d charges have more than one late fee", twice)
	case fees == 0:
		return fmt.Errorf("no late fee in workspace %d", ws)
	}
	return nil
}

// Every contract with a charge overdue by 1 to 45 days (the reminders'
// window) has exactly one reminder of today, and no other contract has one.
func checkNotices(ctx context.Context, db *sql.DB, ws int64) error {
	today := time.Now().In(berlin()).Format("2006-01-02")
	var owing, reminded, both, reminders int
	err := db.QueryRowContext(ctx, `WITH owing AS (
			SELECT DISTINCT c.contract_id AS id FROM charges AS c JOIN properties AS p ON p.id = c.property_id
			WHERE p.workspace_id = $1 AND c.contract_id IS NOT NULL AND c.status = 'unpaid' AND c.amount_minor > c.paid_amount_minor
			  AND c.due_date BETWEEN CAST($2 AS date) - 45 AND CAST($2 AS date) - 1),
		reminded AS (
			SELECT m.contract_id AS id, count(*) AS n FROM messages AS m JOIN properties AS p ON p.id = m.property_id
			WHERE p.workspace_id = $1 AND m.notice_key LIKE 'reminder:%' GROUP BY m.contract_id)
		SELECT (SELECT count(*) FROM owing), (SELECT count(*) FROM reminded),
			(SELECT count(*) FROM owing JOIN reminded USING (id)), (SELECT coalesce(sum(n), 0) FROM reminded)`, ws, today).
		Scan(&owing, &reminded, &both, &reminders)
	switch {
	case err != nil:
		return err
	case owing == 0:
		return fmt.Errorf("no contract owes anything in workspace %d: the check proves nothing", ws)
	case owing != reminded || both != owing || reminders != owing:
		return fmt.Errorf("%d contracts owe, %d were reminded (%d of the ones owing), %d reminders", owing, reminded, both, reminders)
	}
	return nil
}

func berlin() *time.Location {
	l, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		return time.UTC
	}
	return l
}

// The seeded expenses (tools/portfolio/seed) are monthly from 2022-09 and
// their first two periods are billed: the run bills every month since, up
// to the current one, each once.
func checkBilling(ctx context.Context, db *sql.DB, ws int64) error {
	first := time.Date(2022, 9, 1, 0, 0, 0, 0, time.UTC)
	now := time.Now().UTC()
	months := (now.Year()-first.Year())*12 + int(now.Month()-first.Month()) + 1
	var expenses, wrong int
	var example sql.NullString
	err := db.QueryRowContext(ctx, `SELECT count(*), count(*) FILTER (WHERE n <> $2 OR periods <> $2 OR last <> $3),
			min(CASE WHEN n <> $2 OR periods <> $2 OR last <> $3 THEN id || ': ' || n || ' charges, ' || periods || ' periods, last ' || coalesce(last, '-') END)
		FROM (SELECT e.id::text AS id, count(c.id) AS n, count(DISTINCT c.period) AS periods, max(c.period) AS last
			FROM expenses AS e JOIN properties AS p ON p.id = e.property_id
			LEFT JOIN charges AS c ON c.origin = e.id AND c.kind = 'regular'
			WHERE p.workspace_id = $1 GROUP BY e.id) AS x`, ws, months, now.Format("2006-01")).Scan(&expenses, &wrong, &example)
	if err != nil {
		return err
	}
	if expenses == 0 {
		return fmt.Errorf("no expenses in workspace %d", ws)
	}
	if wrong > 0 {
		return fmt.Errorf("%d of %d expenses do not have one charge for each of the %d months up to %s (e.g. %s)",
			wrong, expenses, months, now.Format("2006-01"), example.String)
	}
	return nil
}

// instance is one propman process of the test.
type instance struct {
	cmd    *exec.Cmd
	exited <-chan struct{}
	base   string
	log    string
	// started and ready bound when its River client was made, whose id
	// (host_time) River records in the jobs it works.
	started, ready time.Time
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func startInstance(t *testing.T, n int, env []string) *instance {
	t.Helper()
	addr := freeAddr(t)
	in := &instance{base: "http://" + addr, log: filepath.Join(t.TempDir(), fmt.Sprintf("propman-%d.log", n))}
	logFile, err := os.Create(in.log)
	if err != nil {
		t.Fatal(err)
	}
	in.cmd = exec.Command(os.Args[0], "serve")
	in.cmd.Env = append(append(os.Environ(), asPropman+"=1", "PROPMAN_HTTP_ADDR="+addr), env...)
	in.cmd.Stdout, in.cmd.Stderr = logFile, logFile
	in.started = time.Now().UTC()
	if err := in.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = in.cmd.Wait(); close(exited) }()
	in.exited = exited
	t.Cleanup(func() {
		_ = in.cmd.Process.Kill()
		<-exited
		_ = logFile.Close()
		if t.Failed() {
			out, _ := os.ReadFile(in.log)
			t.Logf("instance %d log:\n%s", n, out)
		}
	})
	for deadline := time.Now().Add(60 * time.Second); ; {
		res, err := http.Get(in.base + "/api/v1/health")
		if err == nil {
			_ = res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case <-exited:
			t.Fatalf("instance %d exited at start (its log follows)", n)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("instance %d not healthy after 60s (its log follows)", n)
		}
	}
	in.ready = time.Now().UTC()
	return in
}

// api calls an instance as the landlord holding token.
func api(t *testing.T, base, token, method, path string, body any, out any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

type runView struct {
	ID        int64          `json:"id"`
	Kind      string         `json:"kind"`
	LocalDate string         `json:"local_date"`
	State     string         `json:"state"`
	Attempts  int            `json:"attempts"`
	Counts    map[string]int `json:"counts"`
	Error     *string        `json:"error"`
	Started   time.Time      `json:"started_at"`
	Finished  time.Time      `json:"finished_at"`
}

// clientTime is when the River client whose id is id was made: River's
// default id is the host name, "_" and that UTC time as
// 2006_01_02T15_04_05_000000.
func clientTime(id string) (time.Time, error) {
	const layout = "2006_01_02T15_04_05"
	if len(id) < len(layout)+7 {
		return time.Time{}, fmt.Errorf("river client id %q: too short", id)
	}
	stamp := id[len(id)-len(layout)-7:]
	t, err := time.Parse(layout, stamp[:len(layout)])
	if err != nil {
		return time.Time{}, fmt.Errorf("river client id %q: %w", id, err)
	}
	micro, err := strconv.Atoi(stamp[len(layout)+1:])
	if err != nil {
		return time.Time{}, fmt.Errorf("river client id %q: %w", id, err)
	}
	return t.Add(time.Duration(micro) * time.Microsecond), nil
}

// Three instances on one PostgreSQL database; the one doing the big
// workspace's billing run is killed (SIGKILL) in the middle of it; River
// rescues the job after jobs.rescue and another instance does the run
// again from where it stood. Afterwards every workspace has one finished
// run of each kind today, each run had one job, and what the kinds made
// (periodicChecks) is there exactly once.
func TestPeriodicRunsExactlyOnceAcrossInstances(t *testing.T) {
	if !strings.HasPrefix(config.TestDatabaseURL(), "postgres") {
		t.Skip("needs PostgreSQL (PROPMAN_TEST_DATABASE_URL=postgres://...): three instances share one database and the seed is PostgreSQL SQL")
	}
	if testing.Short() {
		t.Skip("starts three instances and waits for River's rescue (about a minute)")
	}
	ctx := context.Background()
	began := time.Now()
	dbURL := testkit.FreshDatabase(t)
	t.Setenv("PROPMAN_DATABASE_URL", dbURL)
	t.Setenv("PROPMAN_AUTH_SECRET", "instances-test-secret-0123456789abcdef")
	t.Setenv("PROPMAN_LOG_LEVEL", "warn")
	t.Setenv("PROPMAN_RATELIMIT_ENABLED", "false")
	if code, out, errOut := runCmd(t, "migrate", "up"); code != 0 {
		t.Fatalf("migrate up: %d %s %s", code, out, errOut)
	}
	db, err := sql.Open("pgx", dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })

	// Two landlords: one whose billing run takes a few seconds (the one
	// killed) and a small one beside it.
	const bigUnits, smallUnits = 600, 20
	type landlord struct {
		user, ws int64
		token    string
	}
	cfg, err := config.Load(config.Options{Environ: config.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	secret, _, err := auth.ResolveSecret(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := auth.NewTokens(cfg.Auth, secret, clock.Real{})
	if err != nil {
		t.Fatal(err)
	}
	var landlords []*landlord
	for i, units := range []int{bigUnits, smallUnits} {
		l := &landlord{}
		now := time.Now().UTC()
		err := db.QueryRowContext(ctx, `INSERT INTO users (email, name, password_hash, locale, country_code, roles, is_active, token_version, created_at, updated_at)
			VALUES ($1, 'Landlord', '!unusable', 'en', 'DE', 'ROLE_USER', true, 0, $2, $2) RETURNING id`,
			fmt.Sprintf("landlord%d@example.com", i), now).Scan(&l.user)
		if err != nil {
			t.Fatal(err)
		}
		// Two rent periods billed (2022-09, 2022-10): the run has ~49 a unit to make.
		size := seed.Size{Units: units, ChargesPerUnit: 4, PaymentsPerUnit: 1, ReadingsPerUnit: 1}
		if err := seed.Seed(ctx, db, l.user, seed.Tag(l.user), size); err != nil {
			t.Fatal(err)
		}
		// Nothing runs before the test says so (the default times may
		// have passed today).
		err = db.QueryRowContext(ctx, `UPDATE workspaces SET schedule = '{"billing":"off","late_fees":"off","notices":"off"}'
			WHERE landlord_id = $1 RETURNING id`, l.user).Scan(&l.ws)
		if err != nil {
			t.Fatal(err)
		}
		if l.token, err = tokens.Issue(l.user, 0, time.Now()); err != nil {
			t.Fatal(err)
		}
		landlords = append(landlords, l)
	}
	t.Logf("seeded in %s", time.Since(began).Round(time.Millisecond))

	// Started one after the other, so that the times in their River ids
	// tell them apart. The tick looks every second; a job whose instance
	// died is tried again after 11s (River's rescuer looks every 30s).
	env := []string{"PROPMAN_JOBS_TICK=1s", "PROPMAN_JOBS_POLL=200ms", "PROPMAN_JOBS_TIMEOUT=10s", "PROPMAN_JOBS_RESCUE=11s"}
	var instances []*instance
	for i := range 3 {
		instances = append(instances, startInstance(t, i, env))
	}
	t.Logf("three instances up after %s", time.Since(began).Round(time.Millisecond))

	// Every kind the workspace knows, due now in its own zone.
	zone, _ := time.LoadLocation("Europe/Berlin")
	var kinds []string
	for i, l := range landlords {
		var ws struct {
			Schedule map[string]string `json:"schedule"`
		}
		base := instances[i%len(instances)].base
		api(t, base, l.token, http.MethodGet, fmt.Sprintf("/api/v1/workspaces/%d", l.ws), nil, &ws)
		kinds = kinds[:0]
		schedule := map[string]string{}
		for k := range ws.Schedule {
			kinds = append(kinds, k)
			schedule[k] = time.Now().In(zone).Format("15:04")
		}
		api(t, base, l.token, http.MethodPatch, fmt.Sprintf("/api/v1/workspaces/%d", l.ws),
			map[string]any{"time_zone": zone.String(), "schedule": schedule}, nil)
	}
	if len(kinds) == 0 {
		t.Fatal("the workspace knows no periodic kinds")
	}
	for _, k := range kinds {
		if periodicChecks[k] == nil {
			t.Errorf("periodic kind %q has no check in periodicChecks: say what it must have made exactly once", k)
		}
	}

	big := landlords[0]
	charges := func() int {
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM charges AS c JOIN properties AS p ON p.id = c.property_id
			WHERE p.workspace_id = $1 AND c.kind = 'regular'`, big.ws).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	seeded := charges()

	// The big workspace's billing run, once it has made some charges: the
	// instance working its job (River's attempted_by) is killed.
	var victim *instance
	var runID int64
	var atKill int
	for deadline := time.Now().Add(30 * time.Second); victim == nil; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the big workspace's billing run did not start within 30s")
		}
		var clientID string
		err := db.QueryRowContext(ctx, `SELECT r.id, j.attempted_by[cardinality(j.attempted_by)]
			FROM job_runs AS r JOIN river_job AS j ON j.kind = 'periodic_run' AND j.args->>'run_id' = r.id::text
			WHERE r.workspace_id = $1 AND r.kind = 'billing' AND r.state = 'running' AND j.state = 'running'`, big.ws).Scan(&runID, &clientID)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if atKill = charges(); atKill == seeded {
			continue
		}
		made, err := clientTime(clientID)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range instances {
			if !made.Before(in.started.Add(-time.Millisecond)) && !made.After(in.ready) {
				victim = in
			}
		}
		if victim == nil {
			t.Fatalf("no instance was starting when River client %s was made", clientID)
		}
	}
	if err := victim.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-victim.exited
	killedAt := time.Now()
	var state string
	if err := db.QueryRowContext(ctx, "SELECT state FROM job_runs WHERE id = $1", runID).Scan(&state); err != nil {
		t.Fatal(err)
	}
	expected := bigUnits * 49
	if state != "running" || atKill-seeded >= expected {
		t.Fatalf("the run was not killed in the middle: state %s, %d of %d charges made", state, atKill-seeded, expected)
	}
	t.Logf("killed the instance working run %d after %s, with %d of %d charges made", runID,
		time.Since(began).Round(time.Millisecond), atKill-seeded, expected)

	var survivor *instance
	for _, in := range instances {
		if in != victim {
			survivor = in
		}
	}
	today := time.Now().In(zone).Format(time.DateOnly)
	runs := map[int64][]runView{}
	for deadline := time.Now().Add(75 * time.Second); ; time.Sleep(250 * time.Millisecond) {
		done := true
		for _, l := range landlords {
			var page struct {
				Runs []runView `json:"runs"`
			}
			api(t, survivor.base, l.token, http.MethodGet, fmt.Sprintf("/api/v1/workspaces/%d/runs?per_page=200", l.ws), nil, &page)
			runs[l.ws] = page.Runs
			finished := 0
			for _, r := range page.Runs {
				if r.State == "finished" {
					finished++
				}
			}
			done = done && finished >= len(kinds) && finished == len(page.Runs)
		}
		// River records a job completed a moment after its work returned.
		var open int
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM river_job WHERE kind = 'periodic_run' AND state <> 'completed'").Scan(&open); err != nil {
			t.Fatal(err)
		}
		done = done && open == 0
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("runs not finished 75s after the kill: %+v", runs)
		}
	}
	t.Logf("all runs finished %s after the kill (%s in all)", time.Since(killedAt).Round(time.Millisecond),
		time.Since(began).Round(time.Millisecond))

	for _, l := range landlords {
		seen := map[string]int{}
		for _, r := range runs[l.ws] {
			if r.LocalDate != today {
				t.Errorf("workspace %d: run %d of %s is for %s, not today (%s)", l.ws, r.ID, r.Kind, r.LocalDate, today)
			}
			if r.Error != nil {
				t.Errorf("workspace %d: run %d of %s: error %s", l.ws, r.ID, r.Kind, *r.Error)
			}
			seen[r.Kind]++
			if r.ID == runID {
				if r.Attempts < 2 {
					t.Errorf("the killed run %d has %d attempts; want a second one after the rescue", r.ID, r.Attempts)
				}
				t.Logf("run %d: %d attempts, the last took %s: %v", r.ID, r.Attempts, r.Finished.Sub(r.Started).Round(time.Millisecond), r.Counts)
			} else {
				t.Logf("workspace %d, %s: %d attempts, %s: %v", l.ws, r.Kind, r.Attempts, r.Finished.Sub(r.Started).Round(time.Millisecond), r.Counts)
			}
		}
		for _, k := range kinds {
			if seen[k] != 1 {
				t.Errorf("workspace %d: %d runs of %s today, want 1", l.ws, seen[k], k)
			}
		}
		for _, k := range kinds {
			if check := periodicChecks[k]; check != nil {
				if err := check(ctx, db, l.ws); err != nil {
					t.Errorf("workspace %d, %s: %v", l.ws, k, err)
				}
			}
		}
	}
	// One job for each run, however many instances ticked.
	var jobs, runsTotal, badJobs int
	err = db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM river_job WHERE kind = 'periodic_run'),
			(SELECT count(*) FROM job_runs),
			(SELECT count(*) FROM job_runs AS r WHERE (SELECT count(*) FROM river_job AS j
				WHERE j.kind = 'periodic_run' AND j.args->>'run_id' = r.id::text AND j.state = 'completed') <> 1)`).
		Scan(&jobs, &runsTotal, &badJobs)
	if err != nil {
		t.Fatal(err)
	}
	if jobs != runsTotal || badJobs != 0 {
		t.Errorf("%d periodic_run jobs for %d runs, %d runs without exactly one completed job", jobs, runsTotal, badJobs)
	}
}
