package messages

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/validate"
)

// Handler turns HTTP requests into service calls.
type Handler struct {
	svc     *Service
	props   *properties.Service
	tenants contracts.Tenancies
	cfg     Config
}

// HandlerParams are the handler's dependencies as fx provides them.
type HandlerParams struct {
	fx.In

	Service    *Service
	Properties *properties.Service
	Config     Config
	// Tenancies is nil when the tenancy module is off: the tenant routes
	// then answer 404.
	Tenancies contracts.Tenancies `optional:"true"`
}

// NewHandler returns the handler.
func NewHandler(p HandlerParams) *Handler {
	return &Handler{svc: p.Service, props: p.Properties, tenants: p.Tenancies, cfg: p.Config}
}

var listFilters = []listing.Filter{
	listing.UUID("contract_id"),
	listing.UUID("contragent_id"),
	listing.UUID("thread_id"),
	listing.OneOf("direction", Out, In, Note),
	listing.OneOf("channel", Email, Portal, Post),
	listing.OneOf("delivery", Queued, Sent, Failed, Bounced),
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
	list, res, err := h.svc.List(httpserver.Context(c), prop, q)
	if err != nil {
		return err
	}
	return c.JSON(listing.NewPage("messages", list, toJSON, res, q))
}

func (h *Handler) get(c *fiber.Ctx) error {
	prop, err := h.props.Authorize(httpserver.Context(c), auth.Current(c), c.Params("propertyId"))
	if err != nil {
		return err
	}
	m, err := h.svc.Get(httpserver.Context(c), prop, c.Params("messageId"))
	if err != nil {
		return err
	}
	return c.JSON(toJSON(m))
}

type createRequest struct {
	ContractID     *string  `json:"contract_id"`
	ContragentID   *string  `json:"contragent_id"`
	Direction      *string  `json:"direction"`
	Channel        *string  `json:"channel"`
	Subject        *string  `json:"subject"`
	Body           *string  `json:"body" validate:"multiline"`
	Attachments    []string `json:"attachments"`
	TrackingNumber *string  `json:"tracking_number"`
}

// parseID reads an optional UUID field.
func parseID(field string, raw *string, details *[]string) *uuid.UUID {
	if raw == nil {
		return nil
	}
	id, err := uuid.Parse(*raw)
	if err != nil || len(*raw) != 36 {
		*details = append(*details, field+": must be a UUID")
		return nil
	}
	return &id
}

// checkText trims and bounds subject and body; subject may be empty when
// optional.
func checkText(subject, body *string, subjectRequired bool, details *[]string) (string, string) {
	var s, b string
	if subject != nil {
		s = strings.TrimSpace(*subject)
	}
	if body != nil {
		b = strings.TrimSpace(*body)
	}
	switch n := utf8.RuneCountInString(s); {
	case n == 0 && subjectRequired:
		*details = append(*details, "subject: is required")
	case n > MaxSubject:
		*details = append(*details, fmt.Sprintf("subject: must be at most %d characters", MaxSubject))
	case strings.ContainsAny(s, "\r\n\t"):
		*details = append(*details, "subject: must be one line")
	}
	switch n := utf8.RuneCountInString(b); {
	case n == 0:
		*details = append(*details, "body: is required")
	case n > MaxBody:
		*details = append(*details, fmt.Sprintf("body: must be at most %d characters", MaxBody))
	}
	return s, b
}

func (r *createRequest) input() (CreateInput, error) {
	var details []string
	in := CreateInput{Direction: Out}
	if r.Direction != nil {
		in.Direction = *r.Direction
	}
	if in.Direction != Out && in.Direction != Note {
		details = append(details, "direction: must be out or note (replies come in by mail or through the portal)")
	}
	in.ContractID = parseID("contract_id", r.ContractID, &details)
	in.ContragentID = parseID("contragent_id", r.ContragentID, &details)
	if r.ContractID == nil && r.ContragentID == nil {
		details = append(details, "contract_id: give the contract (or contragent_id for a contragent without one)")
	}
	if r.ContractID != nil && r.ContragentID != nil {
		details = append(details, "contragent_id: give contract_id or contragent_id, not both")
	}
	switch {
	case in.Direction == Note && r.Channel != nil:
		details = append(details, "channel: a note has no channel")
	case in.Direction == Out && r.Channel == nil:
		details = append(details, "channel: is required (email, post or portal)")
	case r.Channel != nil && !slices.Contains([]string{Email, Post, Portal}, *r.Channel):
		details = append(details, "channel: must be one of email, post, portal")
	default:
		in.Channel = r.Channel
	}
	email := in.Channel != nil && *in.Channel == Email
	in.Subject, in.Body = checkText(r.Subject, r.Body, email, &details)
	if r.TrackingNumber != nil {
		t := strings.TrimSpace(*r.TrackingNumber)
		switch {
		case in.Channel == nil || *in.Channel != Post:
			details = append(details, "tracking_number: only for channel post")
		case t == "" || len(t) > maxTracking || strings.IndexFunc(t, func(r rune) bool {
			return (r < '0' || r > '9') && (r < 'A' || r > 'Z') && (r < 'a' || r > 'z') && r != '-' && r != ' '
		}) >= 0:
			details = append(details, fmt.Sprintf("tracking_number: 1 to %d letters, digits, spaces or dashes", maxTracking))
		default:
			in.TrackingNumber = &t
		}
	}
	if len(r.Attachments) > MaxAttachments {
		details = append(details, fmt.Sprintf("attachments: at most %d", MaxAttachments))
	} else {
		seen := map[uuid.UUID]bool{}
		for i, raw := range r.Attachments {
			id, err := uuid.Parse(raw)
			if err != nil || len(raw) != 36 {
				details = append(details, fmt.Sprintf("attachments[%d]: must be a document id", i))
				continue
			}
			if seen[id] {
				details = append(details, fmt.Sprintf("attachments[%d]: given twice", i))
				continue
			}
			seen[id] = true
			in.Attachments = append(in.Attachments, id)
		}
	}
	if len(details) > 0 {
		return in, apierror.Validation(details...)
	}
	return in, nil
}

func (h *Handler) create(c *fiber.Ctx) error {
	prop, err := h.props.Authorize(httpserver.Context(c), auth.Current(c), c.Params("propertyId"))
	if err != nil {
		return err
	}
	var req createRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	if details := validate.Struct(&req); len(details) > 0 {
		return apierror.Validation(details...)
	}
	in, err := req.input()
	if err != nil {
		return err
	}
	m, err := h.svc.Create(httpserver.Context(c), auth.Current(c), prop, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toJSON(m))
}
