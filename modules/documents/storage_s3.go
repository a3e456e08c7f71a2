package documents

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3Options say where an S3Storage keeps its blobs.
type S3Options struct {
	Bucket    string
	Prefix    string // optional folder inside the bucket
	Endpoint  string // host:port
	Region    string
	Secure    bool // https
	AccessKey string
	SecretKey string
}

// S3Storage keeps blobs as objects of an S3-compatible bucket (AWS S3,
// MinIO, versitygw...), so several instances share them.
type S3Storage struct {
	client *minio.Client
	opts   S3Options
}

// s3PartSize is the part of a multipart upload: the size of a file is not
// known while it streams in, so the client sends it in parts and holds one
// part in memory. 5 MiB is the smallest part S3 accepts.
const s3PartSize = 5 << 20

// NewS3Storage connects to the bucket and checks that it exists.
func NewS3Storage(ctx context.Context, o S3Options) (*S3Storage, error) {
	if o.Bucket == "" {
		return nil, storageError("s3:// needs a bucket: s3://bucket?endpoint=host:port")
	}
	if o.Endpoint == "" {
		return nil, storageError("s3:// needs ?endpoint=host:port")
	}
	client, err := minio.New(o.Endpoint, &minio.Options{
		Creds:  credentials.NewStaticV4(o.AccessKey, o.SecretKey, ""),
		Secure: o.Secure,
		Region: o.Region,
	})
	if err != nil {
		return nil, storageError(err.Error())
	}
	s := &S3Storage{client: client, opts: o}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ok, err := client.BucketExists(ctx, o.Bucket)
	if err != nil {
		return nil, fmt.Errorf("documents storage %s: %w", s, err)
	}
	if !ok {
		return nil, fmt.Errorf("documents storage %s: bucket %q does not exist", s, o.Bucket)
	}
	return s, nil
}

func (s *S3Storage) String() string {
	scheme := "https"
	if !s.opts.Secure {
		scheme = "http"
	}
	return "s3://" + s.opts.Bucket + "/" + s.opts.Prefix + " at " + scheme + "://" + s.opts.Endpoint
}

func (s *S3Storage) object(key string) string {
	if s.opts.Prefix == "" {
		return key
	}
	return s.opts.Prefix + "/" + key
}

// Put streams r as a multipart upload (one part in memory at a time); the
// object appears only when the upload completes, and a failed one is
// aborted.
func (s *S3Storage) Put(ctx context.Context, key string, r io.Reader, contentType string) error {
	_, err := s.client.PutObject(ctx, s.opts.Bucket, s.object(key), r, -1, minio.PutObjectOptions{
		ContentType: contentType,
		PartSize:    s3PartSize,
	})
	if err != nil {
		return fmt.Errorf("documents storage: put %s: %w", key, err)
	}
	return nil
}

// Get reads the object, or the range of it.
func (s *S3Storage) Get(ctx context.Context, key string, offset, length int64) (io.ReadCloser, error) {
	opts := minio.GetObjectOptions{}
	if offset > 0 || length >= 0 {
		end := int64(0)
		if length >= 0 {
			end = offset + length - 1
		}
		if length == 0 {
			return io.NopCloser(strings.NewReader("")), nil
		}
		if err := opts.SetRange(offset, end); err != nil {
			return nil, err
		}
	}
	obj, err := s.client.GetObject(ctx, s.opts.Bucket, s.object(key), opts)
	if err != nil {
		return nil, s.mapErr(err)
	}
	// GetObject is lazy: Stat makes the request and reports a missing object.
	if _, err := obj.Stat(); err != nil {
		obj.Close()
		return nil, s.mapErr(err)
	}
	return obj, nil
}

func (s *S3Storage) mapErr(err error) error {
	var resp minio.ErrorResponse
	if errors.As(err, &resp) && (resp.StatusCode == http.StatusNotFound || resp.Code == "NoSuchKey") {
		return ErrBlobNotFound
	}
	return fmt.Errorf("documents storage: %w", err)
}

// Delete removes the object.
func (s *S3Storage) Delete(ctx context.Context, key string) error {
	err := s.client.RemoveObject(ctx, s.opts.Bucket, s.object(key), minio.RemoveObjectOptions{})
	if err != nil && !errors.Is(s.mapErr(err), ErrBlobNotFound) {
		return fmt.Errorf("documents storage: delete %s: %w", key, err)
	}
	return nil
}

// Walk lists the objects under the prefix.
func (s *S3Storage) Walk(ctx context.Context, fn func(key string) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	prefix := ""
	if s.opts.Prefix != "" {
		prefix = s.opts.Prefix + "/"
	}
	for obj := range s.client.ListObjects(ctx, s.opts.Bucket, minio.ListObjectsOptions{Prefix: prefix}) {
		if obj.Err != nil {
			return fmt.Errorf("documents storage: list: %w", obj.Err)
		}
		key := strings.TrimPrefix(obj.Key, prefix)
		if key == "" || strings.Contains(key, "/") {
			continue
		}
		if err := fn(key); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// Abandon aborts multipart uploads started before before (an instance died
// during an upload).
func (s *S3Storage) Abandon(ctx context.Context, before time.Time) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	prefix := ""
	if s.opts.Prefix != "" {
		prefix = s.opts.Prefix + "/"
	}
	n := 0
	for up := range s.client.ListIncompleteUploads(ctx, s.opts.Bucket, prefix, true) {
		if up.Err != nil {
			return n, fmt.Errorf("documents storage: incomplete uploads: %w", up.Err)
		}
		if up.Initiated.Before(before) {
			if err := s.client.RemoveIncompleteUpload(ctx, s.opts.Bucket, up.Key); err == nil {
				n++
			}
		}
	}
	return n, nil
}
