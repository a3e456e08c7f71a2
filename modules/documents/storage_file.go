package documents

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// FileStorage keeps blobs as files of one folder. A blob is written to a
// temporary file in the folder's .tmp and renamed into place once complete,
// so a key holds a whole blob or nothing.
type FileStorage struct {
	dir string
}

const tmpDir = ".tmp"

// NewFileStorage opens the folder dir, which is made with the first upload.
func NewFileStorage(dir string) (*FileStorage, error) {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, storageError(dir + " is not a folder")
	}
	return &FileStorage{dir: dir}, nil
}

func (s *FileStorage) String() string { return "file:" + s.dir }

func (s *FileStorage) path(key string) (string, error) {
	if key == "" || strings.ContainsAny(key, `/\`) || strings.HasPrefix(key, ".") {
		return "", fmt.Errorf("documents storage: bad key %q", key)
	}
	return filepath.Join(s.dir, key), nil
}

// Put writes r to a temporary file, syncs it and renames it to key.
func (s *FileStorage) Put(ctx context.Context, key string, r io.Reader, _ string) error {
	dst, err := s.path(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(s.dir, tmpDir), 0o750); err != nil {
		return fmt.Errorf("documents storage: %w", err)
	}
	f, err := os.CreateTemp(filepath.Join(s.dir, tmpDir), key+"-*")
	if err != nil {
		return fmt.Errorf("documents storage: %w", err)
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := io.Copy(f, ctxReader{ctx, r}); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("documents storage: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("documents storage: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return fmt.Errorf("documents storage: %w", err)
	}
	ok = true
	return nil
}

// ctxReader stops a copy once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// Get opens the file and positions it at offset.
func (s *FileStorage) Get(_ context.Context, key string, offset, length int64) (io.ReadCloser, error) {
	p, err := s.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrBlobNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("documents storage: %w", err)
	}
	if offset > 0 {
		if _, err := f.Seek(offset, io.SeekStart); err != nil {
			f.Close()
			return nil, fmt.Errorf("documents storage: %w", err)
		}
	}
	if length < 0 {
		return f, nil
	}
	return limitedFile{Reader: io.LimitReader(f, length), Closer: f}, nil
}

type limitedFile struct {
	io.Reader
	io.Closer
}

// Delete removes the file.
func (s *FileStorage) Delete(_ context.Context, key string) error {
	p, err := s.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("documents storage: %w", err)
	}
	return nil
}

// Walk lists the folder (not .tmp).
func (s *FileStorage) Walk(ctx context.Context, fn func(key string) error) error {
	d, err := os.Open(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("documents storage: %w", err)
	}
	defer d.Close()
	for {
		names, err := d.Readdirnames(256)
		for _, n := range names {
			if strings.HasPrefix(n, ".") {
				continue
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fn(n); err != nil {
				return err
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("documents storage: %w", err)
		}
	}
}

// Abandon removes temporary files older than before (an upload that was
// cut by a crash).
func (s *FileStorage) Abandon(_ context.Context, before time.Time) (int, error) {
	entries, err := os.ReadDir(filepath.Join(s.dir, tmpDir))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("documents storage: %w", err)
	}
	n := 0
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !info.ModTime().Before(before) {
			continue
		}
		if os.Remove(filepath.Join(s.dir, tmpDir, e.Name())) == nil {
			n++
		}
	}
	return n, nil
}
