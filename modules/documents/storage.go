package documents

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"time"
)

// Storage keeps the documents' bytes (blobs) under keys; the database keeps
// everything else. A blob appears whole under its key or not at all.
type Storage interface {
	// Put stores everything r gives under key. When r fails, nothing is
	// left under key.
	Put(ctx context.Context, key string, r io.Reader, contentType string) error
	// Get returns length bytes of the blob from offset; length -1 reads to
	// the end. ErrBlobNotFound when there is no such blob.
	Get(ctx context.Context, key string, offset, length int64) (io.ReadCloser, error)
	// Delete removes the blob; a missing blob is not an error.
	Delete(ctx context.Context, key string) error
	// Walk calls fn with every key in the storage.
	Walk(ctx context.Context, fn func(key string) error) error
	// Abandon removes what uploads that never finished left before before:
	// temporary files, incomplete multipart uploads.
	Abandon(ctx context.Context, before time.Time) (int, error)
	// String names the storage for the log, without credentials.
	String() string
}

// ErrBlobNotFound means the storage has no blob under the key.
var ErrBlobNotFound = errors.New("documents: no such blob")

// OpenStorage opens the storage modules.documents.storage names:
// file:PATH (a folder, relative to the working directory unless absolute)
// or s3://bucket[/prefix]?endpoint=host:port&region=...&secure=false.
func OpenStorage(ctx context.Context, cfg Config) (Storage, error) {
	raw := cfg.Storage
	switch {
	case strings.HasPrefix(raw, "file:"):
		dir := strings.TrimPrefix(raw, "file:")
		if dir == "" {
			return nil, storageError("file: needs a folder, e.g. file:data/documents")
		}
		return NewFileStorage(filepath.Clean(dir))
	case strings.HasPrefix(raw, "s3://"):
		u, err := url.Parse(raw)
		if err != nil {
			return nil, storageError(err.Error())
		}
		return NewS3Storage(ctx, S3Options{
			Bucket:    u.Host,
			Prefix:    strings.Trim(u.Path, "/"),
			Endpoint:  u.Query().Get("endpoint"),
			Region:    u.Query().Get("region"),
			Secure:    u.Query().Get("secure") != "false",
			AccessKey: cfg.AccessKey,
			SecretKey: cfg.SecretKey,
		})
	}
	return nil, storageError(fmt.Sprintf("%q: use file:PATH or s3://bucket?endpoint=host:port", raw))
}

func storageError(reason string) error {
	return fmt.Errorf("config: modules.documents.storage: %s", reason)
}
