package httpserver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/gofiber/fiber/v2"
)

// Payload is a JSON response made once and sent many times: read-mostly
// data (countries, dictionaries, catalogues) is encoded when it changes, not
// on every request.
type Payload struct {
	Body []byte
	ETag string
}

// NewPayload encodes v and derives its strong ETag from the bytes.
func NewPayload(v any) (Payload, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return Payload{}, err
	}
	sum := sha256.Sum256(b)
	return Payload{Body: b, ETag: `"` + hex.EncodeToString(sum[:12]) + `"`}, nil
}

// SendPayload writes p with its ETag, or 304 when the client's If-None-Match
// holds it already. Clients revalidate every time (no-cache), so a change is
// seen as soon as this instance has loaded it; answers to authenticated
// requests keep the guard's no-store.
func SendPayload(c *fiber.Ctx, p Payload) error {
	c.Set(fiber.HeaderETag, p.ETag)
	// A protected route's answer is not stored at all (the guard set
	// no-store); a public one is revalidated.
	if len(c.Response().Header.Peek(fiber.HeaderCacheControl)) == 0 {
		c.Set(fiber.HeaderCacheControl, "no-cache")
	}
	if c.Fresh() {
		return c.SendStatus(fiber.StatusNotModified)
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	// The bytes never change after they are made, so Fiber may send them
	// without a copy.
	c.Response().SetBodyRaw(p.Body)
	return nil
}
