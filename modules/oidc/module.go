// Package oidc is sign-in through external identity providers (OpenID
// Connect, authorization code flow with PKCE): the browser goes to the
// provider and back, the account is found by the verified email or
// created, and the web client trades a one-time code for the usual token.
package oidc

import (
	_ "embed"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/oidc/migrations"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "oidc"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Sign-in through OpenID Connect identity providers", Status: module.Ready,
		Depends:    []string{"reference", "accounts"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewStore, NewService),
			fx.Provide(fx.Private, NewConfig, NewHandler),
			module.ProvideRoutes(NewRoutes),
		),
	}
}
