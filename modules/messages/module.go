// Package messages is the conversation with tenants and other contragents:
// a thread per contract (or per property and contragent) holding messages
// sent by email (through a River job, with retries), by post (with a
// tracking number), in the tenant portal, replies received by email
// (POST /messages/inbound, filed by the thread's reply address) and the
// landlord's own notes. Attachments are documents of the property
// (documents.Files). The tenant reads their contract's thread through the
// portal (contracts.Tenancies, which the tenancy module answers).
package messages

import (
	_ "embed"
	"strings"
	"time"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/messages/migrations"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "messages"

//go:embed openapi.yaml
var openapiYAML []byte

// Entry describes the module for the catalogue.
func Entry() module.Entry {
	return module.Entry{
		Name: Name, Summary: "Messages and notices: threads per contract, email out and in, post, portal, notes", Status: module.Ready,
		Depends:    []string{"properties", "contragents", "contracts", "documents"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Options: fx.Module(Name,
			fx.Provide(NewService),
			fx.Provide(fx.Private, NewConfig, NewHandler, newSender),
			properties.ProvideDependent(newPropertyCleanup),
			module.ProvideRoutes(NewRoutes),
			fx.Invoke(registerWorker),
		),
	}
}

// Config is the section modules.messages.
type Config struct {
	// InboundSecret authenticates POST /messages/inbound (header
	// X-Inbound-Secret). Empty: the endpoint answers 404.
	InboundSecret string `koanf:"inboundsecret"`
	// InboundDomain is the domain of the reply addresses
	// (reply+<thread token>@domain); empty: the domain of mail.from.
	InboundDomain string `koanf:"inbounddomain"`
	// InboundMaxSize is the largest raw mail POST /messages/inbound takes.
	InboundMaxSize int64 `koanf:"inboundmaxsize"`
	// Attempts is how often an email is tried before it is failed.
	Attempts int `koanf:"attempts"`
	// Retry is the pause after the first failed attempt; each next pause
	// doubles, up to 6 hours.
	Retry time.Duration `koanf:"retry"`
	// MaxAttachmentsSize bounds the sum of an email's attachments.
	MaxAttachmentsSize int64 `koanf:"maxattachmentssize"`
}

// NewConfig reads modules.messages with its defaults.
func NewConfig(cfg *config.Config) (Config, error) {
	c := Config{InboundMaxSize: 30 << 20, Attempts: 8, Retry: time.Minute, MaxAttachmentsSize: 20 << 20}
	if err := cfg.Module(Name, &c); err != nil {
		return Config{}, err
	}
	if c.InboundDomain == "" {
		from := cfg.Mail.From
		if i := strings.LastIndex(from, "@"); i >= 0 {
			c.InboundDomain = strings.TrimRight(from[i+1:], "> ")
		}
	}
	c.InboundDomain = strings.ToLower(c.InboundDomain)
	switch {
	case c.InboundSecret != "" && len(c.InboundSecret) < 16:
		return Config{}, &config.Error{Key: "modules.messages.inboundsecret", Reason: "must be at least 16 characters (or empty: no inbound endpoint)"}
	case c.InboundDomain == "" || strings.ContainsAny(c.InboundDomain, "@ <>\"+"):
		return Config{}, &config.Error{Key: "modules.messages.inbounddomain", Reason: "must be a mail domain such as replies.example.com"}
	case c.InboundMaxSize < 1024 || c.InboundMaxSize > 200<<20:
		return Config{}, &config.Error{Key: "modules.messages.inboundmaxsize", Reason: "must be from 1024 bytes to 200 MiB"}
	case c.Attempts < 1 || c.Attempts > 50:
		return Config{}, &config.Error{Key: "modules.messages.attempts", Reason: "must be from 1 to 50"}
	case c.Retry <= 0:
		return Config{}, &config.Error{Key: "modules.messages.retry", Reason: "must be positive"}
	case c.MaxAttachmentsSize < 1024:
		return Config{}, &config.Error{Key: "modules.messages.maxattachmentssize", Reason: "must be at least 1024 bytes"}
	}
	return c, nil
}
