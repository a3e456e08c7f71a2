package boot

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/swaggest/swgui/v5emb"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/openapi"
)

type moduleInfo struct {
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
	Status  string `json:"status"`
}

type serviceInfo struct {
	Name          string       `json:"name"`
	Version       string       `json:"version"`
	Documentation string       `json:"documentation"`
	Modules       []moduleInfo `json:"modules"`
}

type health struct {
	Status string            `json:"status"`
	Checks map[string]string `json:"checks"`
}

func mountService(api fiber.Router, states []ModuleState, checks []module.HealthCheck, db *bun.DB, doc *openapi.Document) {
	info := serviceInfo{Name: "propman", Version: Version, Documentation: httpserver.APIPrefix + "/doc.json"}
	for _, s := range states {
		info.Modules = append(info.Modules, moduleInfo{Name: s.Name, Enabled: s.Enabled, Status: string(s.Status)})
	}
	// The answer never changes while the process runs: encode it once.
	infoJSON, err := json.Marshal(info)
	if err != nil {
		panic(fmt.Sprintf("boot: service info: %v", err)) // plain strings and booleans always encode
	}
	api.Get("/", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		c.Response().SetBodyRaw(infoJSON)
		return nil
	})

	all := append([]module.HealthCheck{{Name: "database", Check: db.PingContext}}, checks...)
	api.Get("/health", func(c *fiber.Ctx) error {
		ctx, cancel := context.WithTimeout(httpserver.Context(c), 3*time.Second)
		defer cancel()
		h := health{Status: "ok", Checks: map[string]string{}}
		for _, chk := range all {
			if err := chk.Check(ctx); err != nil {
				h.Status = "failing"
				h.Checks[chk.Name] = "unavailable"
				continue
			}
			h.Checks[chk.Name] = "ok"
		}
		if h.Status != "ok" {
			c.Status(fiber.StatusServiceUnavailable)
		}
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.JSON(h)
	})

	api.Get("/doc.json", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderETag, doc.ETag)
		if inm := c.Get(fiber.HeaderIfNoneMatch); inm != "" && httpserver.ETagMatches(inm, doc.ETag) {
			return c.SendStatus(fiber.StatusNotModified)
		}
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(doc.JSON)
	})
}

// mountDocPage serves the reference page. It is mounted after the
// modules: Fiber tries a request's routes in the order they were added,
// and its wildcard route cost every module's request a parameter match.
func mountDocPage(api fiber.Router) {
	page := adaptor.HTTPHandler(v5emb.New("propman API", httpserver.APIPrefix+"/doc.json", httpserver.APIPrefix+"/doc"))
	api.Get("/doc", page)
	api.Get("/doc/*", page)
}

func notImplemented(name string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		return apierror.New(fiber.StatusNotImplemented, "not_implemented", "The "+name+" area is not built yet.")
	}
}
