package printforms_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
)

// Each locale's form has the parties, the property, the dates and amounts
// in the locale's format, every term's block name in the locale (as the
// agreement-blocks API serves it) and the labels of the dictionaries.
func TestContractFormInEveryLocale(t *testing.T) {
	requirePoppler(t)
	f := start(t)
	want := map[string][]string{
		"en": {"1,234.50 EUR", "2,469.00 EUR", "180.00 EUR", "5.5%", "1,090", "2026-12-01", "2027-11-23"},
		"de": {"1.234,50 EUR", "2.469,00 EUR", "180,00 EUR", "5,5 %", "1.090", "01.12.2026", "23.11.2027"},
		"fr": {"1 234,50 EUR", "2 469,00 EUR", "180,00 EUR", "5,5 %", "1 090", "01/12/2026", "23/11/2027"},
		"es": {"1.234,50 EUR", "2.469,00 EUR", "180,00 EUR", "5,5 %", "1.090", "01/12/2026", "23/11/2027"},
		"uk": {"1 234,50 EUR", "2 469,00 EUR", "180,00 EUR", "5,5 %", "1 090", "01.12.2026", "23.11.2027"},
	}
	for locale, formatted := range want {
		t.Run(locale, func(t *testing.T) {
			res := f.print(f.contract, "locale="+locale, f.user.Token, nil).Expect(http.StatusOK)
			if ct := res.Header.Get("Content-Type"); ct != "application/pdf" {
				t.Errorf("Content-Type %q", ct)
			}
			text := pdfText(t, res.Body)
			dict := dictionary(t, f.app, f.user.Token, locale)
			// The blocks' long descriptions take a second page.
			pages := pdfPages(t, res.Body)
			if pages != 2 {
				t.Errorf("%d pages, want 2", pages)
			}
			page := strings.NewReplacer("{pages}", "2").Replace(dict["printforms.common.page"])
			expect := append([]string{
				dict["printforms.contract.title"],
				dict["printforms.contract.number"] + " 2026/001",
				dict["printforms.contract.landlord"], "Test User", f.user.Email,
				dict["printforms.contract.tenant"], tenantName, "Lindenweg 7, 10117 Berlin", "olena@example.com",
				"+4915112345678", "DE123456789", dict["printforms.common.tax_id"],
				"Flat 3B", "Hauptstraße 5, 10115 Berlin",
				dict["printforms.contract.rent"], dict["printforms.contract.deposit"],
				dict["printforms.contract.payment_day"],
				dict["printforms.common.yes"], dict["printforms.common.no"],
				"The tenant waters the plants on the balcony.",
				dict["printforms.contract.signatures"], dict["printforms.common.signature"], dict["printforms.common.date"],
				strings.ReplaceAll(page, "{page}", "1"), strings.ReplaceAll(page, "{page}", "2"),
			}, formatted...)
			for _, tm := range fullTerms {
				expect = append(expect, blockName(t, f.app, tm.Code, locale))
			}
			for _, s := range expect {
				if s == "" || !strings.Contains(text, s) {
					t.Errorf("the %s form lacks %q\ntext: %s", locale, s, text)
				}
			}
		})
	}
}

// Without ?locale= the form is in the contract's locale, else the owner's,
// else English; ?locale= overrides in any case; an unknown or inactive one
// is a 400 naming locale.
func TestContractFormLocale(t *testing.T) {
	requirePoppler(t)
	f := start(t)
	title := func(locale string) string {
		return dictionary(t, f.app, f.user.Token, locale)["printforms.contract.title"]
	}
	has := func(query, locale string) {
		t.Helper()
		text := pdfText(t, f.print(f.contract, query, f.user.Token, nil).Expect(http.StatusOK).Body)
		if !strings.HasPrefix(text, title(locale)+" ") {
			t.Errorf("?%s: form starts %.40q, want the %s title %q", query, text, locale, title(locale))
		}
	}
	has("", "en")
	f.app.Put("/api/v1/contracts/"+f.contract, f.user.Token, map[string]any{"locale": "uk"}).Expect(http.StatusOK)
	has("", "uk")
	has("locale=de", "de")
	has("locale=FR", "fr")
	has("locale=", "uk")

	// The contract's locale is no longer active: the owner's profile locale.
	f.app.Put("/api/v1/user/profile", f.user.Token, map[string]any{"locale": "es"}).Expect(http.StatusOK)
	if _, err := f.app.DB.NewUpdate().Table("contracts").Set("locale = ?", "zz").Where("id = ?", f.contract).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	has("", "es")

	for _, bad := range []string{"xx", "it", "english", strings.Repeat("d", 300), "de%00"} {
		res := f.print(f.contract, "locale="+bad, f.user.Token, nil).Expect(http.StatusBadRequest)
		m := res.Map()
		details, _ := m["details"].([]any)
		if m["error"] != "validation_failed" || len(details) != 1 || !strings.HasPrefix(details[0].(string), "locale: ") {
			t.Errorf("?locale=%.20s: body %s", bad, res.Body)
		}
	}
}

// Owner or admin: another user gets 403 (even with a bad locale), an
// unknown or malformed id 404, no token 401.
func TestContractFormAccess(t *testing.T) {
	requirePoppler(t)
	f := start(t)
	other := accountstest.NewUser(t, f.app)
	admin := accountstest.NewUser(t, f.app, "ROLE_USER", "ROLE_ADMIN")
	f.print(f.contract, "", other.Token, nil).Expect(http.StatusForbidden)
	f.print(f.contract, "locale=xx", other.Token, nil).Expect(http.StatusForbidden)
	res := f.print(f.contract, "locale=de", admin.Token, nil).Expect(http.StatusOK)
	if text := pdfText(t, res.Body); !strings.Contains(text, tenantName) {
		t.Errorf("the admin's form lacks the tenant: %s", text)
	}
	for _, id := range []string{"0196f6a4-7d3c-7cde-8f00-000000000000", "nope", "1", strings.Repeat("a", 36),
		strings.ToUpper(f.contract) + "0"} {
		f.print(id, "", f.user.Token, nil).Expect(http.StatusNotFound)
	}
	f.print(f.contract, "", "", nil).Expect(http.StatusUnauthorized)
}

// The ETag is the form's version: If-None-Match gives 304 with no body
// until the contract, its tenant, its property or the locale changes.
func TestContractFormETag(t *testing.T) {
	requirePoppler(t)
	f := start(t)
	first := f.print(f.contract, "", f.user.Token, nil).Expect(http.StatusOK)
	etag := first.Header.Get("ETag")
	if !strings.HasPrefix(etag, `"`) || len(etag) < 10 {
		t.Fatalf("ETag %q", etag)
	}
	if cc := first.Header.Get("Cache-Control"); cc != "private, no-cache" {
		t.Errorf("Cache-Control %q", cc)
	}
	again := f.print(f.contract, "", f.user.Token, nil).Expect(http.StatusOK)
	if again.Header.Get("ETag") != etag || string(again.Body) != string(first.Body) {
		t.Error("the same contract gave another ETag or other bytes")
	}
	notModified := func(query, tag string) {
		t.Helper()
		res := f.print(f.contract, query, f.user.Token, map[string]string{"If-None-Match": tag}).Expect(http.StatusNotModified)
		if len(res.Body) != 0 || res.Header.Get("ETag") == "" {
			t.Errorf("304 with %d bytes, ETag %q", len(res.Body), res.Header.Get("ETag"))
		}
	}
	notModified("", etag)
	notModified("", `"other", `+etag)
	notModified("", "W/"+etag)
	notModified("locale=en", etag)
	f.print(f.contract, "", f.user.Token, map[string]string{"If-None-Match": `"other"`}).Expect(http.StatusOK)

	de := f.print(f.contract, "locale=de", f.user.Token, map[string]string{"If-None-Match": etag}).Expect(http.StatusOK)
	if de.Header.Get("ETag") == etag {
		t.Error("de has the en ETag")
	}

	changed := func(what string, change func()) {
		t.Helper()
		change()
		res := f.print(f.contract, "", f.user.Token, map[string]string{"If-None-Match": etag}).Expect(http.StatusOK)
		if res.Header.Get("ETag") == etag {
			t.Errorf("after %s: the ETag did not change", what)
		}
		etag = res.Header.Get("ETag")
	}
	f.app.Clock.Advance(1e9)
	changed("a new tenant name", func() {
		f.app.Put("/api/v1/contragents/"+f.tenant, f.user.Token, map[string]any{"name": "Olena Kowalenko"}).Expect(http.StatusOK)
	})
	if text := pdfText(t, f.print(f.contract, "", f.user.Token, nil).Body); !strings.Contains(text, "Olena Kowalenko") {
		t.Errorf("the form still shows the old tenant name: %s", text)
	}
	f.app.Clock.Advance(1e9)
	changed("a new property name", func() {
		f.app.Put("/api/v1/properties/"+f.property, f.user.Token, map[string]any{"name": "Flat 4C"}).Expect(http.StatusOK)
	})
	f.app.Clock.Advance(1e9)
	changed("a new number", func() {
		f.app.Put("/api/v1/contracts/"+f.contract, f.user.Token, map[string]any{"number": "2026/002"}).Expect(http.StatusOK)
	})
	if text := pdfText(t, f.print(f.contract, "", f.user.Token, nil).Body); !strings.Contains(text, "2026/002") {
		t.Errorf("the form still shows the old number: %s", text)
	}
	f.app.Clock.Advance(1e9)
	changed("activation", func() {
		f.app.Post("/api/v1/contracts/"+f.contract+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	})
}

// Content-Disposition names the file after the number, in safe ASCII, with
// the UTF-8 name when it differs.
func TestContractFormFilename(t *testing.T) {
	requirePoppler(t)
	f := start(t)
	for _, tc := range []struct{ number, want string }{
		{"2026/001", `attachment; filename="contract-2026-001.pdf"`},
		{`A"B\C`, `attachment; filename="contract-AB-C.pdf"`},
		{"a\r\nb\x7f", `attachment; filename="contract-ab.pdf"`},
		{"Nº 7 Київ", `attachment; filename="contract-N__7_____.pdf"; filename*=UTF-8''contract-N%C2%BA%207%20%D0%9A%D0%B8%D1%97%D0%B2.pdf`},
		{"x;y%z", `attachment; filename="contract-x_y_z.pdf"; filename*=UTF-8''contract-x%3By%25z.pdf`},
	} {
		id := f.contract
		if tc.number != f.number {
			id = f.newContract(t, f.user.Token, tc.number, "en", nil)
		}
		res := f.print(id, "", f.user.Token, nil).Expect(http.StatusOK)
		if got := res.Header.Get("Content-Disposition"); got != tc.want {
			t.Errorf("number %q: Content-Disposition %q, want %q", tc.number, got, tc.want)
		}
	}
}
