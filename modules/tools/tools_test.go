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
	// Accept-Language when no locale is asked, its languages without
	// links passed over; a locale the service does not have is a 400.
	var uk links
	app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/tools/help-links",
		Headers: map[string]string{"Accept-Language": "it-IT, uk;q=0.8, en;q=0.5"}}).Expect(http.StatusOK).JSON(&uk)
	if uk.Locale != "uk" {
		t.Errorf("uk %+v", uk)
	}
	if body := app.Get("/api/v1/tools/help-links?locale=it", "").Expect(http.StatusBadRequest).String(); !strings.Contains(body, "it is not a language of this service") {
		t.Errorf("locale=it: %s", body)
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

// A signed-in caller gets their profile's language unless ?locale= says
// otherwise; Accept-Language comes after the profile.
func TestHelpLinksInTheProfileLanguage(t *testing.T) {
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)
	app.Put("/api/v1/user/profile", u.Token, map[string]any{"locale": "fr"}).Expect(http.StatusOK)
	var fr, de links
	app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/tools/help-links", Token: u.Token,
		Headers: map[string]string{"Accept-Language": "uk"}}).Expect(http.StatusOK).JSON(&fr)
	if fr.Locale != "fr" || fr.Links[1].Title != "Location d'un logement - droits et obligations" ||
		fr.Links[1].URL != "https://www.service-public.fr/particuliers/vosdroits/N337" {
		t.Errorf("profile fr: %+v", fr)
	}
	app.Get("/api/v1/tools/help-links?locale=de", u.Token).Expect(http.StatusOK).JSON(&de)
	if de.Locale != "de" || de.Links[1].Title != "Mietrecht im BGB (§§ 535 ff.)" {
		t.Errorf("?locale=de: %+v", de)
	}
	// A broken token on this public route is no error: it is read as no token.
	var en links
	app.Get("/api/v1/tools/help-links", "not-a-token").Expect(http.StatusOK).JSON(&en)
	if en.Locale != "en" {
		t.Errorf("broken token: %+v", en)
	}
}
