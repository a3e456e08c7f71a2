package contragents_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/platform/testkit"
)

func TestImportAddsEveryRow(t *testing.T) {
	app := testkit.Start(t)
	u := newUser(t, app)
	body := "\ufeffName,KIND,roles,email,phone,address,tax_id,notes\r\n" +
		"Anna Schmidt,person,tenant,Anna@Example.com,+4915112345678,\"Hauptstr. 5,\nBerlin\",,\r\n" +
		"\r\n" +
		"Stadtwerke GmbH,Company,provider | tenant,,,,DE123,\"said \"\"hi\"\"\"\r\n" +
		"Bob, person ,Guarantor;Tenant,,,,,\r\n"
	res := importCSV(app, u.Token, body).Expect(http.StatusCreated)
	if res.Map()["created"] != float64(3) {
		t.Fatalf("import: %s", res.String())
	}
	var l contragentList
	app.Get(base, u.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 3 {
		t.Fatalf("%d contragents after import", l.Total)
	}
	a, s, b := l.Contragents[0], l.Contragents[1], l.Contragents[2]
	if a.Name != "Anna Schmidt" || a.Email != "anna@example.com" || a.Address != "Hauptstr. 5,\nBerlin" || a.Phone != "+4915112345678" {
		t.Errorf("row 1: %+v", a)
	}
	if s.Kind != "company" || !reflect.DeepEqual(s.Roles, []string{"tenant", "provider"}) || s.TaxID != "DE123" || s.Notes != `said "hi"` {
		t.Errorf("row 2: %+v", s)
	}
	if b.Kind != "person" || !reflect.DeepEqual(b.Roles, []string{"tenant", "guarantor"}) {
		t.Errorf("row 3: %+v", b)
	}
	// Only the required columns, any order.
	importCSV(app, u.Token, "roles,name,kind\nprovider,Plumber,person").Expect(http.StatusCreated)
}

func TestImportReportsEveryBadLineAndWritesNothing(t *testing.T) {
	app := testkit.Start(t)
	u := newUser(t, app)
	create(t, app, u.Token, tenant("Existing"))
	before := snapshot(t, app)

	cases := []struct {
		name, body string
		want       []string
	}{
		{"bad rows", "name,kind,roles,email,phone\n" +
			"Good,person,tenant,,\n" +
			",robot,tenant,,\n" + // line 3: two problems
			"Good too,person,tenant,,\n" +
			"\"Two\nlines\",person,,x@y,123\n" + // starts on line 5
			"Short,person\n", // line 7
			[]string{
				"line 3: kind: must be one of person, company", "line 3: name: must not be empty",
				`line 5: roles: must name at least one role (tenant, guarantor, provider)`,
				"line 5: name: must not contain control characters",
				"line 5: email: must be a valid email address",
				"line 5: phone: must be an international phone number (E.164) such as +4915112345678",
				"line 7: has 2 fields, the header 5",
			}},
		{"duplicate role", "name,kind,roles\nA,person,tenant;TENANT\n", []string{`line 2: roles: "tenant" is given twice`}},
		{"header", "name,type,kind,name\n", []string{
			`line 1: unknown column "type"; columns are name,kind,roles,email,phone,address,tax_id,notes`,
			`line 1: column "name" is given twice`, `line 1: column "roles" is required`}},
		{"empty", "", []string{"file: is empty; the first line names the columns: name,kind,roles,email,phone,address,tax_id,notes"}},
		{"header only", "name,kind,roles\n", []string{"file: has no rows after the header"}},
		{"broken quote", "name,kind,roles\nA,person,tenant\n\"B,person,tenant\n", []string{
			`line 3: malformed CSV (extraneous or missing " in quoted-field); nothing after it was read`}},
		{"not UTF-8", "name,kind,roles\n\xff,person,tenant\n", []string{"file: must be UTF-8 text"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := details(t, importCSV(app, u.Token, tc.body)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("details %q\nwant    %q", got, tc.want)
			}
		})
	}

	// Too many rows: one more than the bound.
	var sb strings.Builder
	sb.WriteString("name,kind,roles\n")
	for i := 0; i <= contragents.MaxImportRows; i++ {
		fmt.Fprintf(&sb, "N%d,person,tenant\n", i)
	}
	got := details(t, importCSV(app, u.Token, sb.String()))
	if len(got) != 1 || !strings.Contains(got[0], "more than 10000 rows") {
		t.Errorf("too many rows: %q", got)
	}
	// Not CSV: 415.
	res := app.Post(base+"/import", u.Token, map[string]any{"name": "A"})
	if res.Status != http.StatusUnsupportedMediaType || res.Map()["error"] != "unsupported_type" {
		t.Errorf("JSON body: %d %s, want 415", res.Status, res.String())
	}
	if after := snapshot(t, app); !reflect.DeepEqual(before, after) {
		t.Fatal("a refused import wrote rows")
	}
}

// A body over the 1 MiB limit is 413, answered while the request is read
// (so over a real socket), and nothing is written. The server answers and
// closes while the client still writes, so the answer is read from a raw
// connection while a goroutine writes (as platform/httpserver's test does).
func TestImportOverTheBodyLimit(t *testing.T) {
	app := testkit.Start(t, testkit.WithListener())
	u := newUser(t, app)
	big := "name,kind,roles\n" + strings.Repeat("Somebody with a long name,person,tenant\n", 30000)
	conn, err := net.Dial("tcp", strings.TrimPrefix(app.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	go func() {
		_, _ = io.WriteString(conn, "POST /api/v1/contragents/import HTTP/1.1\r\nHost: propman\r\nContent-Type: text/csv\r\n"+
			"Authorization: Bearer "+u.Token+"\r\nContent-Length: "+strconv.Itoa(len(big))+"\r\n\r\n"+big)
	}()
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	defer res.Body.Close()
	var e struct {
		Error string `json:"error"`
	}
	if err := json.NewDecoder(res.Body).Decode(&e); err != nil || res.StatusCode != http.StatusRequestEntityTooLarge || e.Error != "payload_too_large" {
		t.Errorf("%d bytes: %d %q (%v), want 413 payload_too_large", len(big), res.StatusCode, e.Error, err)
	}
	if rows := snapshot(t, app); len(rows) != 0 {
		t.Fatalf("%d rows written", len(rows))
	}
}
