// Package webapp serves the web app's build (clients/web) at / beside the
// API: hashed assets cached for a year, index.html revalidated on every
// load, and every other path outside the API answered with index.html, so
// the app's router opens the page a link names (a mailed link included).
//
// It is platform, not a module: modules register only under /api/v1, and
// the fallback must be mounted after every API route, which only boot's
// mount knows.
package webapp

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"path"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// CSP is the Content-Security-Policy of the app's pages: scripts and
// everything else only from the app's own origin, never inline (the build
// has no inline script). Styles allow 'unsafe-inline' because the
// component library (Mantine) sets style attributes and its CSS variables
// in a <style> element; inline styles cannot run code.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; object-src 'none'; " +
	"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Immutable is the cache policy of the hashed assets: their names change
// whenever their bytes do.
const Immutable = "public, max-age=31536000, immutable"

// file is one file of the build, with its gzip form when that is smaller.
type file struct {
	body, gzipped []byte
	contentType   string
	etag          string
}

// Mount registers the app on every GET and HEAD path outside /api/, after
// whatever routes app has already (call it last). A path under /api/ falls
// through to the API's JSON 404.
func Mount(app *fiber.App, dist fs.FS) error {
	files := map[string]*file{}
	err := fs.WalkDir(dist, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(dist, p)
		if err != nil {
			return err
		}
		f := &file{body: b, contentType: mime.TypeByExtension(path.Ext(p))}
		if f.contentType == "" {
			f.contentType = "application/octet-stream"
		}
		sum := sha256.Sum256(b)
		f.etag = `"` + hex.EncodeToString(sum[:16]) + `"`
		if compressible(f.contentType) {
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
			_, _ = zw.Write(b)
			_ = zw.Close()
			if buf.Len() < len(b) {
				f.gzipped = buf.Bytes()
			}
		}
		files["/"+p] = f
		return nil
	})
	if err != nil {
		return fmt.Errorf("web app: %w", err)
	}
	index, ok := files["/index.html"]
	if !ok {
		return fmt.Errorf("web app: the build has no index.html")
	}
	app.Get("/*", func(c *fiber.Ctx) error {
		p := c.Path()
		if p == "/api" || strings.HasPrefix(p, "/api/") {
			return fiber.ErrNotFound
		}
		c.Set(fiber.HeaderContentSecurityPolicy, CSP)
		// Pages carry tokens in their address (a mailed link): no other
		// site learns them from a Referer.
		c.Set(fiber.HeaderReferrerPolicy, "no-referrer")
		c.Set(fiber.HeaderXFrameOptions, "DENY")
		f, ok := files[p]
		switch {
		case ok && p != "/index.html" && strings.HasPrefix(p, "/assets/"):
			c.Set(fiber.HeaderCacheControl, Immutable)
		case ok && p != "/index.html":
			// Unhashed files at the root (the icon): kept a day.
			c.Set(fiber.HeaderCacheControl, "public, max-age=86400")
		case strings.HasPrefix(p, "/assets/"):
			// A missing asset is a 404, not the page: a browser would
			// otherwise run HTML as a script and report a MIME error.
			return fiber.ErrNotFound
		default:
			f = index
			c.Set(fiber.HeaderCacheControl, "no-cache")
		}
		return send(c, f)
	})
	return nil
}

func send(c *fiber.Ctx, f *file) error {
	c.Set(fiber.HeaderETag, f.etag)
	c.Set(fiber.HeaderVary, fiber.HeaderAcceptEncoding)
	c.Set(fiber.HeaderContentType, f.contentType)
	if match := c.Get(fiber.HeaderIfNoneMatch); match != "" && strings.Contains(match, f.etag) {
		return c.SendStatus(fiber.StatusNotModified)
	}
	if f.gzipped != nil && acceptsGzip(c.Get(fiber.HeaderAcceptEncoding)) {
		c.Set(fiber.HeaderContentEncoding, "gzip")
		return c.Send(f.gzipped)
	}
	return c.Send(f.body)
}

// acceptsGzip reads Accept-Encoding: gzip listed, and not with q=0.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
			continue
		}
		_, q, found := strings.Cut(strings.ReplaceAll(params, " ", ""), "q=")
		if !found {
			return true
		}
		v, err := strconv.ParseFloat(q, 64)
		return err == nil && v > 0
	}
	return false
}

func compressible(contentType string) bool {
	return strings.HasPrefix(contentType, "text/") || strings.Contains(contentType, "javascript") ||
		strings.Contains(contentType, "json") || strings.Contains(contentType, "svg")
}
