// Command loadgen drives HTTP load at one endpoint for a fixed time from a
// fixed number of keep-alive connections and prints one JSON line: requests
// per second, latency percentiles and errors. scripts/load runs it.
//
// It is closed-loop (each connection sends its next request when the answer
// to the previous one has arrived), like wrk and hey: the figures say how
// much the server carries when every connection keeps it busy.
//
// With -pair it loads two URLs in turns (the endpoint and its ceiling), in
// short slices, and prints a line for each: the ratio of the two is then
// measured over the same stretch of the machine's time.
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
	pair := flag.String("pair", "", "a second URL (the ceiling) loaded in turns with -url, in -slices slices each; both runs are printed")
	pairName := flag.String("pair-name", "", "label of the -pair run (the -url run names it as its ceiling)")
	nslices := flag.Int("slices", 6, "with -pair: slices each side's -d is cut into")
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
	bodies := []string{*body}
	if *bodiesFile != "" {
		raw, err := os.ReadFile(*bodiesFile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "loadgen: -bodies: %v\n", err)
			os.Exit(2)
		}
		bodies = strings.Fields(string(raw))
	}
	req := requestSpec{method: *method, headers: hdrs, bodies: bodies}
	load, err := newTarget(*target, *conns, req)
	if err != nil {
		fmt.Fprintf(os.Stderr, "loadgen: -url: %v\n", err)
		os.Exit(2)
	}
	if *pair == "" {
		if *warmup > 0 {
			load.run(*warmup, *expect, nil)
		}
		var t tally
		load.run(*duration, *expect, &t)
		emit(t.result(Result{Name: *name, Engine: *engine, Ceiling: *ceiling, Round: *round}))
		return
	}
	other, err := newTarget(*pair, *conns, req)
	if err != nil {
		fmt.Fprintf(os.Stderr, "loadgen: -pair: %v\n", err)
		os.Exit(2)
	}
	if *warmup > 0 {
		other.run(*warmup/2, *expect, nil)
		load.run(*warmup/2, *expect, nil)
	}
	// The two sides take turns in short slices, and which goes first turns
	// too (ABBA), so a change of the machine's pace during the round weighs
	// on both alike; runs seconds apart differed by up to 1.5x here.
	slice := *duration / time.Duration(max(1, *nslices))
	var mt, ot tally
	for i := range max(1, *nslices) {
		if i%2 == 0 {
			other.run(slice, *expect, &ot)
			load.run(slice, *expect, &mt)
		} else {
			load.run(slice, *expect, &mt)
			other.run(slice, *expect, &ot)
		}
	}
	emit(ot.result(Result{Name: *pairName, Engine: *engine, Round: *round}))
	emit(mt.result(Result{Name: *name, Engine: *engine, Ceiling: *pairName, Round: *round}))
}

func emit(r Result) {
	out, _ := json.Marshal(r)
	fmt.Println(string(out))
}

// requestSpec is what every request of a run carries.
type requestSpec struct {
	method  string
	headers headers
	bodies  []string
}

// target is one URL and the keep-alive connections to it.
type target struct {
	url    string
	client *fasthttp.HostClient
	conns  int
	spec   requestSpec
}

func newTarget(rawURL string, conns int, spec requestSpec) (*target, error) {
	uri := fasthttp.AcquireURI()
	defer fasthttp.ReleaseURI(uri)
	if err := uri.Parse(nil, []byte(rawURL)); err != nil {
		return nil, err
	}
	return &target{url: rawURL, conns: conns, spec: spec, client: &fasthttp.HostClient{
		Addr:                string(uri.Host()),
		MaxConns:            conns,
		ReadTimeout:         30 * time.Second,
		WriteTimeout:        30 * time.Second,
		MaxIdleConnDuration: time.Minute,
	}}, nil
}

// request is what connection i sends: the bodies are dealt round the
// connections.
func (t *target) request(i int) *fasthttp.Request {
	body := t.spec.bodies[i%len(t.spec.bodies)]
	req := fasthttp.AcquireRequest()
	req.SetRequestURI(t.url)
	req.Header.SetMethod(t.spec.method)
	for _, h := range t.spec.headers {
		k, v, _ := strings.Cut(h, ":")
		req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	if body != "" {
		req.Header.SetContentType("application/json")
		req.SetBodyString(body)
	}
	return req
}

// tally adds up the runs of one side.
type tally struct {
	lat     []time.Duration
	errs    int
	first   string
	seconds float64
}

func (t *tally) result(res Result) Result {
	res.Errors, res.FirstError = t.errs, t.first
	res.Seconds = t.seconds
	res.Requests = len(t.lat)
	if t.seconds > 0 {
		res.RPS = float64(len(t.lat)) / t.seconds
	}
	slices.Sort(t.lat)
	res.P50ms = percentile(t.lat, 0.50)
	res.P99ms = percentile(t.lat, 0.99)
	return res
}

// run sends requests from every connection for d and adds what it
// measured to into (nil: a warm-up, not measured).
func (t *target) run(d time.Duration, expect int, into *tally) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for i := range t.conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := t.request(i)
			resp := fasthttp.AcquireResponse()
			defer fasthttp.ReleaseRequest(req)
			defer fasthttp.ReleaseResponse(resp)
			lat := make([]time.Duration, 0, 4096)
			var errs int
			var first string
			for time.Now().Before(deadline) {
				t0 := time.Now()
				err := t.client.Do(req, resp)
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
				case resp.StatusCode() != expect:
					errs++
					if first == "" {
						first = fmt.Sprintf("status %d: %.200s", resp.StatusCode(), resp.Body())
					}
				}
			}
			if into == nil {
				return
			}
			mu.Lock()
			into.lat = append(into.lat, lat...)
			into.errs += errs
			if into.first == "" {
				into.first = first
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if into != nil {
		into.seconds += deadline.Sub(start).Seconds()
	}
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
