package tools_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

type link struct {
	Key, Title, URL, Locale string
}

type links struct {
	Locale string
	Links  []link
}

func TestHelpLinksShippedAndLocalized(t *testing.T) {
	app := testkit.Start(t)
	var en links
	res := app.Get("/api/v1/tools/help-links", "").Expect(http.StatusOK)
	res.JSON(&en)
	if en.Locale != "en" || len(en.Links) < 3 || en.Links[0].Key != "api-reference" || en.Links[0].URL != "/api/v1/doc" {
		t.Fatalf("%+v", en)
	}
	for _, loc := range []string{"de", "fr", "es", "uk"} {
		var l links
		app.Get("/api/v1/tools/help-links?locale="+strings.ToUpper(loc), "").Expect(http.StatusOK).JSON(&l)
		if l.Locale != loc || len(l.Links) != len(en.Links) {
			t.Fatalf("%s: %+v", loc, l)
		}
		for i, k := range l.Links {
			if k.Locale != loc || k.Title == en.Links[i].Title {
				t.Errorf("%s: link %s not translated: %+v", loc, k.Key, k)
			}
		}
	}
	var de links
	app.Get("/api/v1/tools/help-links?locale=de", "").JSON(&de)
	if de.Links[1].Key != "tenancy-law" || !strings.Contains(de.Links[1].URL, "gesetze-im-internet.de") {
		t.Errorf("tenancy law in German: %+v", de.Links[1])
	}
	// Accept-Language when no locale is asked; a language without links
	// is English.
	var uk, it links
	app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/tools/help-links",
		Headers: map[string]string{"Accept-Language": "it-IT, uk;q=0.8, en;q=0.5"}}).Expect(http.StatusOK).JSON(&uk)
	app.Get("/api/v1/tools/help-links?locale=it", "").Expect(http.StatusOK).JSON(&it)
	if uk.Locale != "uk" || it.Locale != "en" || it.Links[0].Title != en.Links[0].Title {
		t.Errorf("uk %+v it %+v", uk, it)
	}
	etag := res.Header.Get("ETag")
	app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/tools/help-links",
		Headers: map[string]string{"If-None-Match": etag}}).Expect(http.StatusNotModified)
	for _, bad := range []string{"deutsch", "d", "1x"} {
		body := app.Get("/api/v1/tools/help-links?locale="+bad, "").Expect(http.StatusBadRequest).String()
		if !strings.Contains(body, "locale") {
			t.Errorf("%s: %s", bad, body)
		}
	}
}

func TestHelpLinksFromConfiguration(t *testing.T) {
	app := testkit.Start(t, testkit.WithConfig("modules.tools.helplinks", []map[string]any{{
		"key":   "handbook",
		"title": map[string]any{"en": "Handbook", "de": "Handbuch"},
		"url":   map[string]any{"en": "https://example.com/handbook", "de": "https://example.com/de/handbuch"},
	}}))
	var de, fr links
	app.Get("/api/v1/tools/help-links?locale=de", "").Expect(http.StatusOK).JSON(&de)
	app.Get("/api/v1/tools/help-links?locale=fr", "").Expect(http.StatusOK).JSON(&fr)
	if len(de.Links) != 1 || de.Links[0] != (link{"handbook", "Handbuch", "https://example.com/de/handbuch", "de"}) {
		t.Errorf("de %+v", de)
	}
	if fr.Locale != "fr" || fr.Links[0] != (link{"handbook", "Handbook", "https://example.com/handbook", "en"}) {
		t.Errorf("fr %+v", fr)
	}
}

type trackingAnswer struct {
	Number      string  `json:"number"`
	Carrier     string  `json:"carrier"`
	CarrierName string  `json:"carrier_name"`
	Format      string  `json:"format"`
	Country     *string `json:"country"`
	Service     *string `json:"service"`
	TrackingURL *string `json:"tracking_url"`
}

func TestPostalTracking(t *testing.T) {
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)
	path := func(n string) string { return "/api/v1/tools/postal-tracking/" + url.PathEscape(n) }
	var s10 trackingAnswer
	app.Get(path("rr 123 456 785 de"), u.Token).Expect(http.StatusOK).JSON(&s10)
	if s10.Number != "RR123456785DE" || s10.Carrier != "upu" || s10.CarrierName != "Deutsche Post" || *s10.Country != "DE" ||
		*s10.Service != "registered letter" || *s10.TrackingURL != "https://www.deutschepost.de/de/s/sendungsverfolgung.html?piececode=RR123456785DE" {
		t.Errorf("%+v", s10)
	}
	for n, carrier := range map[string]string{"1Z5R89390357567127": "ups", "3318810025": "dhl_express", "986578788855": "fedex",
		"041441760228964": "fedex", "20450123456789": "nova_poshta", "RB123456785CF": "upu"} {
		var a trackingAnswer
		app.Get(path(n), u.Token).Expect(http.StatusOK).JSON(&a)
		if a.Carrier != carrier || (carrier != "upu" && a.TrackingURL == nil) {
			t.Errorf("%s: %+v", n, a)
		}
	}
	for n, code := range map[string]string{
		"RR123456786DE":         "check_digit_mismatch",
		"1Z5R89390357567128":    "check_digit_mismatch",
		"3318810010":            "check_digit_mismatch",
		"hello":                 "unknown_tracking_number",
		"RR 1234 5678 DE":       "unknown_tracking_number",
		"a_b":                   "unknown_tracking_number",
		strings.Repeat("1", 65): "unknown_tracking_number",
	} {
		res := app.Get(path(n), u.Token).Expect(http.StatusUnprocessableEntity)
		if res.Map()["error"] != code {
			t.Errorf("%s: %s", n, res.String())
		}
	}
	app.Get(path("RR123456785DE"), "").Expect(http.StatusUnauthorized)
}
