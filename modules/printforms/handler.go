package printforms

import (
	"runtime"
	"strings"

	"github.com/gofiber/fiber/v2"
	"go.uber.org/fx"
	"golang.org/x/sync/singleflight"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
)

// Handler serves the print forms.
type Handler struct {
	svc   *Service
	cache *Cache
	// flight draws a form once when several requests want the same
	// version at the same time.
	flight singleflight.Group
	// receipts is the receipts module's adapter; nil when that module is
	// off (the route then answers 404).
	receipts ReceiptSource
	// tenants is the tenant portal's check; nil when that module is off
	// (the tenant's route then answers 404).
	tenants TenantReceipts
	// drawing bounds the renders running at once: drawing is CPU work of
	// about 15 MB each, so more renders than cores only raise the memory
	// peak (20 at once took 290 MB) without finishing sooner.
	drawing chan struct{}
}

// HandlerParams are the handler's dependencies as fx provides them.
type HandlerParams struct {
	fx.In

	Service  *Service
	Cache    *Cache
	Receipts ReceiptSource  `optional:"true"`
	Tenants  TenantReceipts `optional:"true"`
}

// NewHandler returns the handler.
func NewHandler(p HandlerParams) *Handler {
	return &Handler{svc: p.Service, cache: p.Cache, receipts: p.Receipts, tenants: p.Tenants, drawing: make(chan struct{}, runtime.GOMAXPROCS(0))}
}

func (h *Handler) contract(c *fiber.Ctx) error {
	job, err := h.svc.ContractJob(httpserver.Context(c), auth.Current(c), c.Params("contractId"), c.Query("locale"))
	if err != nil {
		return err
	}
	return h.send(c, job)
}

// termination serves the letter that confirmed a contract's termination.
func (h *Handler) termination(c *fiber.Ctx) error {
	job, err := h.svc.TerminationJob(httpserver.Context(c), auth.Current(c), c.Params("contractId"), c.Query("locale"))
	if err != nil {
		return err
	}
	return h.send(c, job)
}

// receipt serves GET /print-forms/receipts/{receiptId} once a
// ReceiptSource exists (see ReceiptSource).
func (h *Handler) receipt(c *fiber.Ctx) error { return h.serveReceipt(c, auth.Current(c)) }

// tenantReceipt serves a receipt of the caller's own contract, as the
// workspace's owner would get it, once the portal has checked whose it is.
func (h *Handler) tenantReceipt(c *fiber.Ctx) error {
	if h.tenants == nil {
		return apierror.NotFound("Receipt not found.")
	}
	p, err := h.tenants.TenantReceipt(httpserver.Context(c), auth.Current(c).UserID, c.Params("contractId"), c.Params("receiptId"))
	if err != nil {
		return err
	}
	return h.serveReceipt(c, p)
}

func (h *Handler) serveReceipt(c *fiber.Ctx, p auth.Principal) error {
	if h.receipts == nil {
		return apierror.NotFound("Receipt not found.")
	}
	job, err := h.svc.ReceiptJob(httpserver.Context(c), h.receipts, p, c.Params("receiptId"), c.Query("locale"))
	if err != nil {
		return err
	}
	return h.send(c, job)
}

// send answers 304 when If-None-Match names the job's version, else the
// PDF: from the cache, or drawn (once for concurrent requests) and kept.
func (h *Handler) send(c *fiber.Ctx, job *Job) error {
	etag := `"` + job.Key + `"`
	c.Set(fiber.HeaderETag, etag)
	c.Set(fiber.HeaderCacheControl, "private, no-cache")
	if job.SHA256 != "" {
		c.Set("X-Content-SHA256", job.SHA256)
	}
	if len(job.Warnings) > 0 {
		c.Set("Propman-Warnings", strings.Join(job.Warnings, ", "))
	}
	if inm := c.Get(fiber.HeaderIfNoneMatch); inm != "" && httpserver.ETagMatches(inm, etag) {
		return c.SendStatus(fiber.StatusNotModified)
	}
	body, ok := h.cache.Get(job.Key)
	if !ok {
		// job.Key is our own string (a digest), not a request's bytes.
		v, err, _ := h.flight.Do(job.Key, func() (any, error) {
			if b, ok := h.cache.Get(job.Key); ok {
				return b, nil
			}
			select {
			case h.drawing <- struct{}{}:
			case <-httpserver.Context(c).Done():
				return nil, apierror.Unavailable("The server is busy drawing other print forms; try again.")
			}
			b, err := job.Render()
			<-h.drawing
			if err != nil {
				return nil, err
			}
			h.cache.Put(job.Key, b)
			return b, nil
		})
		if err != nil {
			return err
		}
		body = v.([]byte)
	}
	c.Set(fiber.HeaderContentDisposition, contentDisposition(job.Filename))
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderContentType, "application/pdf")
	// The cached bytes are shared and never changed; fasthttp only reads
	// them.
	c.Response().SetBodyRaw(body)
	return nil
}

// contentDisposition is an attachment named name: an ASCII filename
// (RFC 6266) and, when the name is not plain ASCII, the UTF-8 one
// (filename*, RFC 5987).
func contentDisposition(name string) string {
	ascii := asciiFilename(name)
	out := `attachment; filename="` + ascii + `"`
	if u := utf8Filename(name); u != ascii {
		out += "; filename*=UTF-8''" + percentEncode(u)
	}
	return out
}

// utf8Filename is name without what may not be in a filename: control and
// formatting characters, quotes and backslashes are dropped; slashes
// become '-'.
func utf8Filename(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '/' || r == '\\':
			return '-'
		case r == '"' || r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return -1
		case r >= 0x200b && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0xfeff:
			return -1
		}
		return r
	}, strings.ToValidUTF8(name, ""))
}

// asciiFilename is utf8Filename in printable ASCII: other characters and
// spaces become '_', and '%' (which some clients decode) too.
func asciiFilename(name string) string {
	return strings.Map(func(r rune) rune {
		if r <= 0x20 || r > 0x7e || r == '%' || r == ';' {
			return '_'
		}
		return r
	}, utf8Filename(name))
}

// percentEncode writes s for filename*: RFC 5987 attr-chars as they are,
// every other byte as %XX.
func percentEncode(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
