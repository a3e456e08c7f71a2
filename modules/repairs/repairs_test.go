package repairs_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

type request struct {
	ID         string `json:"id"`
	Status     string `json:"status"`
	DeadlineAt string `json:"deadline_at"`
	Visit      *struct {
		Start string `json:"start"`
		End   string `json:"end"`
	} `json:"visit"`
	WorkOrder *struct {
		Status        string   `json:"status"`
		InvoiceAmount *float64 `json:"invoice_amount"`
		Note          string   `json:"note"`
		Slots         []struct {
			Start string `json:"start"`
		} `json:"slots"`
	} `json:"work_order"`
}

type list struct {
	Requests []request `json:"repair_requests"`
}

// The whole walk in German: the tenant reports, the member triages and
// orders, the first provider declines, a second accepts and offers times,
// the tenant picks one, the provider marks it done, the member closes. Each
// step is a message of the contract's thread in the contract's language,
// and the provider's mail is German too.
func TestRepairFromReportToClosed(t *testing.T) {
	app := start(t)
	l := newLease(t, app, "de", "auftrag@klempner.example")
	report := map[string]any{"title": "Heizung fällt aus", "description": "Seit gestern bleiben alle Heizkörper kalt.",
		"category": "heating", "urgency": "urgent", "access_notes": "Schlüssel bei Nachbarin, 2. OG", "preferred_times": "werktags ab 16 Uhr"}
	var r request
	app.Post(l.tenantPath(), l.tenant.Token, report).Expect(http.StatusCreated).JSON(&r)
	if r.Status != "reported" || r.DeadlineAt != "2026-11-25T10:00:00Z" {
		t.Fatalf("reported: %+v (the deadline of urgent is 3 days after 2026-11-22T10:00Z)", r)
	}
	one := l.memberPath() + "/" + r.ID
	app.Post(one+"/transition", l.landlord.Token, map[string]any{"to": "triaged"}).Expect(http.StatusOK)

	// A first provider declines: the request is triaged again.
	first := l.order(t, app, r.ID)
	if m, _ := app.Mail.Last(l.email); m.Subject != "Reparaturauftrag: Heizung fällt aus" ||
		!strings.Contains(m.Text, "Guten Tag Klempnerei Wasser GmbH,") ||
		!strings.Contains(m.Text, "Zu erledigen bis: 25.11.2026, 10:00 Uhr (UTC)") ||
		!strings.Contains(m.Text, "Zugang: Schlüssel bei Nachbarin, 2. OG") ||
		!strings.Contains(m.Text, "Dringlichkeit: Dringend") || !strings.Contains(m.Text, "Kategorie: Heizung") ||
		!strings.Contains(m.Text, "http://localhost:8080/work-orders/"+first) ||
		!strings.Contains(m.Text, "Der Link ist bis zum 22.12.2026, 10:00 Uhr (UTC) gültig.") {
		t.Errorf("the work order mail:\n%s\n%s", m.Subject, m.Text)
	}
	app.Post("/api/v1/work-orders/"+first+"/decline", "", map[string]any{"note": "Keine Kapazität"}).Expect(http.StatusOK)
	app.Get(one, l.landlord.Token).Expect(http.StatusOK).JSON(&r)
	if r.Status != "triaged" || r.WorkOrder == nil || r.WorkOrder.Status != "declined" {
		t.Fatalf("after the decline: %+v", r)
	}
	// The declined link answers no more actions.
	if res := app.Post("/api/v1/work-orders/"+first+"/accept", "", nil).Expect(http.StatusConflict); code(res) != "invalid_transition" {
		t.Errorf("accepting a declined order: %s", res.Body)
	}

	token := l.order(t, app, r.ID)
	page := "/api/v1/work-orders/" + token
	var view struct {
		Status  string `json:"status"`
		Place   string `json:"place"`
		Request struct {
			Title       string `json:"title"`
			AccessNotes string `json:"access_notes"`
		} `json:"request"`
	}
	app.Get(page, "").Expect(http.StatusOK).JSON(&view)
	if view.Status != "sent" || view.Request.Title != "Heizung fällt aus" || view.Place != "Flat 3, Lindenstraße 5, 10115 Berlin" {
		t.Errorf("the provider's page: %+v", view)
	}
	// Times before accepting are refused; so is a slot in the past.
	app.Post(page+"/slots", "", map[string]any{"slots": []map[string]any{{"start": "2026-11-24T08:00:00Z", "end": "2026-11-24T10:00:00Z"}}}).
		Expect(http.StatusConflict)
	app.Post(page+"/accept", "", nil).Expect(http.StatusOK)
	app.Post(page+"/slots", "", map[string]any{"slots": []map[string]any{{"start": "2026-11-21T08:00:00Z", "end": "2026-11-21T10:00:00Z"}}}).
		Expect(http.StatusBadRequest)
	app.Post(page+"/slots", "", map[string]any{"slots": []map[string]any{
		{"start": "2026-11-24T08:00:00Z", "end": "2026-11-24T10:00:00Z"}, {"start": "2026-11-24T15:00:00Z", "end": "2026-11-24T17:00:00Z"}}}).
		Expect(http.StatusOK)
	// Done before the visit is booked: refused.
	app.Post(page+"/done", "", map[string]any{"note": "x"}).Expect(http.StatusConflict)

	// The tenant picks an offered time; one not offered is a 400.
	mine := l.tenantPath() + "/" + r.ID
	app.Get(mine, l.tenant.Token).Expect(http.StatusOK).JSON(&r)
	if r.WorkOrder == nil || len(r.WorkOrder.Slots) != 2 {
		t.Fatalf("the tenant sees %+v", r.WorkOrder)
	}
	app.Post(mine+"/slot", l.tenant.Token, map[string]any{"start": "2026-11-24T09:00:00Z"}).Expect(http.StatusBadRequest)
	app.Post(mine+"/slot", l.tenant.Token, map[string]any{"start": "2026-11-24T15:00:00Z"}).Expect(http.StatusOK).JSON(&r)
	if r.Status != "scheduled" || r.Visit == nil || r.Visit.Start != "2026-11-24T15:00:00Z" || r.Visit.End != "2026-11-24T17:00:00Z" {
		t.Fatalf("after the pick: %+v", r)
	}
	if res := app.Post(mine+"/slot", l.tenant.Token, map[string]any{"start": "2026-11-24T08:00:00Z"}).Expect(http.StatusConflict); code(res) != "invalid_transition" {
		t.Errorf("a second pick: %s", res.Body)
	}
	// The visit is in the members' calendar, at the property, once.
	var events struct {
		Events []struct {
			Title      string  `json:"title"`
			Kind       string  `json:"kind"`
			StartsAt   string  `json:"starts_at"`
			EndsAt     string  `json:"ends_at"`
			PropertyID *string `json:"property_id"`
		} `json:"calendar_events"`
	}
	app.Get("/api/v1/calendar-events?kind=repair", l.landlord.Token).Expect(http.StatusOK).JSON(&events)
	if len(events.Events) != 1 || events.Events[0].StartsAt != "2026-11-24T15:00:00Z" || events.Events[0].EndsAt != "2026-11-24T17:00:00Z" ||
		events.Events[0].PropertyID == nil || !strings.HasPrefix(events.Events[0].Title, "Heizung fällt aus – ") {
		t.Errorf("the visit in the calendar: %+v", events.Events)
	}

	app.Clock.Advance(2 * 24 * time.Hour)
	app.Post(page+"/done", "", map[string]any{"note": "Umwälzpumpe getauscht.", "invoice_amount": 412.35}).Expect(http.StatusOK)
	app.Get(one, l.landlord.Token).Expect(http.StatusOK).JSON(&r)
	if r.Status != "done" || r.WorkOrder.InvoiceAmount == nil || *r.WorkOrder.InvoiceAmount != 412.35 || r.WorkOrder.Note != "Umwälzpumpe getauscht." {
		t.Fatalf("done: %+v %+v", r, r.WorkOrder)
	}
	// The tenant is not shown the invoice.
	app.Get(mine, l.tenant.Token).Expect(http.StatusOK).JSON(&r)
	if r.WorkOrder.InvoiceAmount != nil {
		t.Error("the tenant sees the invoice amount")
	}
	app.Post(one+"/transition", l.landlord.Token, map[string]any{"to": "closed"}).Expect(http.StatusOK).JSON(&r)
	if r.Status != "closed" {
		t.Fatalf("closed: %+v", r)
	}
	if res := app.Post(one+"/transition", l.landlord.Token, map[string]any{"to": "triaged"}).Expect(http.StatusConflict); code(res) != "invalid_transition" {
		t.Errorf("triaging a closed request: %s", res.Body)
	}

	// Every step in the thread, in German, to the word.
	want := []string{
		"Reparaturmeldung eingegangen: Heizung fällt aus",
		"Ihre Reparaturmeldung wird bearbeitet: Heizung fällt aus",
		"Handwerksbetrieb beauftragt: Heizung fällt aus",
		"Handwerksbetrieb nicht verfügbar: Heizung fällt aus",
		"Handwerksbetrieb beauftragt: Heizung fällt aus",
		"Auftrag angenommen: Heizung fällt aus",
		"Bitte wählen Sie einen Termin: Heizung fällt aus",
		"Termin bestätigt: Heizung fällt aus",
		"Reparatur ausgeführt: Heizung fällt aus",
		"Reparaturmeldung abgeschlossen: Heizung fällt aus",
	}
	thread := l.thread(t, app)
	var subjects []string
	bodies := map[string]string{}
	for _, m := range thread {
		subjects = append(subjects, m.Subject)
		bodies[m.Subject] = m.Body
		if m.Channel == nil || *m.Channel != "email" {
			t.Errorf("%q is not mailed to the tenant", m.Subject)
		}
	}
	if !slices.Equal(subjects, want) {
		t.Fatalf("the thread:\n%s\nwant\n%s", strings.Join(subjects, "\n"), strings.Join(want, "\n"))
	}
	for subject, body := range map[string]string{
		want[0]: "Wir haben die Reparaturmeldung „Heizung fällt aus“ (Heizung, Dringlichkeit: Dringend) aufgenommen. Wir veranlassen die Reparatur und streben an, dass sie bis zum 25.11.2026, 10:00 Uhr (UTC) erledigt ist.",
		want[3]: "Klempnerei Wasser GmbH kann die Reparatur „Heizung fällt aus“ nicht ausführen.",
		want[6]: "– 24.11.2026, 08:00 – 10:00 Uhr (UTC)\n– 24.11.2026, 15:00 – 17:00 Uhr (UTC)\n\nBitte wählen Sie im Mieterportal einen Termin aus.",
		want[7]: "Der Termin mit Klempnerei Wasser GmbH für die Reparatur „Heizung fällt aus“ ist bestätigt: 24.11.2026, 15:00 – 17:00 Uhr (UTC).",
	} {
		if !strings.Contains(bodies[subject], body) {
			t.Errorf("%s:\n%s\nlacks\n%s", subject, bodies[subject], body)
		}
	}

	// The token is stored hashed.
	var hashes []string
	if err := app.DB.NewRaw("SELECT token_hash FROM repair_work_orders").Scan(context.Background(), &hashes); err != nil {
		t.Fatal(err)
	}
	for _, h := range hashes {
		if strings.Contains(h, token) || strings.Contains(h, first) {
			t.Fatal("a token is stored as it is")
		}
	}
}

// French: the tenant's messages and the provider's mail, word for word;
// a rejection carries its reason.
func TestRepairWordsInFrench(t *testing.T) {
	app := start(t)
	l := newLease(t, app, "fr", "contact@plombier.example")
	var r request
	app.Post(l.tenantPath(), l.tenant.Token, map[string]any{"title": "Fuite sous l'évier", "description": "L'eau coule en continu.",
		"category": "plumbing", "urgency": "emergency"}).Expect(http.StatusCreated).JSON(&r)
	if r.DeadlineAt != "2026-11-23T10:00:00Z" {
		t.Errorf("the deadline of an emergency: %s", r.DeadlineAt)
	}
	one := l.memberPath() + "/" + r.ID
	app.Post(one+"/transition", l.landlord.Token, map[string]any{"to": "triaged"}).Expect(http.StatusOK)
	l.order(t, app, r.ID)
	m, _ := app.Mail.Last(l.email)
	for _, want := range []string{"Bonjour Klempnerei Wasser GmbH,", "Catégorie : Plomberie", "Niveau d'urgence : Urgence immédiate",
		"Date limite : 23/11/2026 à 10h00 (UTC)", "Le lien est valable jusqu'au 22/12/2026 à 10h00 (UTC)."} {
		if !strings.Contains(strings.ReplaceAll(m.Text, ": ", " : "), want) {
			t.Errorf("the French work order mail lacks %q:\n%s", want, m.Text)
		}
	}
	if m.Subject != "Ordre d'intervention : Fuite sous l'évier" {
		t.Errorf("subject %q", m.Subject)
	}
	thread := l.thread(t, app)
	if len(thread) != 3 || thread[0].Subject != "Demande d'intervention reçue : Fuite sous l'évier" ||
		!strings.Contains(thread[0].Body, "« Fuite sous l'évier » (Plomberie, niveau d'urgence : Urgence immédiate)") ||
		!strings.Contains(thread[0].Body, "au plus tard le 23/11/2026 à 10h00 (UTC)") ||
		thread[2].Subject != "Artisan mandaté : Fuite sous l'évier" ||
		!strings.Contains(thread[2].Body, "Nous avons confié la réparation « Fuite sous l'évier » à Klempnerei Wasser GmbH.") {
		t.Fatalf("the French thread: %+v", thread)
	}

	// A second request, rejected with a reason.
	app.Post(l.tenantPath(), l.tenant.Token, map[string]any{"title": "Lave-linge", "description": "Ne démarre plus.",
		"category": "appliance", "urgency": "normal"}).Expect(http.StatusCreated).JSON(&r)
	app.Post(l.memberPath()+"/"+r.ID+"/transition", l.landlord.Token, map[string]any{"to": "rejected"}).Expect(http.StatusBadRequest)
	app.Post(l.memberPath()+"/"+r.ID+"/transition", l.landlord.Token,
		map[string]any{"to": "rejected", "reason": "L'appareil appartient au locataire."}).Expect(http.StatusOK).JSON(&r)
	thread = l.thread(t, app)
	last := thread[len(thread)-1]
	if r.Status != "rejected" || last.Subject != "Demande d'intervention refusée : Lave-linge" ||
		!strings.Contains(last.Body, "pour le motif suivant :\nL'appareil appartient au locataire.") {
		t.Errorf("the rejection: %+v", last)
	}
}
