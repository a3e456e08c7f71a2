// Command ceiling is the reference server scripts/load measures propman
// against: bare Fiber with no middleware, answering
//
//	GET /static/<name>  the bytes of a file given with -static name=path
//	                    (the same body propman sends for that endpoint);
//	GET /me             the one-row lookup of /api/v1/auth/me (a user by id,
//	                    encoded as JSON) on PostgreSQL through a pgx pool,
//	                    or on SQLite through database/sql (modernc).
//
// What propman does beyond this (middleware, token check, its own queries)
// is the price the ratio in the load table shows.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5/pgxpool"
	_ "modernc.org/sqlite"
)

type statics map[string]string

func (s statics) String() string { return fmt.Sprint(map[string]string(s)) }
func (s statics) Set(v string) error {
	name, path, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("want name=path, got %q", v)
	}
	s[name] = path
	return nil
}

type user struct {
	ID          int64     `json:"id"`
	Name        string    `json:"name"`
	Email       string    `json:"email"`
	Phone       *string   `json:"phone"`
	Locale      string    `json:"locale"`
	CountryCode string    `json:"country_code"`
	Roles       string    `json:"roles"`
	IsActive    bool      `json:"is_active"`
	CreatedAt   time.Time `json:"created_at"`
}

const lookup = `SELECT id, name, email, phone, locale, country_code, roles, is_active, created_at FROM users WHERE id = `

func main() {
	addr := flag.String("addr", "127.0.0.1:18090", "listen address")
	dbURL := flag.String("db", "", "postgres://... or sqlite:PATH for GET /me (empty: no /me)")
	userID := flag.Int64("user", 1, "the user id GET /me looks up")
	files := statics{}
	flag.Var(files, "static", "name=path: serve the file's bytes at /static/name (repeatable)")
	flag.Parse()

	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	for name, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			log.Fatalf("ceiling: %v", err)
		}
		app.Get("/static/"+name, func(c *fiber.Ctx) error {
			c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
			return c.Send(b)
		})
	}
	ctx := context.Background()
	switch {
	case strings.HasPrefix(*dbURL, "postgres"):
		cfg, err := pgxpool.ParseConfig(*dbURL)
		if err != nil {
			log.Fatalf("ceiling: -db: %v", err)
		}
		// The same pool size as propman's default (4 x GOMAXPROCS).
		cfg.MaxConns = int32(4 * runtime.GOMAXPROCS(0))
		pool, err := pgxpool.NewWithConfig(ctx, cfg)
		if err != nil {
			log.Fatalf("ceiling: %v", err)
		}
		defer pool.Close()
		app.Get("/me", func(c *fiber.Ctx) error {
			var u user
			err := pool.QueryRow(c.Context(), lookup+"$1", *userID).Scan(&u.ID, &u.Name, &u.Email, &u.Phone,
				&u.Locale, &u.CountryCode, &u.Roles, &u.IsActive, &u.CreatedAt)
			if err != nil {
				return err
			}
			return c.JSON(u)
		})
	case strings.HasPrefix(*dbURL, "sqlite:"):
		db, err := sql.Open("sqlite", "file:"+strings.TrimPrefix(*dbURL, "sqlite:")+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
		if err != nil {
			log.Fatalf("ceiling: %v", err)
		}
		db.SetMaxOpenConns(4 * runtime.GOMAXPROCS(0))
		db.SetMaxIdleConns(4 * runtime.GOMAXPROCS(0))
		defer db.Close()
		app.Get("/me", func(c *fiber.Ctx) error {
			var u user
			var created any
			err := db.QueryRowContext(c.Context(), lookup+"?", *userID).Scan(&u.ID, &u.Name, &u.Email, &u.Phone,
				&u.Locale, &u.CountryCode, &u.Roles, &u.IsActive, &created)
			if err != nil {
				return err
			}
			if t, ok := created.(time.Time); ok {
				u.CreatedAt = t
			}
			return c.JSON(u)
		})
	}
	go func() {
		stop := make(chan os.Signal, 1)
		signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
		<-stop
		_ = app.ShutdownWithTimeout(5 * time.Second)
	}()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("ceiling: %v", err)
	}
	// The script reads the bound port from this line (-addr may end in :0).
	fmt.Println("listening", ln.Addr().String())
	if err := app.Listener(ln); err != nil {
		log.Fatalf("ceiling: %v", err)
	}
}
