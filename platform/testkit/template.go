package testkit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/platform/boot"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/module"
	"github.com/uptrace/bun"
)

// Migrating a fresh database to the whole schema is a fifth of what a
// test costs. Each test process migrates a template once per set of
// modules and gives every test a copy: a file copy on SQLite, CREATE
// DATABASE ... TEMPLATE on PostgreSQL. boot then finds every migration
// applied and only seeds, as it does on any start.

// templates are this process's migrated templates, by the set of modules.
var templates struct {
	sync.Mutex
	made map[string]*template
}

type template struct {
	once sync.Once
	// path of the SQLite file, or name of the PostgreSQL database.
	where string
	err   error
}

// templateKey names a set of modules: the same binary migrates the same
// set the same way.
func templateKey(entries []module.Entry) string {
	h := sha256.New()
	for _, s := range boot.MigrationSets(entries) {
		fmt.Fprintf(h, "%s\x00", s.Owner)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// templateFor returns the migrated template of entries on the test
// engine, making it on first use.
func templateFor(entries []module.Entry) (string, error) {
	key := templateKey(entries)
	templates.Lock()
	if templates.made == nil {
		templates.made = map[string]*template{}
	}
	tp, ok := templates.made[key]
	if !ok {
		tp = &template{}
		templates.made[key] = tp
	}
	templates.Unlock()
	tp.once.Do(func() { tp.where, tp.err = makeTemplate(key, entries) })
	return tp.where, tp.err
}

func makeTemplate(key string, entries []module.Entry) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base := config.TestDatabaseURL()
	// The migrator holds its lock on one connection and migrates on another.
	cfg := config.Database{MaxOpen: 4, MaxIdle: 2, Lifetime: time.Minute, Timeout: 30 * time.Second}
	var where string
	if base == "" {
		dropStaleFolders()
		dir := filepath.Join(os.TempDir(), "propman-testkit-"+strconv.Itoa(os.Getpid()))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", err
		}
		where = filepath.Join(dir, key+".db")
		cfg.URL = "sqlite:" + where
	} else {
		admin, err := pgAdminDB()
		if err != nil {
			return "", err
		}
		dropStaleTemplates(admin)
		where = fmt.Sprintf("propman_tmpl_%d_%s", os.Getpid(), key)
		if _, err := admin.Exec("CREATE DATABASE " + where); err != nil {
			return "", fmt.Errorf("testkit: template: %w", err)
		}
		u, err := url.Parse(base)
		if err != nil {
			return "", err
		}
		u.Path = "/" + where
		cfg.URL = u.String()
	}
	db, err := database.Open(ctx, cfg)
	if err != nil {
		return "", err
	}
	err = boot.Prepare(ctx, db, entries, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("testkit: template: %w", err)
	}
	return where, nil
}

// A process cannot remove its templates when it ends (a test binary has
// no hook for that), so the first template a process makes removes those
// of processes that are gone: the SQLite folders and PostgreSQL databases
// named after a pid that no longer runs.
func gone(pid string) bool {
	_, err := os.Stat(filepath.Join("/proc", pid))
	return os.IsNotExist(err)
}

func dropStaleFolders() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "propman-testkit-*"))
	for _, d := range dirs {
		if gone(strings.TrimPrefix(filepath.Base(d), "propman-testkit-")) {
			_ = os.RemoveAll(d)
		}
	}
}

func dropStaleTemplates(admin *bun.DB) {
	var names []string
	if err := admin.NewRaw("SELECT datname FROM pg_database WHERE datname LIKE 'propman_tmpl_%'").Scan(context.Background(), &names); err != nil {
		return
	}
	for _, n := range names {
		pid, _, _ := strings.Cut(strings.TrimPrefix(n, "propman_tmpl_"), "_")
		if gone(pid) {
			_, _ = admin.Exec("DROP DATABASE IF EXISTS " + n + " WITH (FORCE)")
		}
	}
}

// fromTemplate fills the fresh database at rawURL (made by FreshDatabase)
// with a copy of the migrated template of entries.
func fromTemplate(t testing.TB, rawURL string, entries []module.Entry) {
	t.Helper()
	where, err := templateFor(entries)
	if err != nil {
		t.Fatalf("%v", err)
	}
	if path, ok := strings.CutPrefix(rawURL, "sqlite:"); ok {
		if err := copyFile(where, path); err != nil {
			t.Fatalf("testkit: copy the template: %v", err)
		}
		return
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatalf("testkit: %v", err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	admin, err := pgAdminDB()
	if err != nil {
		t.Fatalf("%v", err)
	}
	if _, err := admin.Exec("DROP DATABASE " + name); err != nil {
		t.Fatalf("testkit: %v", err)
	}
	if _, err := admin.Exec("CREATE DATABASE " + name + " TEMPLATE " + where); err != nil {
		t.Fatalf("testkit: create database from the template: %v", err)
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
