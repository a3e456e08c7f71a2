package calendar

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"
)

// TestAppendWindowIsEncodingJSON holds the hand-written encoder to what
// encoding/json writes of the same answer.
func TestAppendWindowIsEncodingJSON(t *testing.T) {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	id, p := uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7())
	rec := time.Date(2027, 3, 28, 8, 0, 0, 0, time.UTC)
	list := []Occurrence{
		{ID: id.String() + "/20270328T080000Z", EventID: &id, Source: SourceEvent, Kind: Viewing, Title: "Tab\there \"quoted\" \\ back\u2028ü €",
			Description: "Line\nnext\r\x01", Start: rec, End: rec.Add(time.Hour), Loc: berlin, Recurrence: &rec, PropertyID: &p, Sequence: 3},
		{ID: "rent_due:x:2027-01-03", Source: SourceDerived, Kind: RentDue, Title: "Rent <due> & co", Start: time.Date(2027, 1, 3, 0, 0, 0, 0, time.UTC),
			End: time.Date(2027, 1, 3, 0, 0, 0, 0, time.UTC), AllDay: true, ContractID: &p},
	}
	got := appendWindow(nil, "2027-01-01", "2027-12-31", "UTC", list)
	want := windowJSON{From: "2027-01-01", To: "2027-12-31", TimeZone: "UTC"}
	for i := range list {
		want.Occurrences = append(want.Occurrences, occurrenceView(&list[i]))
	}
	var a, b any
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, got)
	}
	wb, _ := json.Marshal(want)
	_ = json.Unmarshal(wb, &b)
	ga, _ := json.Marshal(a)
	gb, _ := json.Marshal(b)
	if string(ga) != string(gb) {
		t.Fatalf("got  %s\nwant %s", ga, gb)
	}
}
