package accounts_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/platform/testkit"
)

func verifyBody(email, code string) map[string]any {
	return map[string]any{"email": email, "code": code, "password": goodPassword, "country_code": "de"}
}

func startRegistration(t *testing.T, app *testkit.App, email string, extra ...string) string {
	t.Helper()
	body := map[string]any{"name": "Anna Landlord", "email": email}
	if len(extra) > 0 {
		body["locale"] = extra[0]
	}
	app.Post("/api/v1/auth/register", "", body).Expect(200)
	return codeFor(t, app, email)
}

func wrongCode(code string) string {
	if code == "000000" {
		return "000001"
	}
	return "000000"
}

func expectInvalidCode(t *testing.T, res *testkit.Response) {
	t.Helper()
	var out failureBody
	res.Expect(400).JSON(&out)
	if out.Success == nil || *out.Success || out.Error != "invalid_code" || len(out.Details) == 0 {
		t.Fatalf("body = %+v, want success:false, error:invalid_code with details", out)
	}
}

func TestVerifyCreatesUser(t *testing.T) {
	app := testkit.Start(t)
	code := startRegistration(t, app, "anna@example.com", "fr")
	body := verifyBody("Anna@Example.com", code)
	body["phone"] = "+4915112345678"
	var out struct {
		Success bool   `json:"success"`
		Message string `json:"message"`
		User    struct {
			ID    int64  `json:"id"`
			Name  string `json:"name"`
			Email string `json:"email"`
		} `json:"user"`
	}
	app.Post("/api/v1/auth/register/verify", "", body).Expect(201).JSON(&out)
	if !out.Success || out.Message == "" || out.User.ID == 0 || out.User.Name != "Anna Landlord" || out.User.Email != "anna@example.com" {
		t.Fatalf("body = %+v", out)
	}
	var me accounts.UserView
	app.Get("/api/v1/auth/me", login(t, app, "anna@example.com", goodPassword)).Expect(200).JSON(&me)
	want := accounts.UserView{
		ID: out.User.ID, Name: "Anna Landlord", Email: "anna@example.com", Phone: me.Phone, Locale: "fr",
		Country: accounts.CountryRef{Code: "DE", PhoneCode: "+49"}, Roles: []string{"ROLE_USER"}, IsActive: true,
		CreatedAt: "2026-11-22T10:00:00Z",
	}
	if me.Phone == nil || *me.Phone != "+4915112345678" || fmt.Sprint(me) != fmt.Sprint(want) {
		t.Fatalf("me = %+v\nwant %+v", me, want)
	}
	if countRows(t, app, "verification_codes") != 0 {
		t.Fatal("the used code is still stored")
	}
	// The code is used: a second submission is refused.
	expectInvalidCode(t, app.Post("/api/v1/auth/register/verify", "", verifyBody("anna@example.com", code)))
}

func TestVerifyLocaleOfStep2Wins(t *testing.T) {
	app := testkit.Start(t)
	code := startRegistration(t, app, "anna@example.com", "fr")
	body := verifyBody("anna@example.com", code)
	body["locale"] = "UK"
	app.Post("/api/v1/auth/register/verify", "", body).Expect(201)
	// Without a locale in either step: the language of the country
	// (LANDLORD-CORE), English where propman has none of it.
	code = startRegistration(t, app, "bert@example.com")
	app.Post("/api/v1/auth/register/verify", "", verifyBody("bert@example.com", code)).Expect(201)
	code = startRegistration(t, app, "cleo@example.com")
	body = verifyBody("cleo@example.com", code)
	body["country_code"] = "FR"
	app.Post("/api/v1/auth/register/verify", "", body).Expect(201)
	code = startRegistration(t, app, "dirk@example.com")
	body = verifyBody("dirk@example.com", code)
	body["country_code"] = "NL"
	app.Post("/api/v1/auth/register/verify", "", body).Expect(201)
	for email, want := range map[string]string{"anna@example.com": "uk", "bert@example.com": "de", "cleo@example.com": "fr", "dirk@example.com": "en"} {
		var me accounts.UserView
		app.Get("/api/v1/auth/me", login(t, app, email, goodPassword)).Expect(200).JSON(&me)
		if me.Locale != want {
			t.Errorf("%s: locale %q, want %q", email, me.Locale, want)
		}
	}
}

func TestVerifyRejectsBadFields(t *testing.T) {
	app := testkit.Start(t)
	code := startRegistration(t, app, "anna@example.com")
	with := func(k string, v any) map[string]any {
		b := verifyBody("anna@example.com", code)
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
		return b
	}
	for _, tc := range []struct {
		name   string
		body   any
		detail string
	}{
		{"malformed JSON", `{"email":`, "body"},
		{"code missing", with("code", nil), "code: must be exactly 6"},
		{"code too short", with("code", "12345"), "code: must be exactly 6"},
		{"password missing", with("password", nil), "password: is required"},
		{"password short", with("password", "Ab1defg"), "password: must be 8 to 128"},
		{"password long", with("password", "Ab1"+strings.Repeat("x", 126)), "password: must be 8 to 128"},
		{"password without digit", with("password", "NoDigitsHere"), "upper-case letter, a lower-case letter and a digit"},
		{"password without upper case", with("password", "nouppercase12"), "upper-case letter, a lower-case letter and a digit"},
		{"common password", with("password", "Password1"), "most common"},
		{"country missing", with("country_code", nil), "country_code: is required"},
		{"country three letters", with("country_code", "DEU"), "country_code: must be exactly 2"},
		{"country unknown", with("country_code", "XX"), "country_code: is not an active"},
		{"phone not E.164", with("phone", "0151 1234567"), "phone: must be an international"},
		{"phone too short", with("phone", "+49123"), "phone: must be an international"},
		{"locale unknown", with("locale", "zz"), "locale: is not an active"},
		{"email bad", with("email", "anna"), "email: must be a valid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out failureBody
			app.Post("/api/v1/auth/register/verify", "", tc.body).Expect(400).JSON(&out)
			if out.Success == nil || *out.Success || out.Error != "validation_failed" {
				t.Fatalf("body = %+v, want validation_failed", out)
			}
			if !strings.Contains(strings.Join(out.Details, "|"), tc.detail) {
				t.Fatalf("details %q lack %q", out.Details, tc.detail)
			}
		})
	}
	// Nothing above used up an attempt or made a user.
	if countRows(t, app, "users") != 0 {
		t.Fatal("a user was created from bad input")
	}
	app.Post("/api/v1/auth/register/verify", "", verifyBody("anna@example.com", code)).Expect(201)
}

func TestVerifyFiveWrongCodesInvalidateIt(t *testing.T) {
	app := testkit.Start(t)
	code := startRegistration(t, app, "anna@example.com")
	for range 5 {
		expectInvalidCode(t, app.Post("/api/v1/auth/register/verify", "", verifyBody("anna@example.com", wrongCode(code))))
	}
	expectInvalidCode(t, app.Post("/api/v1/auth/register/verify", "", verifyBody("anna@example.com", code)))
	if countRows(t, app, "users") != 0 {
		t.Fatal("a user was created with a spent code")
	}
}

func TestVerifyFourWrongCodesThenRight(t *testing.T) {
	app := testkit.Start(t)
	code := startRegistration(t, app, "anna@example.com")
	for range 4 {
		expectInvalidCode(t, app.Post("/api/v1/auth/register/verify", "", verifyBody("anna@example.com", wrongCode(code))))
	}
	app.Post("/api/v1/auth/register/verify", "", verifyBody("anna@example.com", code)).Expect(201)
}

func TestVerifyCodeExpiresAfterTenMinutes(t *testing.T) {
	app := testkit.Start(t)
	code := startRegistration(t, app, "anna@example.com")
	app.Clock.Advance(10*time.Minute - time.Second)
	code2 := startRegistration(t, app, "bert@example.com")
	app.Clock.Advance(2 * time.Second)
	expectInvalidCode(t, app.Post("/api/v1/auth/register/verify", "", verifyBody("anna@example.com", code)))
	app.Post("/api/v1/auth/register/verify", "", verifyBody("bert@example.com", code2)).Expect(201)
}

func TestVerifyNewCodeReplacesOld(t *testing.T) {
	app := testkit.Start(t)
	old := startRegistration(t, app, "anna@example.com")
	app.Clock.Advance(time.Minute)
	current := startRegistration(t, app, "anna@example.com")
	if old == current {
		t.Skip("the two random codes are equal (1 in a million)")
	}
	expectInvalidCode(t, app.Post("/api/v1/auth/register/verify", "", verifyBody("anna@example.com", old)))
	app.Post("/api/v1/auth/register/verify", "", verifyBody("anna@example.com", current)).Expect(201)
}

func TestVerifyCodeBelongsToItsEmail(t *testing.T) {
	app := testkit.Start(t)
	code := startRegistration(t, app, "anna@example.com")
	startRegistration(t, app, "bert@example.com")
	expectInvalidCode(t, app.Post("/api/v1/auth/register/verify", "", verifyBody("bert@example.com", code)))
	expectInvalidCode(t, app.Post("/api/v1/auth/register/verify", "", verifyBody("nobody@example.com", code)))
}

func TestVerifyConflicts(t *testing.T) {
	app := testkit.Start(t)
	ctx := context.Background()
	// Anna's email is taken between her two steps (by an operator, say).
	code := startRegistration(t, app, "anna@example.com")
	now := app.Clock.Now()
	phone := "+4915112345678"
	if err := accounts.NewStore(app.DB).Insert(ctx, app.DB, &accounts.User{
		Email: "anna@example.com", Name: "Other Anna", Phone: &phone, PasswordHash: "!", Locale: "en", CountryCode: "DE",
		Roles: accounts.RolesOf("ROLE_USER"), IsActive: true, CreatedAt: now, UpdatedAt: now,
	}); err != nil {
		t.Fatal(err)
	}
	var out failureBody
	app.Post("/api/v1/auth/register/verify", "", verifyBody("anna@example.com", code)).Expect(409).JSON(&out)
	if out.Success == nil || *out.Success || out.Error != "email_exists" {
		t.Fatalf("body = %+v, want email_exists", out)
	}
	code = startRegistration(t, app, "bert@example.com")
	body := verifyBody("bert@example.com", code)
	body["phone"] = phone
	app.Post("/api/v1/auth/register/verify", "", body).Expect(409).JSON(&out)
	if out.Error != "phone_exists" {
		t.Fatalf("body = %+v, want phone_exists", out)
	}
	// A conflict leaves the code usable.
	body["phone"] = "+4915199999999"
	app.Post("/api/v1/auth/register/verify", "", body).Expect(201)
	if n := countRows(t, app, "users"); n != 2 {
		t.Fatalf("%d users, want 2", n)
	}
}

func TestVerifyConcurrentSubmissionsCreateOneUser(t *testing.T) {
	app := testkit.Start(t)
	code := startRegistration(t, app, "anna@example.com")
	const n = 8
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			statuses[i] = app.Post("/api/v1/auth/register/verify", "", verifyBody("anna@example.com", code)).Status
		})
	}
	wg.Wait()
	created := 0
	for _, s := range statuses {
		switch s {
		case http.StatusCreated:
			created++
		case http.StatusBadRequest, http.StatusConflict:
			// The losers find the code used, or (when they arrive after the
			// winner committed) the email taken.
		default:
			t.Errorf("status %d, want 201, 400 or 409", s)
		}
	}
	if created != 1 || countRows(t, app, "users") != 1 {
		t.Fatalf("statuses %v: %d created, %d users; want exactly one", statuses, created, countRows(t, app, "users"))
	}
}
