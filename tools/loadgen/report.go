package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"text/tabwriter"
)

// printReport prints the runs of file (JSON lines of Result) as one table:
// for each endpoint and engine the median over its rounds of the requests
// per second (with the lowest and highest), of p99, and of the ratio of
// each round to its ceiling's run of the same round. One run on this
// machine can be off by 2x; the median and spread of repeats are not.
func printReport(w io.Writer, file string) error {
	runs, err := readRuns(file)
	if err != nil {
		return err
	}
	type key struct{ name, engine string }
	var order []key
	groups := map[key][]Result{}
	byRound := map[key]map[int]Result{}
	for _, r := range runs {
		k := key{r.Name, r.Engine}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
			byRound[k] = map[int]Result{}
		}
		groups[k] = append(groups[k], r)
		byRound[k][r.Round] = r
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "endpoint\tengine\truns\treq/s median\t(min-max)\tp99 ms median\terrors\tratio to ceiling median\t(min-max)\t")
	for _, k := range order {
		g := groups[k]
		var rps, p99, ratios []float64
		var errs, reqs int
		for _, r := range g {
			rps = append(rps, r.RPS)
			p99 = append(p99, r.P99ms)
			errs += r.Errors
			reqs += r.Requests
			if r.Ceiling == "" {
				continue
			}
			if c, ok := byRound[key{r.Ceiling, r.Engine}][r.Round]; ok && c.RPS > 0 {
				ratios = append(ratios, r.RPS/c.RPS)
			}
		}
		ratio, ratioSpread := "-", ""
		if len(ratios) > 0 {
			ratio = fmt.Sprintf("%.2f", median(ratios))
			ratioSpread = fmt.Sprintf("(%.2f-%.2f)", slices.Min(ratios), slices.Max(ratios))
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.0f\t(%.0f-%.0f)\t%.2f\t%d/%d\t%s\t%s\t\n", k.name, k.engine, len(g),
			median(rps), slices.Min(rps), slices.Max(rps), median(p99), errs, reqs, ratio, ratioSpread)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range runs {
		if r.Errors > 0 {
			fmt.Fprintf(w, "first error of %s on %s (round %d): %s\n", r.Name, r.Engine, r.Round, r.FirstError)
		}
	}
	return nil
}

func readRuns(file string) ([]Result, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var runs []Result
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		runs = append(runs, r)
	}
	return runs, sc.Err()
}

// median of xs (not empty); xs is reordered.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
