// Command loadgen drives HTTP load at one endpoint for a fixed time from a
// fixed number of keep-alive connections and prints one JSON line: requests
// per second, latency percentiles and errors. scripts/load runs it.
//
// It is closed-loop (each connection sends its next request when the answer
// to the previous one has arrived), like wrk and hey: the figures say how
// much the server carries when every connection keeps it busy.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

type headers []string

func (h *headers) String() string     { return strings.Join(*h, ", ") }
func (h *headers) Set(v string) error { *h = append(*h, v); return nil }

// Result is what one run measured.
type Result struct {
	Name   string `json:"name"`
	Engine string `json:"engine,omitempty"`
	// Ceiling names the run (same engine) this one is compared with.
	Ceiling string `json:"ceiling,omitempty"`
	// Round numbers the repeats of one run; a run is compared with its
	// ceiling's run of the same round.
	Round    int     `json:"round,omitempty"`
	Requests int     `json:"requests"`
	Errors   int     `json:"errors"`
	Seconds  float64 `json:"seconds"`
	RPS      float64 `json:"rps"`
	P50ms    float64 `json:"p50_ms"`
	P99ms    float64 `json:"p99_ms"`
	// FirstError is an example of what counted as an error.
	FirstError string `json:"first_error,omitempty"`
}

func main() {
	name := flag.String("name", "", "label of this run in the output")
	engine := flag.String("engine", "", "database engine label (sqlite, postgres)")
	ceiling := flag.String("ceiling", "", "name of the ceiling run this one is compared with")
	round := flag.Int("round", 0, "which repeat of this run it is (the report takes the median over rounds)")
	report := flag.String("report", "", "print the table of the JSON lines in this file and exit")
	target := flag.String("url", "", "URL to load (http://127.0.0.1:port/path)")
	method := flag.String("method", "GET", "HTTP method")
	body := flag.String("body", "", "request body (sent as application/json)")
	bodiesFile := flag.String("bodies", "", "file of request bodies, one a line; connection i sends line i mod n")
	conns := flag.Int("c", 32, "connections, each with one request in flight")
	duration := flag.Duration("d", 10*time.Second, "how long to send requests")
	warmup := flag.Duration("warmup", time.Second, "load sent first and not measured")
	expect := flag.Int("expect", 200, "the status that counts as success")
	var hdrs headers
	flag.Var(&hdrs, "H", `header "Name: value" (repeatable)`)
	flag.Parse()
	if *report != "" {
		if err := printReport(os.Stdout, *report); err != nil {
			fmt.Fprintf(os.Stderr, "loadgen: %v\n", err)
			os.Exit(1)
		}
		return
	}
	if *target == "" {
		fmt.Fprintln(os.Stderr, "loadgen: -url is required")
		os.Exit(2)
	}
	uri := fasthttp.AcquireURI()
	if err := uri.Parse(nil, []byte(*target)); err != nil {
		fmt.Fprintf(os.Stderr, "loadgen: -url: %v\n", err)
		os.Exit(2)
	}
	client := &fasthttp.HostClient{
		Addr:                string(uri.Host()),
		MaxConns:            *conns,
		ReadTimeout:         30 * time.Second,
		WriteTimeout:        30 * time.Second,
		MaxIdleConnDuration: time.Minute,
	}
	bodies := []string{*body}
	if *bodiesFile != "" {
		raw, err := os.ReadFile(*bodiesFile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "loadgen: -bodies: %v\n", err)
			os.Exit(2)
		}
		bodies = strings.Fields(string(raw))
	}
	newRequest := func(i int) *fasthttp.Request {
		body := bodies[i%len(bodies)]
		req := fasthttp.AcquireRequest()
		req.SetRequestURI(*target)
		req.Header.SetMethod(*method)
		for _, h := range hdrs {
			k, v, _ := strings.Cut(h, ":")
			req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
		}
		if body != "" {
			req.Header.SetContentType("application/json")
			req.SetBodyString(body)
		}
		return req
	}

	run := func(d time.Duration, record bool) Result {
		var mu sync.Mutex
		var all []time.Duration
		res := Result{Name: *name, Engine: *engine, Ceiling: *ceiling, Round: *round}
		var wg sync.WaitGroup
		start := time.Now()
		deadline := start.Add(d)
		for i := range *conns {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req := newRequest(i)
				resp := fasthttp.AcquireResponse()
				lat := make([]time.Duration, 0, 4096)
				var errs int
				var first string
				for time.Now().Before(deadline) {
					t0 := time.Now()
					err := client.Do(req, resp)
					done := time.Now()
					if done.After(deadline) {
						// Answers after the window would stretch it: the rate is over d.
						break
					}
					lat = append(lat, done.Sub(t0))
					switch {
					case err != nil:
						errs++
						if first == "" {
							first = err.Error()
						}
					case resp.StatusCode() != *expect:
						errs++
						if first == "" {
							first = fmt.Sprintf("status %d: %.200s", resp.StatusCode(), resp.Body())
						}
					}
				}
				mu.Lock()
				all = append(all, lat...)
				res.Errors += errs
				if res.FirstError == "" {
					res.FirstError = first
				}
				mu.Unlock()
			}()
		}
		wg.Wait()
		if !record {
			return res
		}
		res.Seconds = deadline.Sub(start).Seconds()
		res.Requests = len(all)
		res.RPS = float64(len(all)) / res.Seconds
		slices.Sort(all)
		res.P50ms = percentile(all, 0.50)
		res.P99ms = percentile(all, 0.99)
		return res
	}
	if *warmup > 0 {
		run(*warmup, false)
	}
	out, _ := json.Marshal(run(*duration, true))
	fmt.Println(string(out))
}

// percentile of sorted latencies, in milliseconds (nearest rank).
func percentile(sorted []time.Duration, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p+0.5) - 1
	i = max(0, min(i, len(sorted)-1))
	return float64(sorted[i].Microseconds()) / 1000
}
