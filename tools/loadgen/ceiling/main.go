// Command ceiling is the reference server scripts/load measures propman
// against: bare Fiber with no middleware, answering
//
//	GET /static/<name>  the bytes of a file given with -static name=path
//	                    (the same body propman sends for that endpoint), with
//	                    the headers of -headers name=path (what propman sent
//	                    besides its body: request id, ETag, Cache-Control,
//	                    nosniff), so the answer is byte for byte propman's
//	                    but for the Date and the request id's value;
//	GET <target>        the same answer at the path and query propman serves
//	                    it at (-at name=target), so the request is the same
//	                    bytes too: fasthttp and Fiber read, unescape and
//	                    lower-case a path byte by byte, and a long one costs
//	                    more than /static/<name>;
//	GET /me             the one-row lookup of /api/v1/auth/me (a user by id,
//	                    encoded as JSON) on PostgreSQL through a pgx pool,
//	                    or on SQLite through database/sql (modernc).
//	ANY /authed/<name>  the bytes of -static name (and its -headers) after
//	                    checking the bearer token (HS256 with -secret, issuer,
//	                    expiry): what an authenticated read of fixed bytes
//	                    costs at least.
//	GET /properties     the list query of GET /api/v1/properties (one page of
//	                    50 of -user's properties and their count), rows
//	                    encoded as JSON objects.
//	GET /charges        the same for GET /api/v1/properties/{-property}/charges.
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
	"github.com/golang-jwt/jwt/v5"
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

// membership is the role lookup every request that acts in a workspace
// needs (the workspaces module's, without X-Workspace-ID): the least work
// an endpoint that checks who may read the list can do.
const membership = `SELECT m.workspace_id, m.role FROM workspace_members AS m JOIN workspaces AS w ON w.id = m.workspace_id WHERE m.user_id = `
const membershipOrder = ` ORDER BY m.is_default DESC, m.workspace_id LIMIT 1`

// The list queries of the properties and expenses modules (page 1 of 50),
// each with its total in the same statement as propman's listing reads them.
func listQuery(table, filter, placeholder, order string) string {
	where := " FROM " + table + " WHERE " + filter + " = " + placeholder
	return "SELECT (SELECT count(*)" + where + ") AS _total, *" + where + " ORDER BY " + order + " LIMIT 50"
}

// total takes the list's total out of its rows (0 when there are none).
func total(items []map[string]any) int {
	n := 0
	for _, row := range items {
		if v, ok := row["_total"].(int64); ok {
			n = int(v)
		}
		delete(row, "_total")
	}
	return n
}

// jsonRows reads every row into a column-name -> value map.
func jsonRows(names []string, next func() bool, scan func([]any) error, rowsErr func() error) ([]map[string]any, error) {
	cols := names
	var out []map[string]any
	for next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := scan(ptrs); err != nil {
			return nil, err
		}
		row := make(map[string]any, len(cols))
		for i, n := range names {
			row[n] = vals[i]
		}
		out = append(out, row)
	}
	return out, rowsErr()
}

// header is one response header the ceiling repeats.
type header struct{ key, value string }

// readHeaders reads the headers of an HTTP answer as curl -D writes them,
// leaving out the status line and those Fiber sets itself (Date, Server,
// Content-Length, Content-Type, Connection, Transfer-Encoding).
func readHeaders(path string) ([]header, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var hs []header
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(strings.TrimRight(line, "\r"), ":")
		if !ok || strings.HasPrefix(k, "HTTP/") {
			continue
		}
		switch strings.ToLower(k) {
		case "date", "server", "content-length", "content-type", "connection", "transfer-encoding":
			continue
		}
		hs = append(hs, header{k, strings.TrimSpace(v)})
	}
	return hs, nil
}

func main() {
	addr := flag.String("addr", "127.0.0.1:18090", "listen address")
	dbURL := flag.String("db", "", "postgres://... or sqlite:PATH for GET /me (empty: no /me)")
	userID := flag.Int64("user", 1, "the user id GET /me looks up")
	secret := flag.String("secret", "", "HS256 key of the tokens /authed/ checks (empty: no /authed/)")
	issuer := flag.String("issuer", "propman", "iss of the tokens /authed/ checks")
	property := flag.String("property", "", "property id whose charges GET /charges lists")
	files := statics{}
	flag.Var(files, "static", "name=path: serve the file's bytes at /static/name (repeatable)")
	headerFiles := statics{}
	flag.Var(headerFiles, "headers", "name=path: headers (curl -D) to send with /static/name (repeatable)")
	targets := statics{}
	flag.Var(targets, "at", "name=path?query: also answer /static/name at this request target, propman's (repeatable)")
	flag.Parse()

	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	// Answers at propman's targets, by path, then query (two reads share
	// /api/v1/agreement-blocks): a map look-up, as propman's handlers do.
	byQuery := map[string]map[string]fiber.Handler{}
	for name, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			log.Fatalf("ceiling: %v", err)
		}
		var hs []header
		if hp, ok := headerFiles[name]; ok {
			if hs, err = readHeaders(hp); err != nil {
				log.Fatalf("ceiling: %v", err)
			}
		}
		send := func(c *fiber.Ctx) error {
			for _, h := range hs {
				c.Set(h.key, h.value)
			}
			c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
			return c.Send(b)
		}
		app.Get("/static/"+name, send)
		if target, ok := targets[name]; ok {
			path, query, _ := strings.Cut(target, "?")
			if byQuery[path] == nil {
				byQuery[path] = map[string]fiber.Handler{}
			}
			byQuery[path][query] = send
		}
		if *secret != "" {
			parser := jwt.NewParser(jwt.WithValidMethods([]string{"HS256"}), jwt.WithIssuer(*issuer), jwt.WithExpirationRequired())
			key := []byte(*secret)
			app.All("/authed/"+name, func(c *fiber.Ctx) error {
				raw, ok := strings.CutPrefix(c.Get(fiber.HeaderAuthorization), "Bearer ")
				if !ok {
					return fiber.ErrUnauthorized
				}
				if _, err := parser.Parse(raw, func(*jwt.Token) (any, error) { return key, nil }); err != nil {
					return fiber.ErrUnauthorized
				}
				for _, h := range hs {
					c.Set(h.key, h.value)
				}
				c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
				return c.Send(b)
			})
		}
	}
	for path, answers := range byQuery {
		app.Get(path, func(c *fiber.Ctx) error {
			if send, ok := answers[string(c.Request().URI().QueryString())]; ok {
				return send(c)
			}
			return fiber.ErrNotFound
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
		list := func(c *fiber.Ctx, query string, arg any) error {
			rows, err := pool.Query(c.Context(), query, arg)
			if err != nil {
				return err
			}
			var names []string
			for _, f := range rows.FieldDescriptions() {
				names = append(names, f.Name)
			}
			items, err := jsonRows(names, rows.Next, func(dst []any) error { return rows.Scan(dst...) }, rows.Err)
			rows.Close()
			if err != nil {
				return err
			}
			return c.JSON(fiber.Map{"items": items, "total": total(items), "page": 1, "per_page": 50})
		}
		member := func(c *fiber.Ctx) (int64, error) {
			var ws int64
			var role string
			err := pool.QueryRow(c.Context(), membership+"$1"+membershipOrder, *userID).Scan(&ws, &role)
			return ws, err
		}
		app.Get("/properties", func(c *fiber.Ctx) error {
			ws, err := member(c)
			if err != nil {
				return err
			}
			return list(c, listQuery("properties", "workspace_id", "$1", "id"), ws)
		})
		app.Get("/charges", func(c *fiber.Ctx) error {
			if _, err := member(c); err != nil {
				return err
			}
			return list(c, listQuery("charges", "property_id", "$1", "due_date, id"), *property)
		})
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
		list := func(c *fiber.Ctx, query string, arg any) error {
			rows, err := db.QueryContext(c.Context(), query, arg)
			if err != nil {
				return err
			}
			cols, err := rows.Columns()
			if err != nil {
				rows.Close()
				return err
			}
			items, err := jsonRows(cols, rows.Next, func(dst []any) error { return rows.Scan(dst...) }, rows.Err)
			rows.Close()
			if err != nil {
				return err
			}
			return c.JSON(fiber.Map{"items": items, "total": total(items), "page": 1, "per_page": 50})
		}
		member := func(c *fiber.Ctx) (int64, error) {
			var ws int64
			var role string
			err := db.QueryRowContext(c.Context(), membership+"?"+membershipOrder, *userID).Scan(&ws, &role)
			return ws, err
		}
		app.Get("/properties", func(c *fiber.Ctx) error {
			ws, err := member(c)
			if err != nil {
				return err
			}
			return list(c, listQuery("properties", "workspace_id", "?1", "id"), ws)
		})
		app.Get("/charges", func(c *fiber.Ctx) error {
			if _, err := member(c); err != nil {
				return err
			}
			return list(c, listQuery("charges", "property_id", "?1", "due_date, id"), *property)
		})
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
