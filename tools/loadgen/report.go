package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
)

// printReport prints the runs of file (JSON lines of Result) as one table,
// with each run's requests per second as a ratio to its ceiling's.
func printReport(w io.Writer, file string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	var runs []Result
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		runs = append(runs, r)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	find := func(name, engine string) *Result {
		for i := range runs {
			if runs[i].Name == name && runs[i].Engine == engine {
				return &runs[i]
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "endpoint\tengine\treq/s\tp50 ms\tp99 ms\terrors\tratio to ceiling\t")
	for _, r := range runs {
		ratio := "-"
		if c := find(r.Ceiling, r.Engine); r.Ceiling != "" && c != nil && c.RPS > 0 {
			ratio = fmt.Sprintf("%.2f", r.RPS/c.RPS)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.0f\t%.2f\t%.2f\t%d/%d\t%s\t\n", r.Name, r.Engine, r.RPS, r.P50ms, r.P99ms, r.Errors, r.Requests, ratio)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range runs {
		if r.Errors > 0 {
			fmt.Fprintf(w, "first error of %s on %s: %s\n", r.Name, r.Engine, r.FirstError)
		}
	}
	return nil
}
