package httpserver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// Payload is a JSON response made once and sent many times: read-mostly
// data (countries, dictionaries, catalogues) is encoded when it changes, not
// on every request.
type Payload struct {
	Body []byte
	ETag string
	etag []byte // ETag's bytes, made once by NewPayload
}

// NewPayload encodes v and derives its strong ETag from the bytes.
func NewPayload(v any) (Payload, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return Payload{}, err
	}
	sum := sha256.Sum256(b)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	return Payload{Body: b, ETag: etag, etag: []byte(etag)}, nil
}

// Header keys in fasthttp's normal form ("Etag"), in which Peek and Fresh
// look them up.
var (
	headerETag, headerCacheControl = []byte("Etag"), []byte(fiber.HeaderCacheControl)
	valueNoCache, mimeJSON         = []byte("no-cache"), []byte(fiber.MIMEApplicationJSON)
)

// SendPayload writes p with its ETag, or 304 when the client's If-None-Match
// holds it already. Clients revalidate every time (no-cache), so a change is
// seen as soon as this instance has loaded it; answers to authenticated
// requests keep the guard's no-store.
//
// Only If-None-Match is looked at: a payload has no Last-Modified, and RFC
// 9110 has a server ignore If-Modified-Since then (Fiber's Fresh answered
// 304 to it alone). That is also one header look-up a request instead of
// Fresh's two to four, on the routes read most.
func SendPayload(c *fiber.Ctx, p Payload) error {
	h := &c.Response().Header
	etag := p.etag
	if etag == nil {
		etag = []byte(p.ETag)
	}
	// Keys as they go on the wire: set without normalizing them again.
	h.SetCanonical(headerETag, etag)
	// A protected route's answer is not stored at all (the guard said
	// NoStore); a public one is revalidated.
	if c.Context().UserValue(noStoreKey) == nil {
		h.SetCanonical(headerCacheControl, valueNoCache)
	}
	if inm := c.Get(fiber.HeaderIfNoneMatch); inm != "" && ETagMatches(inm, p.ETag) {
		return c.SendStatus(fiber.StatusNotModified)
	}
	h.SetContentTypeBytes(mimeJSON)
	// The bytes never change after they are made, so Fiber may send them
	// without a copy.
	c.Response().SetBodyRaw(p.Body)
	return nil
}

// ETagMatches reports whether an If-None-Match value names etag (a quoted
// strong tag) by the weak comparison RFC 9110 asks for: "*", or one of its
// comma-separated tags with or without "W/". It allocates nothing.
func ETagMatches(header, etag string) bool {
	for header != "" {
		var t string
		t, header, _ = strings.Cut(header, ",")
		t = strings.Trim(t, " \t")
		if t == "*" || strings.TrimPrefix(t, "W/") == etag {
			return true
		}
	}
	return false
}

// NoStore marks c's answer as one no cache may keep (Cache-Control:
// no-store), whatever the handler sends, as answers behind a token are.
// SendPayload then leaves the header alone; asking for it costs a look-up
// in the request's few user values rather than in the answer's headers.
func NoStore(c *fiber.Ctx) {
	c.Response().Header.SetCanonical(headerCacheControl, valueNoStore)
	c.Context().SetUserValue(noStoreKey, true)
}

type noStoreMark struct{}

var (
	noStoreKey   = noStoreMark{}
	valueNoStore = []byte("no-store")
)
