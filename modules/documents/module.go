// Package documents is the documents module: files a landlord keeps with a
// property (contracts, invoices, receipts, photos, certificates). The bytes
// live in a Storage (a local folder or an S3 bucket), the rest in the
// documents table. It reaches properties only through properties.Service
// and contributes a properties.Dependent so a property is deleted with its
// documents.
package documents

import (
	"context"
	_ "embed"
	"log/slog"
	"time"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/documents/migrations"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/module"
)

// Name is the module's configuration key.
const Name = "documents"

//go:embed openapi.yaml
var openapiYAML []byte

// Config is modules.documents.
type Config struct {
	// Storage is file:PATH or s3://bucket[/prefix]?endpoint=host:port&region=..&secure=false.
	Storage string `koanf:"storage"`
	// MaxSize is the largest file in bytes.
	MaxSize int64 `koanf:"maxsize"`
	// AccessKey and SecretKey are the S3 credentials; set them in the
	// environment (PROPMAN_MODULES_DOCUMENTS_ACCESSKEY / _SECRETKEY).
	AccessKey string `koanf:"accesskey"`
	SecretKey string `koanf:"secretkey"`
	// Timeout is how long an upload may take to arrive (replaces
	// http.readtimeout on the upload route).
	Timeout time.Duration `koanf:"timeout"`
	// SweepAge: the sweep removes blobs without a row only when they are
	// older than this, so it never races an upload in progress.
	SweepAge time.Duration `koanf:"sweepage"`
}

// DefaultMaxSize is modules.documents.maxsize unless configured: 20 MiB.
const DefaultMaxSize = 20 << 20

// NewConfig reads modules.documents with its defaults.
func NewConfig(cfg *config.Config) (Config, error) {
	c := Config{Storage: "file:data/documents", MaxSize: DefaultMaxSize, Timeout: 10 * time.Minute, SweepAge: time.Hour}
	if err := cfg.Module(Name, &c); err != nil {
		return Config{}, err
	}
	switch {
	case c.MaxSize < 1024:
		return Config{}, &config.Error{Key: "modules.documents.maxsize", Reason: "must be at least 1024 bytes"}
	case c.Timeout <= 0:
		return Config{}, &config.Error{Key: "modules.documents.timeout", Reason: "must be positive"}
	case c.SweepAge < c.Timeout:
		return Config{}, &config.Error{Key: "modules.documents.sweepage", Reason: "must be at least modules.documents.timeout, or the sweep could remove an upload in progress"}
	}
	return c, nil
}

// Entry describes the module for the catalogue.
func Entry() module.Entry { return EntryWithStorage(nil) }

// EntryWithStorage is Entry with the configured storage passed through
// wrap (when not nil); tests use it to make the storage fail.
func EntryWithStorage(wrap func(Storage) Storage) module.Entry {
	provide := func(cfg Config) (Storage, error) {
		s, err := provideStorage(cfg)
		if err != nil || wrap == nil {
			return s, err
		}
		return wrap(s), nil
	}
	return module.Entry{
		Name: Name, Summary: "Property documents", Status: module.Ready,
		Depends:    []string{"accounts", "properties"},
		Uses:       []string{"contracts"},
		Migrations: migrations.FS,
		OpenAPI:    openapiYAML,
		Commands:   []module.Command{sweepCommand()},
		Options: fx.Module(Name,
			fx.Provide(fx.Private, NewConfig, NewStore, NewService, NewHandler, provide),
			// What other modules use of documents (messages' attachments).
			fx.Provide(newFiles),
			properties.ProvideDependent(newPropertyCleanup),
			module.ProvideRoutes(NewRoutes),
			fx.Invoke(sweepAtStart),
		),
	}
}

// provideStorage opens the configured storage.
func provideStorage(cfg Config) (Storage, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	return OpenStorage(ctx, cfg)
}

// startSweepTimeout bounds the sweep at start, which runs beside the
// server and never delays it.
const startSweepTimeout = 5 * time.Minute

// sweepAtStart removes, in the background, what failed uploads and deletes
// left in the storage, and stops the service's background work at stop.
func sweepAtStart(lc fx.Lifecycle, svc *Service, cfg Config, log *slog.Logger) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			go func() {
				defer close(done)
				ctx, cancel := context.WithTimeout(ctx, startSweepTimeout)
				defer cancel()
				res, err := svc.Sweep(ctx, time.Now().Add(-cfg.SweepAge))
				if err != nil && ctx.Err() == nil {
					log.Warn("documents: sweep at start failed", "error", err)
					return
				}
				if res.Removed > 0 || res.Abandoned > 0 {
					log.Info("documents: sweep at start", "blobs", res.Blobs, "removed", res.Removed, "abandoned", res.Abandoned)
				}
			}()
			return nil
		},
		OnStop: func(stopCtx context.Context) error {
			cancel()
			svc.stop()
			select {
			case <-done:
			case <-stopCtx.Done():
			}
			return nil
		},
	})
}
