package accounts

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/propman/propman/platform/auth"
)

// ExternalUser is what an identity provider vouches for: a verified email
// and, when it says so, a display name and a language.
type ExternalUser struct {
	Email string
	Name  string
	// Locale is the provider's language tag (en, de-DE); an inactive one
	// falls back to the default.
	Locale string
	// CountryCode is the country a new account gets (the provider's
	// configuration); the user may change it in the profile.
	CountryCode string
}

// ErrInactive means the account exists but is switched off.
var ErrInactive = errors.New("the account is inactive")

// SignInExternal returns the account of the email an identity provider has
// verified, creating it (without a usable password) when there is none;
// created says which. The caller must have checked that the provider
// verified the email: whoever holds the email holds the account.
func (s *Service) SignInExternal(ctx context.Context, in ExternalUser) (u *User, created bool, err error) {
	email := NormalizeEmail(in.Email)
	r := s.rules()
	r.email("email", email)
	country := r.country("country_code", in.CountryCode)
	if err := r.err(); err != nil {
		return nil, false, err
	}
	for range 2 {
		u, err = s.store.ByEmail(ctx, email)
		switch {
		case err == nil:
			if !u.IsActive {
				return nil, false, ErrInactive
			}
			return u, false, nil
		case !errors.Is(err, ErrNotFound):
			return nil, false, err
		}
		now := s.clock.Now()
		u = &User{
			Email: email, Name: externalName(in.Name, email), Locale: s.externalLocale(in.Locale),
			CountryCode: country, Roles: RolesOf(auth.RoleUser), IsActive: true, CreatedAt: now, UpdatedAt: now,
		}
		// An empty hash is no PHC string: password login refuses it (see
		// Login), so the account signs in only through its provider until
		// its holder sets a password.
		err = s.store.Insert(ctx, s.store.db, u)
		if err == nil {
			return u, true, nil
		}
		if !errors.Is(uniqueError(err), errEmailTaken) {
			return nil, false, err
		}
		// Two callbacks for one new email at once: the other created it;
		// read it again.
	}
	return nil, false, err
}

// IssueToken returns a new token for the user with id, as a login does:
// the usual lifetime, auth_time now. An inactive or deleted user gets
// ErrInactive.
func (s *Service) IssueToken(ctx context.Context, id int64) (string, error) {
	u, err := s.store.ByID(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return "", ErrInactive
	}
	if err != nil {
		return "", err
	}
	if !u.IsActive {
		return "", ErrInactive
	}
	return s.tokens.Issue(u.ID, u.TokenVersion, s.clock.Now())
}

// externalName is the provider's name when it fits the name rule (2 to 100
// characters), else the email's local part, else the email itself.
func externalName(name, email string) string {
	fits := func(s string) bool {
		n := utf8.RuneCountInString(s)
		return n >= 2 && n <= 100 && utf8.ValidString(s) && !strings.ContainsFunc(s, isControl)
	}
	if n := strings.TrimSpace(name); fits(n) {
		return n
	}
	if local, _, ok := strings.Cut(email, "@"); ok && fits(local) {
		return local
	}
	if r := []rune(email); len(r) > 100 {
		return string(r[:100])
	}
	return email
}

func isControl(r rune) bool { return r < 0x20 || (r >= 0x7f && r <= 0x9f) }

// externalLocale maps a provider's language tag (de-DE) to an active
// language, else the default.
func (s *Service) externalLocale(tag string) string {
	base, _, _ := strings.Cut(strings.ReplaceAll(tag, "_", "-"), "-")
	if base == "" || len(base) > 8 {
		return DefaultLocale
	}
	if l, ok := s.dir.Language(strings.ToLower(base)); ok {
		return l.Code
	}
	return DefaultLocale
}
