// Command propman serves the propman API and runs its operators' commands.
//
//	propman [serve]                  serve the API (default)
//	propman migrate up|down|status   manage the database schema
//	propman openapi                  print the doc.json the server would serve
//	propman version                  print the version
//	propman <module command> ...     commands of modules (see propman help)
//
// Every command takes --config FILE, a YAML file layered over the defaults.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	// Workspaces name IANA time zones; a host without zoneinfo still
	// knows them.
	_ "time/tzdata"

	"github.com/propman/propman/clients/web"
	"github.com/propman/propman/modules"
	"github.com/propman/propman/platform/boot"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/module"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	file, args, err := configFlag(args)
	if err != nil {
		fmt.Fprintln(stderr, "propman:", err)
		return 2
	}
	cmd := "serve"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	entries := modules.Catalog()
	if cmd == "version" {
		fmt.Fprintln(stdout, "propman", boot.Version)
		return 0
	}
	if cmd == "help" || cmd == "-h" || cmd == "--help" {
		usage(stdout, entries)
		return 0
	}
	cfg, err := config.Load(config.Options{File: file, Environ: config.Environ()})
	if err != nil {
		fmt.Fprintln(stderr, "propman:", err)
		return 1
	}
	switch cmd {
	case "serve":
		err = serve(cfg, entries, stderr)
	case "migrate":
		err = migrate(cfg, entries, args, stdout)
	case "openapi":
		err = printDocument(cfg, entries, stdout)
	default:
		c, ok := findCommand(entries, cmd)
		if !ok {
			fmt.Fprintf(stderr, "propman: unknown command %q\n\n", cmd)
			usage(stderr, entries)
			return 2
		}
		err = runCommand(cfg, entries, c, args, stdout)
	}
	if err != nil {
		// A module's bad setting surfaces from deep in fx's graph: name the
		// key and the rule, not the constructors it passed through.
		var bad *config.Error
		if errors.As(err, &bad) {
			err = bad
		}
		fmt.Fprintln(stderr, "propman:", err)
		return 1
	}
	return 0
}

func configFlag(args []string) (string, []string, error) {
	var file string
	rest := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--config" || a == "-config":
			if i+1 >= len(args) {
				return "", nil, errors.New("--config needs a file")
			}
			file = args[i+1]
			i++
		case strings.HasPrefix(a, "--config="):
			file = strings.TrimPrefix(a, "--config=")
		default:
			rest = append(rest, a)
		}
	}
	return file, rest, nil
}

func usage(w io.Writer, entries []module.Entry) {
	fmt.Fprintln(w, "usage: propman [--config FILE] <command>")
	fmt.Fprintln(w, "  serve                  serve the API (the default)")
	fmt.Fprintln(w, "  migrate up|down|status manage the database schema")
	fmt.Fprintln(w, "  openapi                print the doc.json this configuration serves")
	fmt.Fprintln(w, "  version                print the version")
	for _, e := range entries {
		for _, c := range e.Commands {
			fmt.Fprintf(w, "  %-22s %s\n", c.Name, c.Usage)
		}
	}
}

func findCommand(entries []module.Entry, name string) (module.Command, bool) {
	for _, e := range entries {
		for _, c := range e.Commands {
			if c.Name == name {
				return c, true
			}
		}
	}
	return module.Command{}, false
}

func serve(cfg *config.Config, entries []module.Entry, stderr io.Writer) error {
	log, logBuf := boot.BufferedLogger(cfg.Log, stderr)
	defer logBuf.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	app, err := boot.New(ctx, boot.Options{Config: cfg, Entries: entries, Logger: log, Listen: true, Web: web.Dist()})
	if err != nil {
		return err
	}
	if err := app.Start(ctx); err != nil {
		return err
	}
	sig := <-app.Wait()
	log.Info("stopping", "signal", sig.Signal)
	stopCtx, stop := context.WithTimeout(context.Background(), cfg.HTTP.ShutdownTimeout+5*time.Second)
	defer stop()
	if err := app.Stop(stopCtx); err != nil {
		return err
	}
	if sig.ExitCode != 0 {
		return fmt.Errorf("stopped with exit code %d", sig.ExitCode)
	}
	return nil
}

// printDocument writes the served doc.json (indented) without opening the
// database or listening: for linters and client generators.
func printDocument(cfg *config.Config, entries []module.Entry, out io.Writer) error {
	doc, err := boot.ServedDocument(context.Background(), cfg, entries)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, doc.JSON, "", "  "); err != nil {
		return err
	}
	buf.WriteByte('\n')
	_, err = out.Write(buf.Bytes())
	return err
}

func openMigrated(ctx context.Context, cfg *config.Config, entries []module.Entry) (*database.Migrator, func(), error) {
	db, err := database.Open(ctx, cfg.Database)
	if err != nil {
		return nil, nil, err
	}
	mg, err := database.NewMigrator(db, boot.MigrationSets(entries))
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return mg, func() { db.Close() }, nil
}

func migrate(cfg *config.Config, entries []module.Entry, args []string, out io.Writer) error {
	if len(args) != 1 {
		return errors.New("usage: propman migrate up|down|status")
	}
	ctx := context.Background()
	mg, closeDB, err := openMigrated(ctx, cfg, entries)
	if err != nil {
		return err
	}
	defer closeDB()
	switch args[0] {
	case "up":
		names, err := mg.Up(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "applied %d migrations\n", len(names))
		for _, n := range names {
			fmt.Fprintln(out, "  up  ", n)
		}
	case "down":
		names, err := mg.Down(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "rolled back %d migrations\n", len(names))
		for _, n := range names {
			fmt.Fprintln(out, "  down", n)
		}
	case "status":
		st, err := mg.Status(ctx)
		if err != nil {
			return err
		}
		for _, s := range st {
			state := "pending"
			if s.Applied {
				state = fmt.Sprintf("applied (group %d)", s.Group)
			}
			fmt.Fprintf(out, "%-60s %s\n", s.Name, state)
		}
	default:
		return fmt.Errorf("unknown migrate command %q: use up, down or status", args[0])
	}
	return nil
}

func runCommand(cfg *config.Config, entries []module.Entry, c module.Command, args []string, out io.Writer) error {
	ctx := context.Background()
	db, err := database.Open(ctx, cfg.Database)
	if err != nil {
		return err
	}
	defer db.Close()
	log := boot.Logger(cfg.Log, os.Stderr)
	if err := boot.Prepare(ctx, db, entries, log); err != nil {
		return err
	}
	return c.Run(ctx, module.CommandEnv{DB: db, Config: cfg, Out: out}, args)
}
