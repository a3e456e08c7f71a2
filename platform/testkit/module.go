package testkit

import (
	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/module"
)

// Module is a ready test module: its OpenAPI fragment and the routes that
// register registers under /api/v1. Platform tests add it to the catalogue
// (WithEntries(append(modules.Catalog(), testkit.Module(...)))) to exercise
// the server with a route of their own.
func Module(name, openapiYAML string, register func(api fiber.Router)) module.Entry {
	return module.Entry{
		Name: name, Summary: "test module", Status: module.Ready,
		OpenAPI: []byte(openapiYAML),
		Options: module.ProvideRoutes(func() module.Routes {
			return module.Routes{Module: name, Register: register}
		}),
	}
}
