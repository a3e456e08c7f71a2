package banking

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"mime/multipart"
	"net"
	"os"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/validate"
)

// Handler turns HTTP requests into service calls.
type Handler struct {
	svc       *Service
	dbTimeout time.Duration
}

// NewHandler returns the handler.
func NewHandler(svc *Service, cfg *config.Config) *Handler {
	return &Handler{svc: svc, dbTimeout: cfg.Database.Timeout}
}

// importStatement reads the multipart form as it arrives: the file goes
// to a temporary file as it streams in (at most modules.banking.maxbytes
// of it, so that an oversized one is told apart), which the import reads
// from and which is removed whatever happens; the fields mapping_id and
// mapping may come before or after it.
func (h *Handler) importStatement(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	p := auth.Current(c)
	acct, err := h.svc.Account(ctx, p, c.Params("bankAccountId"))
	if err != nil {
		return refuse(c, err)
	}
	if err := h.svc.MayImport(p, acct); err != nil {
		return refuse(c, err)
	}
	body, ok := httpserver.BodyStream(c)
	if !ok {
		return errors.New("banking: the statements route is not declared as a streamed body")
	}
	if n := c.Request().Header.ContentLength(); int64(n) > h.bodyLimit() {
		return refuse(c, h.svc.TooLarge())
	}
	form, err := h.readForm(c, body)
	defer form.remove()
	if err != nil {
		return refuse(c, err)
	}
	// Fiber's FormValue, which this route used when it read the body
	// whole, preferred the query's value: kept so.
	value := func(name string) string {
		if v := c.Query(name); v != "" {
			return v
		}
		return form.values[name]
	}
	if form.file == nil {
		return errNoFile
	}
	in := ImportInput{File: form.file, Size: form.size, MappingID: value("mapping_id")}
	var details []string
	if msg := validate.Text(in.MappingID, false); msg != "" {
		details = append(details, "mapping_id: "+msg)
	}
	if raw := value("mapping"); raw != "" {
		if msg := validate.Text(raw, false); msg != "" {
			details = append(details, "mapping: "+msg)
		} else {
			in.Mapping = new(CSVMapping)
			if err := json.Unmarshal([]byte(raw), in.Mapping); err != nil {
				details = append(details, "mapping: must be a JSON object of a CSV column mapping")
			}
		}
	}
	if len(details) > 0 {
		return apierror.Validation(details...)
	}
	// The request's context ends database.timeout after it began; the
	// import's time counts from when the file has arrived, as it did when
	// the server read the body before the handler.
	importCtx := context.WithoutCancel(ctx)
	if h.dbTimeout > 0 {
		var cancel context.CancelFunc
		importCtx, cancel = context.WithTimeout(importCtx, h.dbTimeout)
		defer cancel()
	}
	res, err := h.svc.Import(importCtx, p, acct, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(res)
}

// The form's bounds besides the file: its parts, a field's bytes, and
// what the parts' headers, boundaries and fields add to the body.
const (
	maxParts     = 16
	maxField     = 16 << 10
	formOverhead = 64 << 10
)

// bodyLimit is the largest body of the statements route.
func (h *Handler) bodyLimit() int64 { return h.svc.MaxBytes() + formOverhead }

var (
	errNoFile = apierror.Validation("file: a multipart/form-data body with one file in the field \"file\" is required")
	// errCut is a body that ended (or the client left) before the form's end.
	errCut = apierror.New(fiber.StatusBadRequest, "validation_failed", "The request body could not be read to its end.")
)

// statementForm is the form as read: the file spilt to disk, the fields.
type statementForm struct {
	file   *os.File
	size   int64
	values map[string]string
}

// remove closes and deletes the temporary file.
func (f *statementForm) remove() {
	if f.file == nil {
		return
	}
	_ = f.file.Close()
	_ = os.Remove(f.file.Name())
	f.file = nil
}

// readForm reads the multipart body. The first part named file with a
// file name is the statement (later ones are read and dropped, as Fiber's
// FormFile did); its bytes past MaxBytes+1 are read and dropped too, so
// that the fields after it are still read and the import refuses the
// file with its own error. The returned form is to be removed also on an
// error.
func (h *Handler) readForm(c *fiber.Ctx, body io.Reader) (*statementForm, error) {
	form := &statementForm{values: map[string]string{}}
	mt, params, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return form, errNoFile
	}
	mr := multipart.NewReader(body, params["boundary"])
	for parts := 0; ; parts++ {
		part, err := mr.NextRawPart()
		if errors.Is(err, io.EOF) && errors.Unwrap(err) == nil {
			// Only a bare EOF is the form's end: a body cut short between
			// parts is a wrapped one.
			return form, nil
		}
		if err != nil {
			return form, h.readError(err)
		}
		if parts == maxParts {
			return form, apierror.Validation(fmt.Sprintf("the form has more than %d parts", maxParts))
		}
		name := part.FormName()
		switch {
		case name == "file" && part.FileName() != "" && form.file == nil:
			if form.file, err = os.CreateTemp("", "propman-statement-*"); err != nil {
				return form, fmt.Errorf("banking: temporary file: %w", err)
			}
			if form.size, err = io.Copy(form.file, io.LimitReader(part, h.svc.MaxBytes()+1)); err != nil {
				return form, h.readError(err)
			}
		case name == "mapping_id" || name == "mapping":
			v, err := io.ReadAll(io.LimitReader(part, maxField+1))
			if err != nil {
				return form, h.readError(err)
			}
			if len(v) > maxField {
				return form, apierror.Validation(fmt.Sprintf("%s: at most %d bytes", name, maxField))
			}
			if _, dup := form.values[name]; !dup {
				form.values[name] = string(v)
			}
		}
		// What is left of the part (all of an unknown one, the rest of an
		// oversized file) is read and dropped, within the body's limit.
		if _, err := io.Copy(io.Discard, part); err != nil {
			return form, h.readError(err)
		}
	}
}

// readError is the answer to a body that could not be read: over the
// route's limit, cut short, or not a multipart form.
func (h *Handler) readError(err error) error {
	var netErr net.Error
	switch {
	case errors.Is(err, httpserver.ErrBodyTooLarge):
		return h.svc.TooLarge()
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.As(err, &netErr):
		return errCut
	}
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		// The temporary file's disk, not the client.
		return fmt.Errorf("banking: temporary file: %w", err)
	}
	return errNoFile
}

// Draining bounds: how much of a refused upload is read and dropped, and
// for how long, so that the client, still sending, reads the answer
// rather than a reset connection.
const (
	drainBytes = 64 << 20
	drainTime  = 5 * time.Second
)

// refuse reads and drops what is left of the request body (bounded), then
// returns err. The connection is closed after the answer (BodyLimits does
// that for a body not read to its end).
func refuse(c *fiber.Ctx, err error) error {
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

func (h *Handler) listLines(c *fiber.Ctx) error {
	q, err := listing.Parse(c, listing.UUID("bank_account_id"), listing.OneOf("status", Statuses...),
		listing.Date("from"), listing.Date("to"))
	if err != nil {
		return err
	}
	p := auth.Current(c)
	f := LineFilter{BankAccountID: q.Get("bank_account_id"), Status: q.Get("status"), From: q.Get("from"), To: q.Get("to")}
	list, res, err := h.svc.Lines(httpserver.Context(c), &p, f, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("bank_lines", list, lineOut, res, q))
}

func (h *Handler) getLine(c *fiber.Ctx) error {
	l, err := h.svc.Line(httpserver.Context(c), auth.Current(c), c.Params("bankLineId"))
	if err != nil {
		return err
	}
	return c.JSON(lineOut(l))
}

func (h *Handler) match(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	p := auth.Current(c)
	l, err := h.svc.Line(ctx, p, c.Params("bankLineId"))
	if err != nil {
		return err
	}
	var req matchRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	in, err := req.input()
	if err != nil {
		return err
	}
	out, err := h.svc.Match(ctx, p, l, in)
	if err != nil {
		return err
	}
	return c.JSON(lineOut(out))
}

func (r *matchRequest) input() (MatchInput, error) {
	var (
		in      MatchInput
		details []string
		err     error
	)
	if in.ContractID, err = uuid.Parse(r.ContractID); err != nil {
		details = append(details, "contract_id: is required, a UUID")
	}
	if r.Allocations != nil {
		in.Allocations = make([]payments.AllocationInput, 0, len(r.Allocations))
	}
	if len(r.Allocations) > payments.MaxAllocations {
		details = append(details, fmt.Sprintf("allocations: at most %d", payments.MaxAllocations))
		r.Allocations = nil
	}
	for i, a := range r.Allocations {
		id, err := uuid.Parse(a.ChargeID)
		if err != nil {
			details = append(details, fmt.Sprintf("allocations[%d].charge_id: must be a UUID", i))
		}
		amt, err := money.Parse(a.Amount)
		if err != nil || amt <= 0 {
			details = append(details, fmt.Sprintf("allocations[%d].amount: must be an amount above 0 with at most 2 decimals", i))
		}
		in.Allocations = append(in.Allocations, payments.AllocationInput{ChargeID: id, Amount: amt})
	}
	if len(details) > 0 {
		return in, apierror.Validation(details...)
	}
	return in, nil
}

func (h *Handler) ignore(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	l, err := h.svc.Line(ctx, auth.Current(c), c.Params("bankLineId"))
	if err != nil {
		return err
	}
	out, err := h.svc.Ignore(ctx, l)
	if err != nil {
		return err
	}
	return c.JSON(lineOut(out))
}

func (h *Handler) listMappings(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	acct, err := h.svc.Account(ctx, auth.Current(c), c.Params("bankAccountId"))
	if err != nil {
		return err
	}
	list, err := h.svc.Mappings(ctx, acct)
	if err != nil {
		return err
	}
	out := make([]MappingJSON, len(list))
	for i := range list {
		out[i] = MappingOut(&list[i])
	}
	return c.JSON(fiber.Map{"csv_mappings": out})
}

func (h *Handler) mappingOf(c *fiber.Ctx) (*Mapping, error) {
	ctx := httpserver.Context(c)
	acct, err := h.svc.Account(ctx, auth.Current(c), c.Params("bankAccountId"))
	if err != nil {
		return nil, err
	}
	return h.svc.Mapping(ctx, acct, c.Params("mappingId"))
}

func (h *Handler) getMapping(c *fiber.Ctx) error {
	m, err := h.mappingOf(c)
	if err != nil {
		return err
	}
	return c.JSON(MappingOut(m))
}

func (h *Handler) createMapping(c *fiber.Ctx) error {
	ctx := httpserver.Context(c)
	acct, err := h.svc.Account(ctx, auth.Current(c), c.Params("bankAccountId"))
	if err != nil {
		return err
	}
	var req mappingRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	m, err := h.svc.CreateMapping(ctx, acct, MappingInput{Name: req.Name, Spec: req.Mapping})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(MappingOut(m))
}

func (h *Handler) updateMapping(c *fiber.Ctx) error {
	m, err := h.mappingOf(c)
	if err != nil {
		return err
	}
	var req mappingRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	out, err := h.svc.UpdateMapping(httpserver.Context(c), m, MappingInput{Name: req.Name, Spec: req.Mapping})
	if err != nil {
		return err
	}
	return c.JSON(MappingOut(out))
}

func (h *Handler) deleteMapping(c *fiber.Ctx) error {
	m, err := h.mappingOf(c)
	if err != nil {
		return err
	}
	if err := h.svc.DeleteMapping(httpserver.Context(c), m); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
