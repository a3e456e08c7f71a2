package repairs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/httpserver"
)

// uploadTime is how long a form of photos may take to arrive and be
// stored; the rows are then written within dbTime.
const (
	uploadTime = 10 * time.Minute
	dbTime     = 30 * time.Second
)

// readUpload reads a multipart/form-data body as it streams in: each part
// photos is an image (sniffed from its bytes), at most maxUploadPhotos;
// with invoice, one part invoice (a PDF or an image). Other parts are
// skipped. On any refusal nothing is kept.
func (h *Handler) readUpload(c *fiber.Ctx, base context.Context, invoice bool) (u *Upload, err error) {
	body, ok := httpserver.BodyStream(c)
	if !ok {
		return nil, errors.New("repairs: the upload route is not declared as a streamed body")
	}
	mt, params, perr := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if perr != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, fault.New(fault.KindUnsupported, "unsupported_media_type",
			"The upload must be multipart/form-data with a boundary.")
	}
	putCtx, cancel := context.WithTimeout(base, uploadTime)
	defer cancel()
	u = &Upload{}
	defer func() {
		if err != nil {
			h.svc.Discard(u)
		}
	}()
	mr := multipart.NewReader(body, params["boundary"])
	for parts := 0; ; parts++ {
		part, perr := mr.NextRawPart()
		if errors.Is(perr, io.EOF) {
			break
		}
		if perr != nil {
			return u, formError(perr)
		}
		if parts == 2*maxUploadPhotos {
			return u, fault.Validation(fmt.Sprintf("the form has more than %d parts", 2*maxUploadPhotos))
		}
		switch name := part.FormName(); {
		case name == "photos":
			if len(u.Photos) == maxUploadPhotos {
				return u, fault.Validation(fmt.Sprintf("photos: at most %d per upload", maxUploadPhotos))
			}
			b, err := h.svc.PutFile(putCtx, "photos", part.FileName(), part)
			if err != nil {
				return u, err
			}
			u.Photos = append(u.Photos, b)
		case name == "invoice" && invoice:
			if u.Invoice != nil {
				return u, fault.Validation("invoice: only one file")
			}
			b, err := h.svc.PutFile(putCtx, "invoice", part.FileName(), part)
			if err != nil {
				return u, err
			}
			u.Invoice = b
		default:
			// Unknown parts are skipped, as unknown JSON fields are.
			if _, err := io.Copy(io.Discard, part); err != nil {
				return u, formError(err)
			}
		}
	}
	return u, nil
}

// formError is the answer to a body that broke off or outgrew the limit.
func formError(err error) error {
	if errors.Is(err, httpserver.ErrBodyTooLarge) {
		return fault.New(fault.KindTooLarge, "payload_too_large",
			fmt.Sprintf("The upload is larger than the limit of %d bytes.", maxUpload))
	}
	return fault.New(fault.KindInvalid, "validation_failed", "The request body is not a well-formed multipart/form-data form.")
}

func (h *Handler) tenantPhotos(c *fiber.Ctx) error {
	ct, _, err := h.tenancy(c)
	if err != nil {
		return err
	}
	base := context.WithoutCancel(httpserver.Context(c))
	u, err := h.readUpload(c, base, false)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(base, dbTime)
	defer cancel()
	r, o, err := h.svc.AddPhotos(ctx, auth.Current(c).UserID, ct, c.Params("requestId"), u)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toJSON(r, o, false))
}

func (h *Handler) providerFiles(c *fiber.Ctx) error {
	httpserver.NoStore(c)
	base := context.WithoutCancel(httpserver.Context(c))
	u, err := h.readUpload(c, base, true)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(base, dbTime)
	defer cancel()
	v, err := h.svc.ProviderFiles(ctx, c.Params("token"), u)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(providerOut(v))
}
