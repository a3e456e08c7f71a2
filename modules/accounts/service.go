package accounts

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"strings"
	"sync"
	"time"

	"github.com/propman/propman/modules/accounts/mailtpl"
	"github.com/propman/propman/modules/accounts/pwhash"
	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/mail"
	"github.com/propman/propman/platform/ratelimit"
)

// Limits of API-DECISIONS "Registration and login".
const (
	CodeValidity    = 10 * time.Minute
	CodeMaxAttempts = 5
	DefaultLocale   = "en"
)

// Service holds the rules of registration, login, tokens and the profile.
type Service struct {
	store   *Store
	limiter *ratelimit.Limiter
	tokens  *auth.Tokens
	mailer  mail.Mailer
	clock   clock.Clock
	dir     *reference.Directory
	log     *slog.Logger
	// perIP is ratelimit.enabled: it switches the per-IP limits only.
	perIP   bool
	codeKey []byte

	referrals Referrals
}

// NewService returns the accounts service.
func NewService(store *Store, limiter *ratelimit.Limiter, tokens *auth.Tokens, mailer mail.Mailer,
	clk clock.Clock, dir *reference.Directory, cfg *config.Config, log *slog.Logger) *Service {
	return &Service{
		store: store, limiter: limiter, tokens: tokens, mailer: mailer, clock: clk, dir: dir, log: log,
		perIP: cfg.RateLimit.Enabled, codeKey: tokens.DeriveKey("propman/accounts/verification-code/v1"),
	}
}

func (s *Service) rules() *rules { return &rules{dir: s.dir} }

// RegisterInput is step 1 of registration.
type RegisterInput struct {
	Name   string
	Email  string
	Locale string
	IP     string
}

// Register checks step 1, throttles it, and emails a new 6-digit code that
// replaces any earlier one. When the mail cannot be sent nothing is stored
// and the per-email throttle is given back, so the user may retry at once.
func (s *Service) Register(ctx context.Context, in RegisterInput) error {
	in.Name = strings.TrimSpace(in.Name)
	in.Email = NormalizeEmail(in.Email)
	r := s.rules()
	r.name("name", in.Name)
	r.email("email", in.Email)
	var locale *string
	if in.Locale != "" {
		if l := r.locale("locale", in.Locale); l != "" {
			locale = &l
		}
	}
	if err := r.err(); err != nil {
		return err
	}
	// The per-IP count comes first, so it also bounds probing which
	// emails are registered.
	if s.perIP {
		if _, wait, err := s.limiter.Take(ctx, ratelimit.Rule{Bucket: "register:ip:" + in.IP, Limit: 20, Window: time.Hour}); err != nil {
			return err
		} else if wait > 0 {
			return &RateLimitError{Wait: wait}
		}
	}
	taken, err := s.store.EmailTaken(ctx, in.Email)
	if err != nil {
		return err
	}
	if taken {
		return ErrEmailExists
	}
	hit, wait, err := s.limiter.Take(ctx,
		ratelimit.Rule{Bucket: "register:email-minute:" + in.Email, Limit: 1, Window: time.Minute},
		ratelimit.Rule{Bucket: "register:email-hour:" + in.Email, Limit: 5, Window: time.Hour},
	)
	if err != nil {
		return err
	}
	if wait > 0 {
		return &RateLimitError{Wait: wait}
	}
	code, err := newCode()
	if err != nil {
		return err
	}
	mailLocale := DefaultLocale
	if locale != nil {
		mailLocale = *locale
	}
	subject, text, html, err := mailtpl.Render(mailLocale, in.Name, code, int(CodeValidity/time.Minute))
	if err != nil {
		return err
	}
	// Send before storing: a code that was never delivered is never stored,
	// and a failure leaves the database as it was.
	if err := s.mailer.Send(ctx, mail.Message{To: in.Email, Subject: subject, Text: text, HTML: html}); err != nil {
		s.log.WarnContext(ctx, "verification mail not sent", "error", err)
		if rerr := s.limiter.Release(context.WithoutCancel(ctx), hit); rerr != nil {
			s.log.ErrorContext(ctx, "release register throttle", "error", rerr)
		}
		return ErrMailUnavailable
	}
	now := s.clock.Now()
	return s.store.SaveCode(ctx, &VerificationCode{
		Email: in.Email, CodeHash: s.codeHash(in.Email, code), Name: in.Name, Locale: locale,
		ExpiresMS: now.Add(CodeValidity).UnixMilli(), CreatedMS: now.UnixMilli(),
	})
}

// newCode returns 6 digits, uniform over 000000-999999, from crypto/rand.
func newCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", fmt.Errorf("verification code: %w", err)
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

// codeHash binds a code to its email under the server's derived key, so a
// database dump alone does not reveal codes.
func (s *Service) codeHash(email, code string) string {
	m := hmac.New(sha256.New, s.codeKey)
	m.Write([]byte(email))
	m.Write([]byte{0})
	m.Write([]byte(code))
	return hex.EncodeToString(m.Sum(nil))
}

// VerifyInput is step 2 of registration.
type VerifyInput struct {
	Email       string
	Code        string
	Password    string
	CountryCode string
	Phone       string
	Locale      string
	// ReferralCode is a partner's invitation code (optional; checked and
	// linked by the Referrals the partners module sets).
	ReferralCode string
}

// Referrals is the partners module's part in registration: a referral
// code is checked before the account is made (an error is a 400 naming
// referral_code, and nothing is stored) and linked to it after.
type Referrals interface {
	CheckReferral(ctx context.Context, code, email string) error
	Referred(ctx context.Context, code string, userID int64) error
}

// SetReferrals installs the referral check of registration (the partners
// module calls it at start); without it a referral_code is ignored.
func (s *Service) SetReferrals(r Referrals) { s.referrals = r }

// Verify checks the code and creates the user.
func (s *Service) Verify(ctx context.Context, in VerifyInput) (*User, error) {
	in.Email = NormalizeEmail(in.Email)
	r := s.rules()
	r.email("email", in.Email)
	if len(in.Code) != 6 {
		r.fail("code: must be exactly 6 characters")
	}
	r.password("password", in.Password)
	country := r.country("country_code", in.CountryCode)
	var phone *string
	if in.Phone != "" {
		r.phone("phone", in.Phone)
		phone = &in.Phone
	}
	locale := ""
	if in.Locale != "" {
		locale = r.locale("locale", in.Locale)
	}
	referral := strings.TrimSpace(in.ReferralCode)
	if len(referral) > 40 {
		r.fail("referral_code: must be at most 40 characters")
	}
	if err := r.err(); err != nil {
		return nil, err
	}

	now := s.clock.Now()
	vc, err := s.store.AttemptCode(ctx, in.Email, now.UnixMilli(), CodeMaxAttempts)
	if errors.Is(err, errCodeGone) {
		return nil, ErrInvalidCode
	}
	if err != nil {
		return nil, err
	}
	if !hmac.Equal([]byte(vc.CodeHash), []byte(s.codeHash(in.Email, in.Code))) {
		return nil, ErrInvalidCode
	}
	if taken, err := s.store.EmailTaken(ctx, in.Email); err != nil {
		return nil, err
	} else if taken {
		return nil, ErrEmailExists
	}
	if referral != "" && s.referrals != nil {
		// A *FieldError (400 validation_failed) when the code is unknown,
		// used, for another email, or the registrant's own.
		if err := s.referrals.CheckReferral(ctx, referral, in.Email); err != nil {
			return nil, err
		}
	}
	if phone != nil {
		if taken, err := s.store.PhoneTaken(ctx, *phone, 0); err != nil {
			return nil, err
		} else if taken {
			return nil, ErrPhoneExists
		}
	}
	hash, err := pwhash.Hash(ctx, in.Password)
	if err != nil {
		return nil, err
	}
	switch {
	case locale != "":
	case vc.Locale != nil:
		locale = *vc.Locale
	default:
		locale = localeOfCountry(country)
	}
	u := &User{
		Email: in.Email, Name: vc.Name, Phone: phone, PasswordHash: hash, Locale: locale,
		CountryCode: country, Roles: RolesOf(auth.RoleUser), IsActive: true, CreatedAt: now, UpdatedAt: now,
	}
	switch err := s.store.CreateFromCode(ctx, in.Email, vc.CodeHash, u); {
	case errors.Is(err, errCodeGone):
		return nil, ErrInvalidCode
	case errors.Is(err, errEmailTaken):
		return nil, ErrEmailExists
	case errors.Is(err, errPhoneTaken):
		return nil, ErrPhoneExists
	case err != nil:
		return nil, err
	}
	if referral != "" && s.referrals != nil {
		// The account exists: a referral that cannot be linked now is
		// logged, not a failed registration.
		if err := s.referrals.Referred(ctx, referral, u.ID); err != nil {
			s.log.WarnContext(ctx, "referral not linked", "user", u.ID, "error", err)
		}
	}
	return u, nil
}

// LoginInput is a login attempt.
type LoginInput struct {
	Email    string
	Password string
	IP       string
}

// dummyHash is checked for unknown emails, so that they take as long as a
// wrong password.
var dummyHash = sync.OnceValue(func() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	h, err := pwhash.Hash(context.Background(), hex.EncodeToString(b))
	if err != nil {
		panic(err) // only a broken crypto/rand gets here
	}
	return h
})

// Login checks the credentials and returns a new token. Failures are counted
// per email and IP, per email and per IP; a success clears its email and IP
// count. The attempt is counted before the password is checked, so parallel
// guesses cannot slip past a limit, and given back on success.
func (s *Service) Login(ctx context.Context, in LoginInput) (string, error) {
	email := NormalizeEmail(in.Email)
	pairBucket := "login:email-ip:" + email + "|" + in.IP
	rules := []ratelimit.Rule{
		{Bucket: pairBucket, Limit: 5, Window: 15 * time.Minute},
		{Bucket: "login:email:" + email, Limit: 50, Window: time.Hour},
	}
	if s.perIP {
		rules = append(rules, ratelimit.Rule{Bucket: "login:ip:" + in.IP, Limit: 100, Window: time.Hour})
	}
	hit, wait, err := s.limiter.Take(ctx, rules...)
	if err != nil {
		return "", err
	}
	if wait > 0 {
		return "", &RateLimitError{Wait: wait}
	}
	u, err := s.store.ByEmail(ctx, email)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return "", err
	}
	hash := dummyHash()
	if u != nil {
		hash = u.PasswordHash
	}
	ok, err := pwhash.Verify(ctx, in.Password, hash)
	if errors.Is(err, pwhash.ErrMalformed) {
		// An account made without a usable password (e.g. by a test) cannot
		// log in; spend the same time as a real check.
		_, _ = pwhash.Verify(ctx, in.Password, dummyHash())
		ok, err = false, nil
	}
	if err != nil {
		return "", err
	}
	if u == nil || !ok || !u.IsActive {
		return "", ErrInvalidCredentials
	}
	if err := s.limiter.ReleaseAndClear(ctx, hit, pairBucket); err != nil {
		return "", err
	}
	return s.tokens.Issue(u.ID, u.TokenVersion, s.clock.Now())
}

// Refresh issues a new token for the same login, unless that login is older
// than auth.maxage.
func (s *Service) Refresh(p auth.Principal) (string, error) {
	if s.clock.Now().Sub(p.AuthTime) > s.tokens.MaxAge() {
		return "", ErrSessionTooOld
	}
	return s.tokens.Issue(p.UserID, p.Version, p.AuthTime)
}

// TokenTTL is the lifetime of the tokens Login and Refresh return.
func (s *Service) TokenTTL() time.Duration { return s.tokens.TTL() }

// User returns the user with id.
func (s *Service) User(ctx context.Context, id int64) (*User, error) {
	return s.store.ByID(ctx, id)
}

// View is the User resource of u.
func (s *Service) View(u *User) UserView {
	phoneCode := ""
	if c, ok := s.dir.Country(u.CountryCode); ok {
		phoneCode = c.PhoneCode
	}
	return UserView{
		ID: u.ID, Name: u.Name, Email: u.Email, Phone: u.Phone, Locale: u.Locale,
		Country: CountryRef{Code: u.CountryCode, PhoneCode: phoneCode},
		Roles:   u.Roles.List(), IsActive: u.IsActive, CreatedAt: u.CreatedAt.UTC().Format(time.RFC3339),
	}
}

// ProfileView is the profile of u: the User resource and updated_at.
func (s *Service) ProfileView(u *User) ProfileView {
	return ProfileView{UserView: s.View(u), UpdatedAt: u.UpdatedAt.UTC().Format(time.RFC3339), PostalAddress: u.PostalAddress(),
		LandlordType: u.LandlordTypeOf()}
}

// ProfileUpdate holds the profile fields a user may change; nil leaves a
// field as it is. ClearPhone removes the phone.
type ProfileUpdate struct {
	Name        *string
	Phone       *string
	ClearPhone  bool
	Locale      *string
	CountryCode *string
	// PostalAddress replaces the whole postal address; ClearPostalAddress
	// removes it.
	PostalAddress      *PostalAddress
	ClearPostalAddress bool
	// LandlordType is natural_person or company.
	LandlordType *string
}

// UpdateProfile applies the update to the user with id under the rules of
// registration. Nothing else of the user can be changed this way.
func (s *Service) UpdateProfile(ctx context.Context, id int64, in ProfileUpdate) (*User, error) {
	u, err := s.store.ByID(ctx, id)
	if err != nil {
		return nil, err
	}
	r := s.rules()
	if in.Name != nil {
		name := strings.TrimSpace(*in.Name)
		r.name("name", name)
		u.Name = name
	}
	if in.ClearPhone {
		u.Phone = nil
	} else if in.Phone != nil {
		phone := *in.Phone
		r.phone("phone", phone)
		u.Phone = &phone
	}
	if in.Locale != nil {
		u.Locale = r.locale("locale", *in.Locale)
	}
	if in.CountryCode != nil {
		u.CountryCode = r.country("country_code", *in.CountryCode)
	}
	if in.ClearPostalAddress {
		u.AddressLine, u.AddressPostalCode, u.AddressCity, u.AddressCountry = "", "", "", ""
	} else if in.PostalAddress != nil {
		a := r.postalAddress("postal_address", *in.PostalAddress)
		u.AddressLine, u.AddressPostalCode, u.AddressCity, u.AddressCountry = a.Address, a.PostalCode, a.City, a.CountryCode
	}
	if in.LandlordType != nil {
		switch t := strings.ToLower(strings.TrimSpace(*in.LandlordType)); t {
		case LandlordPerson, LandlordCompany:
			u.LandlordType = t
		default:
			r.fail("landlord_type: must be natural_person or company")
		}
	}
	if err := r.err(); err != nil {
		return nil, err
	}
	u.UpdatedAt = s.clock.Now()
	switch err := s.store.UpdateProfile(ctx, u); {
	case errors.Is(err, errPhoneTaken):
		return nil, ErrPhoneExists
	case err != nil:
		return nil, err
	}
	return u, nil
}

// ChangePassword replaces the password of the user with id after checking
// the current one, and raises the token version so every older token stops
// working. Wrong current passwords are throttled like logins, so a stolen
// token cannot be used to guess the password.
func (s *Service) ChangePassword(ctx context.Context, id int64, current, next string) error {
	r := s.rules()
	if current == "" {
		r.fail("current_password: is required")
	} else if len(current) > 4*passwordMax {
		r.fail("current_password: is too long")
	}
	r.password("new_password", next)
	if err := r.err(); err != nil {
		return err
	}
	bucket := fmt.Sprintf("password:user:%d", id)
	hit, wait, err := s.limiter.Take(ctx, ratelimit.Rule{Bucket: bucket, Limit: 5, Window: 15 * time.Minute})
	if err != nil {
		return err
	}
	if wait > 0 {
		return &RateLimitError{Wait: wait}
	}
	u, err := s.store.ByID(ctx, id)
	if err != nil {
		return err
	}
	ok, err := pwhash.Verify(ctx, current, u.PasswordHash)
	if err != nil && !errors.Is(err, pwhash.ErrMalformed) {
		return err
	}
	if !ok {
		return ErrInvalidPassword
	}
	if err := s.limiter.Release(ctx, hit); err != nil {
		return err
	}
	if u.PasswordHash, err = pwhash.Hash(ctx, next); err != nil {
		return err
	}
	u.UpdatedAt = s.clock.Now()
	return s.store.SetPassword(ctx, u)
}

// countryLocales are the languages a registrant of a country reads
// without saying so (LANDLORD-CORE: a user who registers with DE and no
// locale gets German), among the service's five.
var countryLocales = map[string]string{
	"DE": "de", "AT": "de", "CH": "de", "LI": "de",
	"FR": "fr", "MC": "fr", "LU": "fr",
	"ES": "es",
	"UA": "uk",
}

// localeOfCountry is the language a registrant of country gets when they
// chose none: the country's, else English.
func localeOfCountry(country string) string {
	if l, ok := countryLocales[strings.ToUpper(country)]; ok {
		return l
	}
	return DefaultLocale
}
