// Command faults is the client side of scripts/faults: it drives propman
// through a fault and prints what it saw, one "key: value" per line, and
// ends with PASS or FAIL (exit status 0 or 1).
//
//	faults writers    -url -token -property -c -d [-stop CMD -start CMD]
//	faults drain      -url -pid -bodies FILE
//	faults slowloris  -url -c -timeout
//	faults bigheader  -url -pid -n
//	faults blackhole  -addr   (accepts connections and never answers)
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// held keeps the blackhole's accepted connections open and unanswered (a
// dropped net.Conn is closed by its finalizer): a database that takes
// connections and says nothing.
var held []net.Conn

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: faults writers|drain|slowloris|bigheader [flags]")
		os.Exit(2)
	}
	var ok bool
	switch os.Args[1] {
	case "writers":
		ok = writers(os.Args[2:])
	case "drain":
		ok = drain(os.Args[2:])
	case "slowloris":
		ok = slowloris(os.Args[2:])
	case "bigheader":
		ok = bigheader(os.Args[2:])
	case "blackhole":
		blackhole(os.Args[2:])
		return
	default:
		fmt.Fprintf(os.Stderr, "faults: unknown check %q\n", os.Args[1])
		os.Exit(2)
	}
	if !ok {
		fmt.Println("FAIL")
		os.Exit(1)
	}
	fmt.Println("PASS")
}

func check(ok bool, format string, args ...any) bool {
	mark := "ok   "
	if !ok {
		mark = "BAD  "
	}
	fmt.Printf(mark+format+"\n", args...)
	return ok
}

type outcome struct {
	at      time.Duration // since the start, when the answer came
	latency time.Duration
	status  int // 0: no HTTP answer
	id      string
	err     string
}

// writers creates expenses from c clients for d. With -stop and -start it
// runs the stop command after a while, the start command a few seconds
// later, and goes on until -after past the start; then it checks that
// failures were quick 503s, that writes succeed again soon after the start,
// and that every expense that got a 201 is listed.
func writers(args []string) bool {
	fs := flag.NewFlagSet("writers", flag.ExitOnError)
	base := fs.String("url", "", "propman base URL")
	token := fs.String("token", "", "bearer token")
	property := fs.String("property", "", "property id")
	conns := fs.Int("c", 8, "concurrent writers")
	duration := fs.Duration("d", 10*time.Second, "how long to write (without -stop)")
	stopCmd := fs.String("stop", "", "shell command that stops the database")
	startCmd := fs.String("start", "", "shell command that starts it again")
	before := fs.Duration("before", 3*time.Second, "writing time before -stop")
	outage := fs.Duration("outage", 3*time.Second, "time between -stop and -start")
	after := fs.Duration("after", 10*time.Second, "writing time after -start")
	timeout := fs.Duration("timeout", 10*time.Second, "the request timeout (database.timeout); no answer may take longer")
	recoverIn := fs.Duration("recover", 5*time.Second, "writes must succeed again within this after -start")
	_ = fs.Parse(args)

	client := &http.Client{Timeout: 2 * *timeout}
	endpoint := *base + "/api/v1/properties/" + *property + "/expenses"
	stop := make(chan struct{})
	var mu sync.Mutex
	var outcomes []outcome
	start := time.Now()
	var wg sync.WaitGroup
	for w := range *conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				body := fmt.Sprintf(`{"name":"fault writer %d-%d","type":"MONTHLY","amount":10.%02d,"start_date":"2026-01-01"}`, w, n, n%100)
				req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+*token)
				t0 := time.Now()
				res, err := client.Do(req)
				o := outcome{latency: time.Since(t0)}
				o.at = time.Since(start)
				if err != nil {
					o.err = err.Error()
				} else {
					o.status = res.StatusCode
					var created struct {
						ID string `json:"id"`
					}
					raw, _ := io.ReadAll(res.Body)
					res.Body.Close()
					if res.StatusCode == http.StatusCreated && json.Unmarshal(raw, &created) == nil {
						o.id = created.ID
					} else if res.StatusCode >= 300 {
						o.err = strings.TrimSpace(string(raw))
					}
				}
				mu.Lock()
				outcomes = append(outcomes, o)
				mu.Unlock()
				if o.status == 0 || o.status >= 500 {
					time.Sleep(50 * time.Millisecond) // a client backing off a little, as a real one would
				}
			}
		}()
	}
	var startedAt time.Duration
	if *stopCmd != "" {
		time.Sleep(*before)
		t := time.Since(start)
		if out, err := exec.Command("sh", "-c", *stopCmd).CombinedOutput(); err != nil {
			fmt.Printf("stop command failed: %v\n%s", err, out)
		}
		fmt.Printf("database stopped: at %.1fs (stop took %.1fs)\n", t.Seconds(), (time.Since(start) - t).Seconds())
		time.Sleep(*outage)
		if out, err := exec.Command("sh", "-c", *startCmd).CombinedOutput(); err != nil {
			fmt.Printf("start command failed: %v\n%s", err, out)
		}
		startedAt = time.Since(start)
		fmt.Printf("database started again: at %.1fs\n", startedAt.Seconds())
		time.Sleep(*after)
	} else {
		time.Sleep(*duration)
	}
	close(stop)
	wg.Wait()

	statuses := map[string]int{}
	var failures []outcome
	var maxLatency, maxFailLatency time.Duration
	var ids []string
	var lastFailure time.Duration
	for _, o := range outcomes {
		key := strconv.Itoa(o.status)
		if o.status == 0 {
			key = "no answer"
		}
		statuses[key]++
		maxLatency = max(maxLatency, o.latency)
		if o.status == http.StatusCreated {
			ids = append(ids, o.id)
			continue
		}
		failures = append(failures, o)
		maxFailLatency = max(maxFailLatency, o.latency)
		lastFailure = max(lastFailure, o.at)
	}
	fmt.Printf("requests: %d from %d writers over %.1fs; answers: %v\n", len(outcomes), *conns, time.Since(start).Seconds(), statuses)
	fmt.Printf("slowest answer: %v; slowest failure: %v\n", maxLatency.Round(time.Millisecond), maxFailLatency.Round(time.Millisecond))
	good := true
	other := 0
	var example string
	for _, f := range failures {
		if f.status != http.StatusServiceUnavailable {
			other++
			if example == "" {
				example = fmt.Sprintf("%d %s", f.status, f.err)
			}
		}
	}
	if *stopCmd == "" {
		good = check(len(failures) == 0, "no failed write (first: %s)", example) && good
	} else {
		good = check(other == 0, "every failure is a 503 (others: %d, e.g. %s)", other, example) && good
		good = check(len(failures) > 0, "the outage was seen (%d failed writes)", len(failures)) && good
		good = check(maxLatency < *timeout, "no answer took as long as the request timeout %v (slowest %v)", *timeout, maxLatency.Round(time.Millisecond)) && good
		firstOK := time.Duration(-1)
		for _, o := range outcomes {
			if o.status == http.StatusCreated && o.at > startedAt && (firstOK < 0 || o.at < firstOK) {
				firstOK = o.at
			}
		}
		recovered := lastFailure - startedAt
		fmt.Printf("relative to the database being back: last failed write %+.2fs, first 201 %+.2fs\n",
			recovered.Seconds(), (firstOK - startedAt).Seconds())
		good = check(firstOK > 0 && recovered < *recoverIn, "the service recovered by itself: no failure later than %v after the database is back", *recoverIn) && good
	}
	listed, err := listExpenses(client, endpoint, *token)
	if err != nil {
		return check(false, "list expenses: %v", err)
	}
	missing := 0
	for _, id := range ids {
		if !listed[id] {
			missing++
		}
	}
	good = check(missing == 0, "every 201 is in the database: %d acknowledged, %d missing; %d rows in all (%d from writes whose answer was lost)",
		len(ids), missing, len(listed), len(listed)-len(ids)) && good
	return good
}

func listExpenses(client *http.Client, endpoint, token string) (map[string]bool, error) {
	seen := map[string]bool{}
	for page := 1; ; page++ {
		req, _ := http.NewRequest(http.MethodGet, endpoint+"?per_page=200&page="+strconv.Itoa(page), nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		var body struct {
			Expenses []struct {
				ID string `json:"id"`
			} `json:"expenses"`
			Total int `json:"total"`
		}
		err = json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		if err != nil || res.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("page %d: status %d: %w", page, res.StatusCode, err)
		}
		for _, e := range body.Expenses {
			seen[e.ID] = true
		}
		if len(body.Expenses) == 0 || len(seen) >= body.Total {
			return seen, nil
		}
	}
}

// drain sends one login per line of -bodies at once, each on its own
// connection, sends SIGTERM to -pid while they are in flight, and checks
// that every login is answered 200 and that new connections are refused
// while the server drains.
func drain(args []string) bool {
	fs := flag.NewFlagSet("drain", flag.ExitOnError)
	base := fs.String("url", "", "propman base URL")
	pid := fs.Int("pid", 0, "propman's process id")
	bodiesFile := fs.String("bodies", "", "login bodies, one a line")
	wait := fs.Duration("wait", 100*time.Millisecond, "time between sending the logins and SIGTERM")
	_ = fs.Parse(args)
	raw, err := os.ReadFile(*bodiesFile)
	if err != nil {
		return check(false, "read -bodies: %v", err)
	}
	bodies := strings.Fields(string(raw))
	u, _ := url.Parse(*base)
	type answer struct {
		status int
		err    error
		at     time.Time
	}
	answers := make([]answer, len(bodies))
	var wg sync.WaitGroup
	for i, b := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Its own transport: one connection per request, opened now.
			client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
			res, err := client.Post(*base+"/api/v1/auth/login", "application/json", strings.NewReader(b))
			answers[i] = answer{err: err, at: time.Now()}
			if err == nil {
				answers[i].status = res.StatusCode
				res.Body.Close()
			}
		}()
	}
	time.Sleep(*wait)
	sigterm := time.Now()
	if err := syscall.Kill(*pid, syscall.SIGTERM); err != nil {
		return check(false, "SIGTERM: %v", err)
	}
	fmt.Printf("SIGTERM sent %v after %d logins were sent\n", *wait, len(bodies))
	// New connections while draining.
	time.Sleep(50 * time.Millisecond)
	var refused, accepted int
	var acceptedErr string
	for range 10 {
		c, err := net.DialTimeout("tcp", u.Host, time.Second)
		if err != nil {
			refused++
		} else {
			// A connection the kernel accepted must not get an answer either.
			_ = c.SetDeadline(time.Now().Add(2 * time.Second))
			fmt.Fprintf(c, "GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
			line, rerr := bufio.NewReader(c).ReadString('\n')
			if rerr == nil {
				accepted++
				acceptedErr = strings.TrimSpace(line)
			} else {
				refused++
			}
			c.Close()
		}
		time.Sleep(20 * time.Millisecond)
	}
	wg.Wait()
	statuses := map[int]int{}
	var errs []string
	inFlight := 0
	var last time.Time
	for _, a := range answers {
		statuses[a.status]++
		if a.err != nil {
			errs = append(errs, a.err.Error())
		}
		if a.at.After(sigterm) {
			inFlight++
		}
		if a.at.After(last) {
			last = a.at
		}
	}
	fmt.Printf("logins answered: %v; answered after SIGTERM: %d; last answer %.2fs after SIGTERM\n", statuses, inFlight, last.Sub(sigterm).Seconds())
	good := check(statuses[200] == len(bodies), "all %d logins completed with 200 (errors: %v)", len(bodies), first(errs))
	good = check(inFlight >= len(bodies)/2, "at least half of them were still in flight at SIGTERM (%d)", inFlight) && good
	good = check(accepted == 0, "new connections during the drain refused: %d of 10 (answered: %d %s)", refused, accepted, acceptedErr) && good
	return good
}

func first(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return s[0]
}

// slowloris opens c connections that send a request's headers one byte at
// a time, and checks that the server closes each about when its read
// timeout ends, while a normal request is still answered.
func slowloris(args []string) bool {
	fs := flag.NewFlagSet("slowloris", flag.ExitOnError)
	base := fs.String("url", "", "propman base URL")
	conns := fs.Int("c", 20, "slow connections")
	timeout := fs.Duration("timeout", 5*time.Second, "the server's http.readtimeout")
	_ = fs.Parse(args)
	u, _ := url.Parse(*base)
	request := "GET /api/v1/health HTTP/1.1\r\nHost: " + u.Host + "\r\nX-Slow: " + strings.Repeat("a", 200) + "\r\n\r\n"
	cut := make([]time.Duration, *conns)
	var wg sync.WaitGroup
	for i := range *conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", u.Host)
			if err != nil {
				cut[i] = -1
				return
			}
			defer c.Close()
			t0 := time.Now()
			for j := 0; j < len(request)-4; j++ { // never finishes the headers
				_ = c.SetWriteDeadline(time.Now().Add(time.Second))
				if _, err := c.Write([]byte{request[j]}); err != nil {
					break
				}
				// Is the server still there? A closed connection reads EOF.
				_ = c.SetReadDeadline(time.Now().Add(250 * time.Millisecond))
				buf := make([]byte, 512)
				if _, err := c.Read(buf); err == nil || !isTimeout(err) {
					break
				}
				if time.Since(t0) > 4**timeout {
					break
				}
			}
			cut[i] = time.Since(t0)
		}()
	}
	// The server still answers others meanwhile.
	time.Sleep(time.Second)
	t0 := time.Now()
	res, err := http.Get(*base + "/api/v1/health")
	healthy := err == nil && res.StatusCode == http.StatusOK
	if err == nil {
		res.Body.Close()
	}
	fmt.Printf("a normal request during the attack: ok=%v in %v\n", healthy, time.Since(t0).Round(time.Millisecond))
	wg.Wait()
	slices.Sort(cut)
	fmt.Printf("slow connections cut after: min %v, max %v (read timeout %v)\n", cut[0].Round(10*time.Millisecond),
		cut[len(cut)-1].Round(10*time.Millisecond), *timeout)
	good := check(healthy, "normal requests are answered during the attack")
	good = check(cut[0] >= *timeout-time.Second, "no slow connection was cut before the read timeout") && good
	good = check(cut[len(cut)-1] <= *timeout+2*time.Second, "every slow connection was cut within 2s after the read timeout") && good
	return good
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// bigheader sends n requests whose Authorization header is 1 MB of dots and
// checks that each is refused quickly and that propman's resident memory
// does not jump.
func bigheader(args []string) bool {
	fs := flag.NewFlagSet("bigheader", flag.ExitOnError)
	base := fs.String("url", "", "propman base URL")
	pid := fs.Int("pid", 0, "propman's process id (for its memory)")
	n := fs.Int("n", 20, "requests, sent 5 at a time")
	limit := fs.Int("rss", 32, "allowed growth of resident memory, MB")
	_ = fs.Parse(args)
	u, _ := url.Parse(*base)
	before := rss(*pid)
	header := "Bearer " + strings.Repeat(".", 1<<20)
	statuses := map[string]int{}
	var slowest time.Duration
	var mu sync.Mutex
	sem := make(chan struct{}, 5)
	var wg sync.WaitGroup
	for range *n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			t0 := time.Now()
			got := sendBig(u.Host, header)
			d := time.Since(t0)
			mu.Lock()
			statuses[got]++
			slowest = max(slowest, d)
			mu.Unlock()
		}()
	}
	wg.Wait()
	after := rss(*pid)
	fmt.Printf("answers: %v; slowest %v; propman RSS %d MB before, %d MB after\n", statuses, slowest.Round(time.Millisecond), before>>10, after>>10)
	refused := statuses["431"] + statuses["connection closed"]
	good := check(refused == *n, "all %d refused (431 or connection closed before any handler)", *n)
	good = check(slowest < 2*time.Second, "each refused within 2s (slowest %v)", slowest.Round(time.Millisecond)) && good
	good = check(before > 0 && after-before < int64(*limit)<<10, "resident memory grew by less than %d MB (%+d kB)", *limit, after-before) && good
	return good
}

// sendBig writes a request with the header and reports the status line's
// code, or "connection closed" when the server hung up without one.
func sendBig(host, auth string) string {
	c, err := net.Dial("tcp", host)
	if err != nil {
		return "dial error"
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	go func() {
		var b bytes.Buffer
		b.WriteString("GET /api/v1/auth/me HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: " + auth + "\r\n\r\n")
		_, _ = c.Write(b.Bytes()) // may fail once the server has answered and closed
	}()
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return "connection closed"
	}
	parts := strings.Fields(line)
	if len(parts) < 2 {
		return "garbled"
	}
	return parts[1]
}

// rss is the resident memory of pid in kB (0 when unknown).
func rss(pid int) int64 {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}

// blackhole accepts connections and never answers, like a database host
// behind a firewall that drops packets after the handshake. It prints the
// bound address and runs until killed.
func blackhole(args []string) {
	fs := flag.NewFlagSet("blackhole", flag.ExitOnError)
	addr := fs.String("addr", "127.0.0.1:0", "listen address")
	_ = fs.Parse(args)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "blackhole:", err)
		os.Exit(1)
	}
	fmt.Println("listening", ln.Addr().String())
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		held = append(held, c)
	}
}
