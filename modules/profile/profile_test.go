package profile_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

const password = "Tenant-Ledger-2026"

type profile struct {
	accounts.UserView
	UpdatedAt     string                  `json:"updated_at"`
	PostalAddress *accounts.PostalAddress `json:"postal_address"`
}

// signUp registers through both steps and logs in.
func signUp(t *testing.T, app *testkit.App, email string) string {
	t.Helper()
	app.Post("/api/v1/auth/register", "", map[string]any{"name": "Anna Landlord", "email": email}).Expect(200)
	m, _ := app.Mail.Last(email)
	code := regexp.MustCompile(`\b[0-9]{6}\b`).FindString(m.Text)
	app.Post("/api/v1/auth/register/verify", "", map[string]any{
		"email": email, "code": code, "password": password, "country_code": "DE",
	}).Expect(201)
	var out struct {
		Token string `json:"token"`
	}
	app.Post("/api/v1/auth/login", "", map[string]any{"email": email, "password": password}).Expect(200).JSON(&out)
	return out.Token
}

func TestGetProfile(t *testing.T) {
	app := testkit.Start(t)
	token := signUp(t, app, "anna@example.com")
	var p profile
	app.Get("/api/v1/user/profile", token).Expect(200).JSON(&p)
	if p.Email != "anna@example.com" || p.Name != "Anna Landlord" || p.Country.Code != "DE" || p.Country.PhoneCode != "+49" ||
		p.Phone != nil || p.CreatedAt != "2026-11-22T10:00:00Z" || p.UpdatedAt != "2026-11-22T10:00:00Z" {
		t.Fatalf("profile = %+v", p)
	}
	app.Get("/api/v1/user/profile", "").Expect(401)
}

func TestUpdateProfile(t *testing.T) {
	app := testkit.Start(t)
	token := signUp(t, app, "anna@example.com")
	app.Clock.Advance(time.Hour - time.Minute)
	var p profile
	app.Put("/api/v1/user/profile", token, map[string]any{
		"name": "  Anna Vermieterin ", "phone": "+4915112345678", "locale": "DE", "country_code": "at",
	}).Expect(200).JSON(&p)
	if p.Name != "Anna Vermieterin" || p.Phone == nil || *p.Phone != "+4915112345678" || p.Locale != "de" ||
		p.Country.Code != "AT" || p.Country.PhoneCode != "+43" || p.UpdatedAt != "2026-11-22T10:59:00Z" || p.CreatedAt != "2026-11-22T10:00:00Z" {
		t.Fatalf("profile = %+v", p)
	}
	// Absent fields stay; a null phone clears it.
	app.Put("/api/v1/user/profile", token, map[string]any{"phone": nil}).Expect(200).JSON(&p)
	if p.Phone != nil || p.Name != "Anna Vermieterin" || p.Locale != "de" {
		t.Fatalf("profile = %+v", p)
	}
	var again profile
	app.Get("/api/v1/user/profile", token).Expect(200).JSON(&again)
	if again.Phone != nil || again.Name != p.Name {
		t.Fatalf("stored profile = %+v", again)
	}
}

func TestUpdateProfileIgnoresOtherFields(t *testing.T) {
	app := testkit.Start(t)
	token := signUp(t, app, "anna@example.com")
	var before, after profile
	app.Get("/api/v1/user/profile", token).Expect(200).JSON(&before)
	app.Put("/api/v1/user/profile", token, map[string]any{
		"id": 999, "email": "evil@example.com", "roles": []string{"ROLE_ADMIN"}, "is_active": false,
		"created_at": "2000-01-01T00:00:00Z", "password_hash": "x", "token_version": 7, "name": "Anna",
	}).Expect(200).JSON(&after)
	if after.ID != before.ID || after.Email != before.Email || strings.Join(after.Roles, ",") != "ROLE_USER" ||
		!after.IsActive || after.CreatedAt != before.CreatedAt || after.Name != "Anna" {
		t.Fatalf("after = %+v, before = %+v", after, before)
	}
	// The token still works (token_version unchanged) and the roles are the same.
	var roles struct {
		Roles []string `json:"roles"`
	}
	app.Get("/api/v1/user/roles", token).Expect(200).JSON(&roles)
	if strings.Join(roles.Roles, ",") != "ROLE_USER" {
		t.Fatalf("roles = %v", roles.Roles)
	}
}

func TestUpdateProfileRejectsBadInput(t *testing.T) {
	app := testkit.Start(t)
	token := signUp(t, app, "anna@example.com")
	other := signUp(t, app, "bert@example.com")
	app.Put("/api/v1/user/profile", other, map[string]any{"phone": "+4915100000001"}).Expect(200)
	var before profile
	app.Get("/api/v1/user/profile", token).Expect(200).JSON(&before)
	for _, tc := range []struct {
		name   string
		body   any
		status int
		code   string
		detail string
	}{
		{"malformed", `{"name":`, 400, "validation_failed", "body"},
		{"name short", map[string]any{"name": " A "}, 400, "validation_failed", "name: must be 2 to 100"},
		{"name long", map[string]any{"name": strings.Repeat("x", 101)}, 400, "validation_failed", "name: must be 2 to 100"},
		{"name wrong type", map[string]any{"name": 3}, 400, "validation_failed", "name"},
		{"phone bad", map[string]any{"phone": "12345"}, 400, "validation_failed", "phone: must be an international"},
		{"locale unknown", map[string]any{"locale": "zz"}, 400, "validation_failed", "locale: is not an active"},
		{"country unknown", map[string]any{"country_code": "XX"}, 400, "validation_failed", "country_code: is not an active"},
		{"several at once", map[string]any{"name": "", "country_code": "XYZ"}, 400, "validation_failed", "country_code: must be exactly 2"},
		{"phone of another user", map[string]any{"phone": "+4915100000001", "name": "Changed"}, 409, "phone_exists", ""},
		{"address not an object", map[string]any{"postal_address": "Hauptstraße 5"}, 400, "validation_failed", "postal_address: must be a object"},
		{"address city wrong type", map[string]any{"postal_address": map[string]any{"address": "Hauptstraße 5", "city": 5, "country_code": "DE"}},
			400, "validation_failed", "postal_address.city: must be a string"},
		{"address empty", map[string]any{"postal_address": map[string]any{}}, 400, "validation_failed",
			"postal_address.address: is required|postal_address.city: is required|postal_address.country_code: is required"},
		{"address blank", map[string]any{"postal_address": map[string]any{"address": "   ", "city": "Berlin", "country_code": "DE"}},
			400, "validation_failed", "postal_address.address: is required"},
		{"address long", map[string]any{"postal_address": map[string]any{"address": strings.Repeat("ß", 501), "city": "Berlin", "country_code": "DE"}},
			400, "validation_failed", "postal_address.address: must be at most 500 characters"},
		{"address two lines", map[string]any{"postal_address": map[string]any{"address": "c/o Meier\nHauptstraße 5", "city": "Berlin", "country_code": "DE"}},
			400, "validation_failed", "postal_address.address: must not contain control characters"},
		{"address NUL", map[string]any{"postal_address": map[string]any{"address": "Haupt\u0000straße 5", "city": "Berlin", "country_code": "DE"}},
			400, "validation_failed", "postal_address.address: must not contain control characters"},
		{"city long", map[string]any{"postal_address": map[string]any{"address": "Hauptstraße 5", "city": strings.Repeat("x", 101), "country_code": "DE"}},
			400, "validation_failed", "postal_address.city: must be at most 100 characters"},
		{"postal code long", map[string]any{"postal_address": map[string]any{"address": "Hauptstraße 5", "postal_code": strings.Repeat("1", 21), "city": "Berlin", "country_code": "DE"}},
			400, "validation_failed", "postal_address.postal_code: must be at most 20 characters"},
		{"postal code punctuation", map[string]any{"postal_address": map[string]any{"address": "Hauptstraße 5", "postal_code": "10115; DROP", "city": "Berlin", "country_code": "DE"}},
			400, "validation_failed", "postal_address.postal_code: must be letters and digits"},
		{"address country unknown", map[string]any{"postal_address": map[string]any{"address": "Hauptstraße 5", "city": "Berlin", "country_code": "XX"}},
			400, "validation_failed", "postal_address.country_code: is not an active country code"},
		{"address country long", map[string]any{"postal_address": map[string]any{"address": "Hauptstraße 5", "city": "Berlin", "country_code": "DEU"}},
			400, "validation_failed", "postal_address.country_code: must be exactly 2 characters"},
		{"address and name bad at once", map[string]any{"name": "A", "postal_address": map[string]any{"address": "Hauptstraße 5", "country_code": "DE"}},
			400, "validation_failed", "name: must be 2 to 100 characters|postal_address.city: is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out struct {
				Error   string   `json:"error"`
				Message string   `json:"message"`
				Details []string `json:"details"`
			}
			app.Put("/api/v1/user/profile", token, tc.body).Expect(tc.status).JSON(&out)
			// Each detail starts with its field's full name.
			if out.Error != tc.code || out.Message == "" || !strings.Contains("|"+strings.Join(out.Details, "|"), "|"+tc.detail) {
				t.Fatalf("body = %+v, want %s with %q", out, tc.code, tc.detail)
			}
		})
	}
	var after profile
	app.Get("/api/v1/user/profile", token).Expect(200).JSON(&after)
	if after.Name != before.Name || after.Phone != nil || after.Country != before.Country || after.UpdatedAt != before.UpdatedAt ||
		after.PostalAddress != nil {
		t.Fatalf("bad input changed the profile: %+v -> %+v", before, after)
	}
}

// The postal address is absent (null) until set; an object replaces it
// whole, trimmed and with the country upper-cased; other updates leave it;
// null removes it.
func TestProfilePostalAddress(t *testing.T) {
	app := testkit.Start(t)
	token := signUp(t, app, "anna@example.com")
	var p profile
	res := app.Get("/api/v1/user/profile", token).Expect(200)
	res.JSON(&p)
	if v, ok := res.Map()["postal_address"]; !ok || v != nil || p.PostalAddress != nil {
		t.Fatalf("a new profile's postal_address = %v (present %v)", v, ok)
	}

	app.Clock.Advance(time.Minute)
	app.Put("/api/v1/user/profile", token, map[string]any{"postal_address": map[string]any{
		"address": "  Hauptstraße 5, 2. OG ", "postal_code": " 10115 ", "city": "Berlin ", "country_code": "de",
	}}).Expect(200).JSON(&p)
	want := accounts.PostalAddress{Address: "Hauptstraße 5, 2. OG", PostalCode: "10115", City: "Berlin", CountryCode: "DE"}
	if p.PostalAddress == nil || *p.PostalAddress != want || p.UpdatedAt != "2026-11-22T10:01:00Z" {
		t.Fatalf("profile = %+v, address %+v", p, p.PostalAddress)
	}
	// Another field alone leaves the address; /auth/me (the User resource
	// of the spec) does not show it.
	app.Put("/api/v1/user/profile", token, map[string]any{"name": "Anna Vermieterin"}).Expect(200).JSON(&p)
	if p.PostalAddress == nil || *p.PostalAddress != want {
		t.Fatalf("address after a name change = %+v", p.PostalAddress)
	}
	if _, ok := app.Get("/api/v1/auth/me", token).Expect(200).Map()["postal_address"]; ok {
		t.Error("/auth/me shows postal_address")
	}

	// A new object replaces the whole address: no postal code now, a
	// country other than the account's.
	app.Put("/api/v1/user/profile", token, map[string]any{"postal_address": map[string]any{
		"address": "Kärntner Straße 1", "city": "Wien", "country_code": "AT",
	}}).Expect(200)
	app.Get("/api/v1/user/profile", token).Expect(200).JSON(&p)
	if want := (accounts.PostalAddress{Address: "Kärntner Straße 1", City: "Wien", CountryCode: "AT"}); p.PostalAddress == nil ||
		*p.PostalAddress != want || p.Country.Code != "DE" {
		t.Fatalf("profile = %+v, address %+v", p, p.PostalAddress)
	}

	app.Put("/api/v1/user/profile", token, map[string]any{"postal_address": nil}).Expect(200).JSON(&p)
	if p.PostalAddress != nil || p.Name != "Anna Vermieterin" {
		t.Fatalf("after null: %+v", p)
	}
	app.Get("/api/v1/user/profile", token).Expect(200).JSON(&p)
	if p.PostalAddress != nil {
		t.Fatalf("stored address after null: %+v", p.PostalAddress)
	}
}

func TestChangePassword(t *testing.T) {
	app := testkit.Start(t)
	token := signUp(t, app, "anna@example.com")
	var out struct {
		Error   string   `json:"error"`
		Message string   `json:"message"`
		Details []string `json:"details"`
	}
	app.Put("/api/v1/user/password", token, map[string]any{"current_password": "Wrong-Pass-1", "new_password": "New-Ledger-2027"}).Expect(400).JSON(&out)
	if out.Error != "invalid_password" {
		t.Fatalf("body = %+v, want invalid_password", out)
	}
	app.Put("/api/v1/user/password", token, map[string]any{"current_password": password, "new_password": "password1"}).Expect(400).JSON(&out)
	if out.Error != "validation_failed" || !strings.Contains(strings.Join(out.Details, "|"), "new_password") {
		t.Fatalf("body = %+v, want validation_failed on new_password", out)
	}
	app.Put("/api/v1/user/password", token, map[string]any{"new_password": "New-Ledger-2027"}).Expect(400).JSON(&out)
	if !strings.Contains(strings.Join(out.Details, "|"), "current_password: is required") {
		t.Fatalf("body = %+v", out)
	}
	// Nothing so far changed the password or the token.
	app.Get("/api/v1/user/profile", token).Expect(200)

	app.Put("/api/v1/user/password", token, map[string]any{"current_password": password, "new_password": "New-Ledger-2027"}).Expect(200).JSON(&out)
	if out.Message == "" {
		t.Fatal("no message")
	}
	app.Get("/api/v1/user/profile", token).Expect(401)
	app.Post("/api/v1/auth/login", "", map[string]any{"email": "anna@example.com", "password": password}).Expect(401)
	var login struct {
		Token string `json:"token"`
	}
	app.Post("/api/v1/auth/login", "", map[string]any{"email": "anna@example.com", "password": "New-Ledger-2027"}).Expect(200).JSON(&login)
	app.Get("/api/v1/user/profile", login.Token).Expect(200)
}

func TestChangePasswordThrottlesGuessing(t *testing.T) {
	app := testkit.Start(t)
	token := signUp(t, app, "anna@example.com")
	for range 5 {
		app.Put("/api/v1/user/password", token, map[string]any{"current_password": "Wrong-Pass-1", "new_password": "New-Ledger-2027"}).Expect(400)
	}
	res := app.Put("/api/v1/user/password", token, map[string]any{"current_password": password, "new_password": "New-Ledger-2027"})
	var out struct {
		Error string `json:"error"`
		Wait  int    `json:"wait"`
	}
	res.Expect(429).JSON(&out)
	if out.Error != "rate_limit" || out.Wait != 900 || res.Header.Get("Retry-After") != "900" {
		t.Fatalf("body = %+v, Retry-After %q", out, res.Header.Get("Retry-After"))
	}
}

func TestRoles(t *testing.T) {
	app := testkit.Start(t)
	admin := accountstest.NewUser(t, app, "ROLE_USER", "ROLE_ADMIN")
	var out struct {
		Roles []string `json:"roles"`
	}
	app.Get("/api/v1/user/roles", admin.Token).Expect(200).JSON(&out)
	if strings.Join(out.Roles, ",") != "ROLE_USER,ROLE_ADMIN" {
		t.Fatalf("roles = %v", out.Roles)
	}
	app.Get("/api/v1/user/roles", "").Expect(401)
	app.Get("/api/v1/user/roles", "garbage").Expect(401)
}
