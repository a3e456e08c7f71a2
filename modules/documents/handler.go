package documents

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/validate"
)

// Handler turns HTTP requests into service calls.
type Handler struct {
	svc       *Service
	props     *properties.Service
	tenants   contracts.Tenancies
	cfg       Config
	dbTimeout time.Duration
}

// HandlerParams are the handler's dependencies as fx provides them.
type HandlerParams struct {
	fx.In

	Service    *Service
	Properties *properties.Service
	Config     Config
	AppConfig  *config.Config
	// Tenancies is nil when the tenancy module is off: the tenant routes
	// then answer 404.
	Tenancies contracts.Tenancies `optional:"true"`
}

// NewHandler returns the handler.
func NewHandler(p HandlerParams) *Handler {
	return &Handler{svc: p.Service, props: p.Properties, tenants: p.Tenancies, cfg: p.Config, dbTimeout: p.AppConfig.Database.Timeout}
}

// formOverhead is what a multipart body may hold besides the file: the
// parts' headers, boundaries and the small fields.
const formOverhead = 64 << 10

// bodyLimit is the largest upload body.
func (h *Handler) bodyLimit() int64 { return h.cfg.MaxSize + formOverhead }

// maxField is the largest text field of the form, in bytes.
const maxField = 1024

// maxParts bounds the parts of one form.
const maxParts = 16

type documentOut struct {
	ID          string  `json:"id"`
	PropertyID  string  `json:"property_id"`
	ContractID  *string `json:"contract_id"`
	Title       string  `json:"title"`
	Category    string  `json:"category"`
	Filename    string  `json:"filename"`
	ContentType string  `json:"content_type"`
	Size        int64   `json:"size"`
	SHA256      string  `json:"sha256"`
	UploadedBy  int64   `json:"uploaded_by"`
	Shared      bool    `json:"shared_with_tenant"`
	CreatedAt   string  `json:"created_at"`
	UpdatedAt   string  `json:"updated_at"`
}

func toJSON(d *Document) documentOut {
	out := documentOut{
		ID: d.ID.String(), PropertyID: d.PropertyID.String(), Title: d.Title, Category: d.Category,
		Filename: d.ServedFilename(), ContentType: d.ContentType, Size: d.Size, SHA256: d.SHA256, UploadedBy: d.UploadedBy,
		Shared:    d.SharedWithTenant,
		CreatedAt: d.CreatedAt.UTC().Format(time.RFC3339), UpdatedAt: d.UpdatedAt.UTC().Format(time.RFC3339),
	}
	if d.ContractID != nil {
		s := d.ContractID.String()
		out.ContractID = &s
	}
	return out
}

var listFilters = []listing.Filter{
	listing.OneOf("category", categories...),
	listing.UUID("contract_id"),
}

func (h *Handler) list(c *fiber.Ctx) error {
	prop, err := h.props.Authorize(httpserver.Context(c), auth.Current(c), c.Params("propertyId"))
	if err != nil {
		return err
	}
	q, err := listing.Parse(c, listFilters...)
	if err != nil {
		return err
	}
	list, total, err := h.svc.List(httpserver.Context(c), prop, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("documents", list, toJSON, total, q))
}

// document authorizes the property and finds the document in it.
func (h *Handler) document(c *fiber.Ctx) (*Document, error) {
	_, d, err := h.propertyDocument(c)
	return d, err
}

// propertyDocument is document with its property, whose workspace a
// change of the document is logged in.
func (h *Handler) propertyDocument(c *fiber.Ctx) (*properties.Property, *Document, error) {
	prop, err := h.props.Authorize(httpserver.Context(c), auth.Current(c), c.Params("propertyId"))
	if err != nil {
		return nil, nil, err
	}
	d, err := h.svc.Get(httpserver.Context(c), prop, c.Params("documentId"))
	return prop, d, err
}

func (h *Handler) get(c *fiber.Ctx) error {
	d, err := h.document(c)
	if err != nil {
		return err
	}
	return c.JSON(toJSON(d))
}

type updateRequest struct {
	Title    *string `json:"title" validate:"required,min=1,max=200"`
	Category *string `json:"category" validate:"required"`
	// Shared is optional: left out, the document stays as shared as it is.
	Shared *bool `json:"shared_with_tenant"`
}

func (h *Handler) update(c *fiber.Ctx) error {
	prop, d, err := h.propertyDocument(c)
	if err != nil {
		return err
	}
	var req updateRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	if req.Title != nil {
		t := strings.TrimSpace(*req.Title)
		req.Title = &t
	}
	details := validate.Struct(&req)
	if req.Title != nil && hasControl(*req.Title) {
		details = append(details, "title: must not contain control characters")
	}
	if req.Category != nil && !slices.Contains(categories, *req.Category) {
		details = append(details, "category: must be one of "+strings.Join(categories, ", "))
	}
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	shared := d.SharedWithTenant
	if req.Shared != nil {
		shared = *req.Shared
	}
	d, err = h.svc.Update(httpserver.Context(c), prop, d, *req.Title, *req.Category, shared)
	if err != nil {
		return err
	}
	return c.JSON(toJSON(d))
}

func (h *Handler) delete(c *fiber.Ctx) error {
	prop, d, err := h.propertyDocument(c)
	if err != nil {
		return err
	}
	if err := h.svc.Delete(httpserver.Context(c), prop, d); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// upload reads the multipart form as it arrives: the fields title,
// category, contract_id and shared_with_tenant (before or after the file;
// sending them first lets a mistake be refused before the file is sent)
// and one file, which goes to the storage as it streams in. The row is
// inserted once the whole body has arrived and every field is valid; on
// any failure the blob is removed.
func (h *Handler) upload(c *fiber.Ctx) (err error) {
	prop, err := h.props.Authorize(httpserver.Context(c), auth.Current(c), c.Params("propertyId"))
	if err != nil {
		return h.refuse(c, err)
	}
	body, ok := httpserver.BodyStream(c)
	if !ok {
		return errors.New("documents: the upload route is not declared as a streamed body")
	}
	boundary, err := formBoundary(c.Get(fiber.HeaderContentType))
	if err != nil {
		return h.refuse(c, err)
	}
	if n := c.Request().Header.ContentLength(); int64(n) > h.bodyLimit() {
		return h.refuse(c, h.svc.TooLarge())
	}
	// The request's own context ends after database.timeout; the file may
	// take up to modules.documents.timeout to arrive.
	base := context.WithoutCancel(httpserver.Context(c))
	putCtx, cancel := context.WithTimeout(base, h.cfg.Timeout)
	defer cancel()

	var blob *Blob
	defer func() {
		if err != nil {
			h.svc.Discard(blob)
		}
	}()
	fields := map[string]string{}
	mr := multipart.NewReader(body, boundary)
	for parts := 0; ; parts++ {
		part, perr := mr.NextRawPart()
		if errors.Is(perr, io.EOF) {
			break
		}
		if perr != nil {
			return h.refuse(c, h.svc.ReadError(perr))
		}
		if parts == maxParts {
			return h.refuse(c, apierror.Validation(fmt.Sprintf("the form has more than %d parts", maxParts)))
		}
		name := part.FormName()
		switch name {
		case "file":
			if blob != nil {
				return h.refuse(c, apierror.Validation("file: only one file per upload"))
			}
			// Fields sent before the file are checked before it is stored.
			if _, details := checkFields(fields, false); len(details) > 0 {
				return h.refuse(c, apierror.Validation(details...))
			}
			blob, err = h.svc.PutFile(putCtx, part.FileName(), part)
			if err != nil {
				return h.refuse(c, err)
			}
		case "title", "category", "contract_id", "shared_with_tenant":
			if _, dup := fields[name]; dup {
				return h.refuse(c, apierror.Validation(name+": given twice"))
			}
			v, rerr := io.ReadAll(io.LimitReader(part, maxField+1))
			if rerr != nil {
				return h.refuse(c, h.svc.ReadError(rerr))
			}
			if len(v) > maxField || !utf8.Valid(v) {
				return h.refuse(c, apierror.Validation(name+": must be UTF-8 text of at most 200 characters"))
			}
			fields[name] = string(v)
		default:
			// Unknown parts are ignored, as unknown JSON fields are.
			if _, rerr := io.Copy(io.Discard, part); rerr != nil {
				return h.refuse(c, h.svc.ReadError(rerr))
			}
		}
	}
	in, details := checkFields(fields, true)
	if blob == nil {
		details = append(details, "file: is required")
	}
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	dbCtx, cancelDB := context.WithTimeout(base, h.dbTimeout)
	defer cancelDB()
	d, err := h.svc.Create(dbCtx, auth.Current(c), prop, in, blob)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toJSON(d))
}

// checkFields validates the form's text fields; all says whether missing
// required ones count (at the end) or not (before the file).
func checkFields(f map[string]string, all bool) (Input, []string) {
	var in Input
	var details []string
	if t, ok := f["title"]; ok || all {
		in.Title = strings.TrimSpace(t)
		switch n := utf8.RuneCountInString(in.Title); {
		case !ok:
			details = append(details, "title: is required")
		case n == 0 || n > 200:
			details = append(details, "title: must be 1 to 200 characters")
		case hasControl(in.Title):
			details = append(details, "title: must not contain control characters")
		}
	}
	if cat, ok := f["category"]; ok || all {
		in.Category = strings.TrimSpace(cat)
		switch {
		case !ok:
			details = append(details, "category: is required")
		case !slices.Contains(categories, in.Category):
			details = append(details, "category: must be one of "+strings.Join(categories, ", "))
		}
	}
	if raw, ok := f["shared_with_tenant"]; ok {
		switch strings.TrimSpace(raw) {
		case "true":
			in.SharedWithTenant = true
		case "false", "":
		default:
			details = append(details, "shared_with_tenant: must be true or false")
		}
	}
	if raw, ok := f["contract_id"]; ok && strings.TrimSpace(raw) != "" {
		raw = strings.TrimSpace(raw)
		id, err := uuid.Parse(raw)
		if err != nil || len(raw) != 36 {
			details = append(details, "contract_id: must be a UUID")
		} else {
			in.ContractID = &id
		}
	}
	return in, details
}

func formBoundary(contentType string) (string, error) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return "", apierror.New(fiber.StatusUnsupportedMediaType, "unsupported_media_type",
			"The upload must be multipart/form-data with a boundary.")
	}
	return params["boundary"], nil
}

// Draining bounds: how much of a refused upload is read and dropped, and for
// how long, so that the client, still sending, reads the answer instead of a
// reset connection.
const (
	drainBytes = 64 << 20
	drainTime  = 5 * time.Second
)

// refuse reads and drops what is left of the request body (bounded), then
// returns err. The connection is closed after the answer (BodyLimits does
// that for a body not read to its end).
func (h *Handler) refuse(c *fiber.Ctx, err error) error {
	stream := c.Context().RequestBodyStream()
	if stream == nil {
		return err
	}
	if conn := c.Context().Conn(); conn != nil {
		_ = conn.SetReadDeadline(time.Now().Add(drainTime))
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(stream, drainBytes))
	return err
}

// content sends the document's bytes, or the one range asked for.
func (h *Handler) content(c *fiber.Ctx) error {
	d, err := h.document(c)
	if err != nil {
		return err
	}
	return h.send(c, d)
}

// send answers with d's bytes (or the one range asked for, or 304), as an
// attachment that no browser renders in the API's origin.
func (h *Handler) send(c *fiber.Ctx, d *Document) error {
	etag := `"` + d.SHA256 + `"`
	c.Set(fiber.HeaderETag, etag)
	c.Set(fiber.HeaderAcceptRanges, "bytes")
	c.Set(fiber.HeaderContentDisposition, contentDisposition(d.ServedFilename()))
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderContentSecurityPolicy, "default-src 'none'; sandbox")
	c.Set(fiber.HeaderCacheControl, "private, no-cache")
	if inm := c.Get(fiber.HeaderIfNoneMatch); inm != "" && httpserver.ETagMatches(inm, etag) {
		return c.SendStatus(fiber.StatusNotModified)
	}
	offset, length := int64(0), d.Size
	status := fiber.StatusOK
	if rh := c.Get(fiber.HeaderRange); rh != "" {
		if ir := c.Get(fiber.HeaderIfRange); ir == "" || ir == etag {
			start, end, ok, satisfiable := parseRange(rh, d.Size)
			if !satisfiable {
				c.Set(fiber.HeaderContentRange, "bytes */"+strconv.FormatInt(d.Size, 10))
				return apierror.New(fiber.StatusRequestedRangeNotSatisfiable, "range_not_satisfiable",
					"The range is outside the document's "+strconv.FormatInt(d.Size, 10)+" bytes.")
			}
			if ok {
				offset, length, status = start, end-start+1, fiber.StatusPartialContent
				c.Set(fiber.HeaderContentRange, fmt.Sprintf("bytes %d-%d/%d", start, end, d.Size))
			}
		}
	}
	// The body is sent after the handler returns, when the request's
	// context is over: the read has a context of its own, ended when
	// fasthttp closes the reader.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(httpserver.Context(c)), h.cfg.Timeout)
	r, err := h.svc.Open(ctx, d, offset, length)
	if err != nil {
		cancel()
		return err
	}
	r = cancelOnClose{ReadCloser: r, cancel: cancel}
	c.Status(status)
	c.Set(fiber.HeaderContentType, d.ContentType)
	// fasthttp streams the reader to the client and closes it.
	c.Context().SetBodyStream(r, int(length))
	return nil
}

// parseRange reads a Range header of one byte range. ok is false when the
// header is not one (several ranges, another unit, malformed): the whole
// content is sent, as RFC 9110 allows. satisfiable is false when it is
// one range that starts past the end.
func parseRange(h string, size int64) (start, end int64, ok, satisfiable bool) {
	spec, found := strings.CutPrefix(h, "bytes=")
	if !found || strings.Contains(spec, ",") {
		return 0, 0, false, true
	}
	a, b, found := strings.Cut(strings.TrimSpace(spec), "-")
	if !found {
		return 0, 0, false, true
	}
	if a == "" {
		// The last b bytes.
		n, err := strconv.ParseInt(b, 10, 64)
		if err != nil || n < 0 {
			return 0, 0, false, true
		}
		if n == 0 {
			return 0, 0, false, false
		}
		if n > size {
			n = size
		}
		return size - n, size - 1, true, true
	}
	s, err := strconv.ParseInt(a, 10, 64)
	if err != nil || s < 0 {
		return 0, 0, false, true
	}
	e := size - 1
	if b != "" {
		if e, err = strconv.ParseInt(b, 10, 64); err != nil || e < s {
			return 0, 0, false, true
		}
	}
	if s >= size {
		return 0, 0, false, false
	}
	if e >= size {
		e = size - 1
	}
	return s, e, true, true
}

// contentDisposition is an attachment with an ASCII filename and the UTF-8
// one (RFC 6266).
func contentDisposition(name string) string {
	return `attachment; filename="` + asciiFilename(name) + `"; filename*=UTF-8''` + strings.ReplaceAll(url.QueryEscape(name), "+", "%20")
}

// cancelOnClose ends a download's context when its reader is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

func hasControl(s string) bool {
	return strings.IndexFunc(s, unicode.IsControl) >= 0
}
