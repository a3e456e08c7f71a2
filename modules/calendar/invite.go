package calendar

import (
	"bytes"
	"fmt"
	"time"

	ics "github.com/arran4/golang-ical"
	"github.com/google/uuid"
)

// Invitation is a booked visit (BookVisit) as one person outside the
// workspace receives it by mail: the tenant or the service provider, in
// their language.
type Invitation struct {
	// EventID is the id BookVisit returned: the UID is the one the
	// members' feed gives the event, so a calendar that has both keeps one.
	EventID     uuid.UUID
	Title       string
	Description string
	Location    string
	Start, End  time.Time
	// Stamp is when the invitation is made (DTSTAMP).
	Stamp time.Time
}

// InvitationICS is in as an iCalendar file with one event (METHOD PUBLISH:
// the reader's calendar adds it; no reply is asked for), times in UTC,
// lines ended by CRLF, written with the library the feed is written with.
func InvitationICS(in Invitation) ([]byte, error) {
	cal := ics.NewCalendarFor("propman")
	cal.SetMethod(ics.MethodPublish)
	v := cal.AddEvent(in.EventID.String() + uidDomain)
	v.SetDtStampTime(in.Stamp.UTC())
	v.SetSequence(0)
	v.SetSummary(icalText(in.Title))
	if in.Description != "" {
		v.SetDescription(icalText(in.Description))
	}
	if in.Location != "" {
		v.SetLocation(icalText(in.Location))
	}
	v.AddCategory(Repair)
	v.SetProperty(ics.ComponentPropertyDtStart, in.Start.UTC().Format(localFormat)+"Z")
	v.SetProperty(ics.ComponentPropertyDtEnd, in.End.UTC().Format(localFormat)+"Z")
	var b bytes.Buffer
	if err := cal.SerializeTo(&b, ics.WithNewLineWindows); err != nil {
		return nil, fmt.Errorf("invitation: %w", err)
	}
	return b.Bytes(), nil
}
