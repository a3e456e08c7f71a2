package metrics

import (
	"maps"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/prometheus/client_golang/prometheus"
)

// Request metrics are counted in shards, and summed when scraped.
//
// Prometheus's own counter, histogram and gauge keep one set of atomics per
// series, which every request changes: seven atomic read-modify-writes per
// request on cache lines that both CPUs of this machine write, each a
// transfer of the line between cores. Under load that cost propman about
// 7 % of its throughput on a small read (paired runs of scripts/load with
// metrics on and off), where the same work in one thread costs 0.1 us. Here
// each series and the in-flight count have shardCount copies; a request
// takes a shard through a sync.Pool, which hands each P (each CPU running
// Go) the shard it put back last, so the lines stay with one core. Scrapes
// sum the shards; counts are exact, only which shard holds them varies.

// shardCount copies of every series: more than the CPUs of the machines
// propman runs on, so that two Ps rarely share one.
const shardCount = 16

// durationBuckets are the upper bounds of propman_http_request_duration_seconds.
var durationBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// requestShard is one copy of a series: a count per bucket, the last one
// above every bound (so the total is their sum, never out of step with the
// buckets), and the sum of the durations in nanoseconds. 16 words: two
// cache lines.
type requestShard struct {
	buckets [15]atomic.Uint64
	sumNs   atomic.Uint64
}

type requestSeries struct {
	route, method, code string
	shards              [shardCount]requestShard
}

// inFlightShard is padded to a cache line of its own.
type inFlightShard struct {
	n atomic.Int64
	_ [56]byte
}

// requests is the collector of the three request families.
type requests struct {
	requestsDesc, durationDesc, inFlightDesc *prometheus.Desc
	boundsNs                                 [14]int64

	inFlight [shardCount]inFlightShard
	slots    sync.Pool // *int: a shard index
	next     atomic.Uint32

	// byRoute finds a request's series by the route that answered, then
	// its method and status among the few that route has seen; byLabels
	// owns the series, one per label set (several keys may share one:
	// every unknown path is "unmatched"). byRoute is copied on write,
	// under mu: keys are few and all come early, and a map keyed by a
	// pointer hashes one word (a sync.Map hashed an interface through its
	// type, three times the cost; a struct key, each field apart).
	byRoute  atomic.Pointer[map[*fiber.Route][]routeSeries]
	mu       sync.Mutex
	byLabels map[[3]string]*requestSeries
	all      atomic.Pointer[[]*requestSeries]
}

func newRequests() *requests {
	r := &requests{
		requestsDesc: prometheus.NewDesc("propman_http_requests_total",
			"HTTP requests answered, by route template, method and status.", []string{"route", "method", "status"}, nil),
		durationDesc: prometheus.NewDesc("propman_http_request_duration_seconds",
			"Time from receiving a request to having its response ready, by route template, method and status.",
			[]string{"route", "method", "status"}, nil),
		inFlightDesc: prometheus.NewDesc("propman_http_requests_in_flight", "Requests being handled now.", nil, nil),
		byLabels:     map[[3]string]*requestSeries{},
	}
	for i, b := range durationBuckets {
		r.boundsNs[i] = int64(b * float64(time.Second))
	}
	r.slots.New = func() any {
		i := int(r.next.Add(1) % shardCount)
		return &i
	}
	r.all.Store(&[]*requestSeries{})
	r.byRoute.Store(&map[*fiber.Route][]routeSeries{})
	return r
}

// shard is the index of the shard of the P running the caller.
func (r *requests) shard() int {
	s := r.slots.Get().(*int)
	i := *s
	r.slots.Put(s)
	return i
}

func (r *requests) start() int {
	i := r.shard()
	r.inFlight[i].n.Add(1)
	return i
}

// done counts a request that began on shard i.
func (r *requests) done(m *Metrics, c *fiber.Ctx, i, status int, elapsed time.Duration) {
	r.inFlight[i].n.Add(-1)
	method := methodIndex(c.Method())
	route := c.Route()
	if len(route.Handlers) == 0 {
		// Fiber's stand-in when no route ran, new on every call: it must
		// not become a key.
		route = nil
	}
	var s *requestSeries
	for _, e := range (*r.byRoute.Load())[route] {
		if e.status == status && e.method == method {
			s = e.series
			break
		}
	}
	if s == nil {
		s = r.add(route, method, status, m.route(c))
	}
	ns := max(int64(elapsed), 0)
	b := len(r.boundsNs)
	for j, bound := range r.boundsNs {
		if ns <= bound {
			b = j
			break
		}
	}
	sh := &s.shards[i]
	sh.buckets[b].Add(1)
	sh.sumNs.Add(uint64(ns))
}

// routeSeries is a series of a route, with its method and status.
type routeSeries struct {
	status int
	method uint8
	series *requestSeries
}

// add finds or makes the series of route's answers to method with status
// (template is route's label) and files it under route.
func (r *requests) add(route *fiber.Route, method uint8, status int, template string) *requestSeries {
	r.mu.Lock()
	defer r.mu.Unlock()
	byRoute := *r.byRoute.Load()
	for _, e := range byRoute[route] {
		if e.status == status && e.method == method {
			return e.series
		}
	}
	labels := [3]string{template, methodLabels[method], strconv.Itoa(status)}
	s, ok := r.byLabels[labels]
	if !ok {
		s = &requestSeries{route: labels[0], method: labels[1], code: labels[2]}
		r.byLabels[labels] = s
		all := append(append([]*requestSeries(nil), *r.all.Load()...), s)
		r.all.Store(&all)
	}
	next := maps.Clone(byRoute)
	next[route] = append(slices.Clip(byRoute[route]), routeSeries{status: status, method: method, series: s})
	r.byRoute.Store(&next)
	return s
}

func (r *requests) Describe(ch chan<- *prometheus.Desc) {
	ch <- r.requestsDesc
	ch <- r.durationDesc
	ch <- r.inFlightDesc
}

func (r *requests) Collect(ch chan<- prometheus.Metric) {
	var inFlight int64
	for i := range r.inFlight {
		inFlight += r.inFlight[i].n.Load()
	}
	ch <- prometheus.MustNewConstMetric(r.inFlightDesc, prometheus.GaugeValue, float64(inFlight))
	for _, s := range *r.all.Load() {
		var counts [15]uint64
		var sumNs uint64
		for i := range s.shards {
			for j := range counts {
				counts[j] += s.shards[i].buckets[j].Load()
			}
			sumNs += s.shards[i].sumNs.Load()
		}
		var total uint64
		cumulative := make(map[float64]uint64, len(durationBuckets))
		for j, bound := range durationBuckets {
			total += counts[j]
			cumulative[bound] = total
		}
		total += counts[len(durationBuckets)]
		ch <- prometheus.MustNewConstMetric(r.requestsDesc, prometheus.CounterValue, float64(total), s.route, s.method, s.code)
		ch <- prometheus.MustNewConstHistogram(r.durationDesc, total, float64(sumNs)/float64(time.Second), cumulative,
			s.route, s.method, s.code)
	}
}
