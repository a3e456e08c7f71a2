package messages

import (
	"time"

	"github.com/google/uuid"

	"github.com/propman/propman/platform/tracking"
)

// authorJSON is who wrote a message.
type authorJSON struct {
	// Type is "user" (a member of the workspace, or a tenant in the
	// portal), "contragent" (a reply by mail) or "system" (a notice).
	Type         string  `json:"type"`
	UserID       *int64  `json:"user_id"`
	ContragentID *string `json:"contragent_id"`
}

// messageJSON is a message as clients see it.
type messageJSON struct {
	ID             string     `json:"id"`
	ThreadID       string     `json:"thread_id"`
	PropertyID     string     `json:"property_id"`
	ContractID     *string    `json:"contract_id"`
	ContragentID   string     `json:"contragent_id"`
	Author         authorJSON `json:"author"`
	Direction      string     `json:"direction"`
	Channel        *string    `json:"channel"`
	Subject        string     `json:"subject"`
	Body           string     `json:"body"`
	Attachments    []string   `json:"attachments"`
	Address        *string    `json:"address"`
	Delivery       *string    `json:"delivery"`
	LastError      *string    `json:"last_error"`
	Attempts       int        `json:"attempts"`
	TrackingNumber *string    `json:"tracking_number"`
	Tracking       *trackJSON `json:"tracking"`
	SentAt         *string    `json:"sent_at"`
	CreatedAt      string     `json:"created_at"`
	UpdatedAt      string     `json:"updated_at"`
}

// trackJSON is what the tracking number tells about itself (carrier and
// tracking page, from modules/tools/tracking); null when the number fits
// no known format or its check digit, or there is none.
type trackJSON struct {
	Carrier     string  `json:"carrier"`
	CarrierName string  `json:"carrier_name"`
	Country     *string `json:"country"`
	URL         *string `json:"url"`
}

func trackingOf(number *string) *trackJSON {
	if number == nil {
		return nil
	}
	r, err := tracking.Identify(*number)
	if err != nil {
		return nil
	}
	t := &trackJSON{Carrier: r.Carrier, CarrierName: r.CarrierName}
	if r.Country != "" {
		t.Country = &r.Country
	}
	if r.URL != "" {
		t.URL = &r.URL
	}
	return t
}

func idString(id *uuid.UUID) *string {
	if id == nil {
		return nil
	}
	s := id.String()
	return &s
}

func timeString(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.UTC().Format(time.RFC3339)
	return &s
}

func toJSON(m *Message) messageJSON {
	out := messageJSON{
		ID: m.ID.String(), ThreadID: m.ThreadID.String(), PropertyID: m.PropertyID.String(),
		ContractID: idString(m.ContractID), ContragentID: m.ContragentID.String(),
		Author:    authorJSON{Type: "system", UserID: m.AuthorUserID, ContragentID: idString(m.AuthorContragentID)},
		Direction: m.Direction, Channel: m.Channel, Subject: m.Subject, Body: m.Body,
		Attachments: make([]string, len(m.Attachments)), Delivery: m.Delivery, LastError: m.LastError,
		Attempts: m.Attempts, TrackingNumber: m.TrackingNumber, Tracking: trackingOf(m.TrackingNumber), SentAt: timeString(m.SentAt),
		CreatedAt: m.CreatedAt.UTC().Format(time.RFC3339), UpdatedAt: m.UpdatedAt.UTC().Format(time.RFC3339),
	}
	switch {
	case m.AuthorUserID != nil:
		out.Author.Type = "user"
	case m.AuthorContragentID != nil:
		out.Author.Type = "contragent"
	}
	if m.Address != "" {
		out.Address = &m.Address
	}
	for i, a := range m.Attachments {
		out.Attachments[i] = a.String()
	}
	return out
}

// view is the message as the activity log records it: no body.
func (s *Service) view(m *Message) map[string]any {
	return map[string]any{
		"thread_id": m.ThreadID.String(), "direction": m.Direction, "channel": m.Channel, "subject": m.Subject,
		"attachments": len(m.Attachments), "delivery": m.Delivery, "tracking_number": m.TrackingNumber,
	}
}
