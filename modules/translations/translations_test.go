package translations_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/translations/locales"
	"github.com/propman/propman/platform/testkit"
)

type dictionary struct {
	Locale       string            `json:"locale"`
	Translations map[string]string `json:"translations"`
}

func file(t *testing.T, locale string) map[string]string {
	t.Helper()
	b, err := locales.FS.ReadFile(locale + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// A key German lacks is served in English; a key it has is German.
func TestWholeDictionaryFallsBackToEnglishPerKey(t *testing.T) {
	app := testkit.Start(t)
	user := accountstest.NewUser(t, app)
	en, de := file(t, "en"), file(t, "de")
	var got dictionary
	app.Get("/api/v1/translations/DE", user.Token).Expect(http.StatusOK).JSON(&got)
	if got.Locale != "de" || len(got.Translations) != len(en) {
		t.Fatalf("locale %q with %d keys, want de with %d", got.Locale, len(got.Translations), len(en))
	}
	const lacking = "charges.overdue"
	if _, ok := de[lacking]; ok {
		t.Fatalf("de.json has %s; the test needs a key it lacks", lacking)
	}
	if got.Translations[lacking] != en[lacking] {
		t.Errorf("%s = %q, want the English %q", lacking, got.Translations[lacking], en[lacking])
	}
	for k, v := range de {
		if got.Translations[k] != v {
			t.Errorf("%s = %q, want the German %q", k, got.Translations[k], v)
		}
	}
}

func TestDictionaryNeedsTokenAndActiveLocale(t *testing.T) {
	app := testkit.Start(t)
	user := accountstest.NewUser(t, app)
	if m := app.Get("/api/v1/translations/en", "").Expect(http.StatusUnauthorized).Map(); m["message"] != "JWT Token not found" {
		t.Errorf("without token: %v", m)
	}
	for _, locale := range []string{"it", "xx", "english"} {
		if m := app.Get("/api/v1/translations/"+locale, user.Token).Expect(http.StatusNotFound).Map(); m["error"] != "not_found" {
			t.Errorf("%s: %v", locale, m)
		}
	}
}

func TestDictionaryETag(t *testing.T) {
	app := testkit.Start(t)
	user := accountstest.NewUser(t, app)
	etag := app.Get("/api/v1/translations/uk", user.Token).Expect(http.StatusOK).Header.Get("ETag")
	res := app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/translations/uk", Token: user.Token,
		Headers: map[string]string{"If-None-Match": etag}})
	if res.Status != http.StatusNotModified {
		t.Errorf("with its ETag: %d, want 304", res.Status)
	}
	if other := app.Get("/api/v1/translations/fr", user.Token).Header.Get("ETag"); other == etag {
		t.Error("fr and uk share an ETag")
	}
}

func TestSelectKeys(t *testing.T) {
	app := testkit.Start(t)
	user := accountstest.NewUser(t, app)
	en, fr := file(t, "en"), file(t, "fr")
	if _, ok := fr["nav.help"]; ok {
		t.Fatal("fr.json has nav.help; the test needs a key it lacks")
	}
	var got struct {
		Locale       string            `json:"locale"`
		Translations map[string]string `json:"translations"`
		Missing      []string          `json:"missing"`
	}
	app.Post("/api/v1/translations", user.Token, map[string]any{
		"locale": "FR",
		"keys":   []string{"nav.help", "auth.sign_in.title", "no.such.key", "auth.sign_in.title"},
	}).Expect(http.StatusOK).JSON(&got)
	if got.Locale != "fr" {
		t.Errorf("locale %q", got.Locale)
	}
	if len(got.Translations) != 2 || got.Translations["nav.help"] != en["nav.help"] ||
		got.Translations["auth.sign_in.title"] != fr["auth.sign_in.title"] {
		t.Errorf("translations %v; want nav.help in English (fr lacks it) and auth.sign_in.title in French", got.Translations)
	}
	if len(got.Missing) != 1 || got.Missing[0] != "no.such.key" {
		t.Errorf("missing %v", got.Missing)
	}
}

func TestSelectKeysRejectsBadBodies(t *testing.T) {
	app := testkit.Start(t)
	user := accountstest.NewUser(t, app)
	tooMany := make([]string, 501)
	for i := range tooMany {
		tooMany[i] = "k"
	}
	cases := map[string]struct {
		body any
		want string
	}{
		"no keys":        {map[string]any{"locale": "en", "keys": []string{}}, "keys"},
		"501 keys":       {map[string]any{"locale": "en", "keys": tooMany}, "keys"},
		"no locale":      {map[string]any{"keys": []string{"a"}}, "locale"},
		"inactive":       {map[string]any{"locale": "it", "keys": []string{"a"}}, "locale"},
		"empty key":      {map[string]any{"locale": "en", "keys": []string{""}}, "keys"},
		"long key":       {map[string]any{"locale": "en", "keys": []string{strings.Repeat("k", 201)}}, "keys"},
		"keys not array": {map[string]any{"locale": "en", "keys": "a"}, "keys"},
		"malformed":      {`{"locale":`, "body"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := app.Post("/api/v1/translations", user.Token, tc.body).Expect(http.StatusBadRequest).Map()
			details, _ := m["details"].([]any)
			if m["error"] != "validation_failed" || len(details) == 0 || !strings.HasPrefix(details[0].(string), tc.want) {
				t.Errorf("body %v", m)
			}
		})
	}
	app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/translations", Body: map[string]any{"locale": "en", "keys": []string{"a"}}}).
		Expect(http.StatusUnauthorized)
}

// Whether a locale is served follows the reference data, which a running
// instance re-reads: an operator's deactivation gives 404, and a language
// activated without a dictionary file is answered in English.
func TestLocaleFollowsOperatorsLanguageChanges(t *testing.T) {
	app := testkit.Start(t, testkit.WithConfig("modules.reference.refresh", "50ms"))
	user := accountstest.NewUser(t, app)
	app.Get("/api/v1/translations/es", user.Token).Expect(http.StatusOK)
	app.Get("/api/v1/translations/it", user.Token).Expect(http.StatusNotFound)
	ctx := context.Background()
	for code, active := range map[string]bool{"es": false, "it": true} {
		if _, err := app.DB.NewUpdate().Table("languages").Set("is_active = ?", active).Where("code = ?", code).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for app.Get("/api/v1/translations/it", user.Token).Status != http.StatusOK {
		if time.Now().After(deadline) {
			t.Fatal("the running instance does not serve the activated it")
		}
		time.Sleep(20 * time.Millisecond)
	}
	var got dictionary
	app.Get("/api/v1/translations/IT", user.Token).Expect(http.StatusOK).JSON(&got)
	en := file(t, "en")
	if got.Locale != "it" || len(got.Translations) != len(en) || got.Translations["auth.sign_in.title"] != en["auth.sign_in.title"] {
		t.Errorf("it: locale %q, %d keys; want it with the %d English texts", got.Locale, len(got.Translations), len(en))
	}
	if m := app.Get("/api/v1/translations/es", user.Token).Expect(http.StatusNotFound).Map(); m["error"] != "not_found" {
		t.Errorf("deactivated es: %v", m)
	}
	m := app.Post("/api/v1/translations", user.Token, map[string]any{"locale": "es", "keys": []string{"nav.help"}}).
		Expect(http.StatusBadRequest).Map()
	if m["error"] != "validation_failed" {
		t.Errorf("POST with deactivated es: %v", m)
	}
}
