package messages_test

import (
	"net/http"
	"testing"

	"github.com/propman/propman/platform/mail/mailtest"
)

// A letter's tracking number is shown with its carrier and tracking page
// (modules/tools/tracking); one that fits no format is kept as written,
// without them.
func TestPostTrackingNumberNamesItsCarrier(t *testing.T) {
	app := start(t, mailtest.Start(t))
	l := newLease(t, app, "anna@example.com")
	type tracked struct {
		Number   *string `json:"tracking_number"`
		Tracking *struct {
			Carrier     string  `json:"carrier"`
			CarrierName string  `json:"carrier_name"`
			Country     *string `json:"country"`
			URL         *string `json:"url"`
		} `json:"tracking"`
	}
	var m tracked
	app.Post(l.messages(), l.landlord.Token, map[string]any{"contract_id": l.contract, "channel": "post",
		"body": "Registered letter", "tracking_number": "RR 123 456 785 DE"}).Expect(http.StatusCreated).JSON(&m)
	if *m.Number != "RR 123 456 785 DE" || m.Tracking == nil || m.Tracking.Carrier != "upu" || m.Tracking.CarrierName != "Deutsche Post" ||
		*m.Tracking.Country != "DE" || *m.Tracking.URL != "https://www.deutschepost.de/de/s/sendungsverfolgung.html?piececode=RR123456785DE" {
		t.Fatalf("%+v", m)
	}
	var list struct{ Messages []tracked }
	app.Get(l.messages(), l.landlord.Token).Expect(http.StatusOK).JSON(&list)
	if len(list.Messages) != 1 || list.Messages[0].Tracking == nil || list.Messages[0].Tracking.Carrier != "upu" {
		t.Fatalf("%+v", list)
	}
	for _, n := range []string{"RR 1234 5678 DE", "RR123456786DE"} {
		var u tracked
		app.Post(l.messages(), l.landlord.Token, map[string]any{"contract_id": l.contract, "channel": "post",
			"body": "Letter", "tracking_number": n}).Expect(http.StatusCreated).JSON(&u)
		if *u.Number != n || u.Tracking != nil {
			t.Errorf("%s: %+v", n, u)
		}
	}
}
