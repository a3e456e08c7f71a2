package repairs

import (
	"bytes"
	"context"
	"html"
	"strings"

	"github.com/google/uuid"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/calendar"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/mail"
)

// bookedVisit is what PickSlot booked, for the invitations.
type bookedVisit struct {
	eventID  uuid.UUID
	provider *contragents.Contragent
	slot     Slot
}

// invite mails the booked visit as a calendar entry (.ics) to the tenant,
// in the contract's language, and to the provider, in the order's: the
// members have it in their calendars and feeds already. A mail that
// cannot go is logged; the visit stays booked and the thread says when.
func (s *Service) invite(ctx context.Context, c *contracts.Contract, r *Request, o *WorkOrder, b *bookedVisit) {
	if b == nil {
		return
	}
	places, err := properties.Places(ctx, s.db, []uuid.UUID{r.PropertyID})
	if err != nil {
		s.log.Error("repairs: the visit's place for the invitations", "request", r.ID, "error", err)
		return
	}
	place := places[r.PropertyID]
	if tenant, err := s.contragents.ByID(ctx, s.db, c.TenantID); err != nil {
		s.log.Error("repairs: the tenant for the invitation", "request", r.ID, "error", err)
	} else if email := accounts.NormalizeEmail(tenant.Email); accounts.ValidEmail(email) {
		w := s.words(c.Locale)
		s.sendInvitation(ctx, w, email, tenant.Name, place, r, b, w.say("repairs.invitation.provider")+": "+b.provider.Name)
	}
	if email := accounts.NormalizeEmail(b.provider.Email); accounts.ValidEmail(email) {
		w := s.words(o.Locale)
		desc := r.Description
		if r.AccessNotes != "" {
			desc += "\n" + w.say("repairs.order.access") + ": " + r.AccessNotes
		}
		s.sendInvitation(ctx, w, email, b.provider.Name, place, r, b, desc)
	}
}

// invitationFile is the attachment's name.
const invitationFile = "repair-visit.ics"

func (s *Service) sendInvitation(ctx context.Context, w wording, to, name, place string, r *Request, b *bookedVisit, desc string) {
	vars := []string{"name", name, "title", r.Title, "visit", w.span(b.slot), "address", place, "provider", b.provider.Name}
	file, err := calendar.InvitationICS(calendar.Invitation{EventID: b.eventID, Title: w.say("repairs.invitation.summary", vars...),
		Description: desc, Location: place, Start: b.slot.Start, End: b.slot.End, Stamp: s.now()})
	if err != nil {
		s.log.Error("repairs: the invitation's calendar file", "request", r.ID, "error", err)
		return
	}
	text := w.say("repairs.invitation.body", vars...)
	var htm strings.Builder
	for _, p := range strings.Split(text, "\n\n") {
		htm.WriteString("<p>" + strings.ReplaceAll(html.EscapeString(p), "\n", "<br>") + "</p>")
	}
	err = s.mailer.Send(ctx, mail.Message{To: to, Subject: w.say("repairs.invitation.subject", vars...), Text: text, HTML: htm.String(),
		Attachments: []mail.Attachment{{Filename: invitationFile, ContentType: "text/calendar; charset=utf-8; method=PUBLISH",
			Content: bytes.NewReader(file)}}})
	if err != nil {
		s.log.Warn("repairs: an invitation could not be sent", "request", r.ID, "error", err)
	}
}
