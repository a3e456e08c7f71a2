package contragents

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/propman/propman/modules/accounts"
)

// Bounds of the fields, in characters (email in bytes, as everywhere).
const (
	NameMax    = 200
	EmailMax   = 254
	AddressMax = 500
	TaxIDMax   = 50
	NotesMax   = 2000
)

var phonePattern = regexp.MustCompile(`^\+[1-9][0-9]{6,14}$`)

// Input carries a contragent's editable fields as received. A nil field is
// left as it is by Update; Create needs Kind, Roles and Name.
type Input struct {
	Kind    *string
	Roles   *[]string
	Name    *string
	Email   *string
	Phone   *string
	Address *string
	TaxID   *string
	Notes   *string
}

// normalize trims the given text fields, lower-cases the email, puts the
// roles in canonical order and returns one message per broken rule ("field:
// rule"); creating adds the required fields' messages.
func (in *Input) normalize(creating bool) []string {
	var details []string
	fail := func(field, rule string) { details = append(details, field+": "+rule) }
	for _, f := range []*string{in.Kind, in.Name, in.Email, in.Phone, in.Address, in.TaxID, in.Notes} {
		if f != nil {
			*f = strings.TrimSpace(*f)
		}
	}
	if in.Email != nil {
		*in.Email = strings.ToLower(*in.Email)
	}
	if in.Kind == nil {
		if creating {
			fail("kind", "is required")
		}
	} else if *in.Kind != KindPerson && *in.Kind != KindCompany {
		fail("kind", "must be one of person, company")
	}
	if in.Roles == nil {
		if creating {
			fail("roles", "is required")
		}
	} else if roles, problem := canonicalRoles(*in.Roles); problem != "" {
		fail("roles", problem)
	} else {
		*in.Roles = roles
	}
	if in.Name == nil {
		if creating {
			fail("name", "is required")
		}
	} else {
		switch n := utf8.RuneCountInString(*in.Name); {
		case n == 0:
			fail("name", "must not be empty")
		case n > NameMax:
			fail("name", fmt.Sprintf("must be at most %d characters", NameMax))
		case hasControl(*in.Name, false):
			fail("name", "must not contain control characters")
		}
	}
	if in.Email != nil && *in.Email != "" {
		switch e := *in.Email; {
		case len(e) > EmailMax:
			fail("email", fmt.Sprintf("must be at most %d characters", EmailMax))
		case !accounts.ValidEmail(e):
			fail("email", "must be a valid email address")
		}
	}
	if in.Phone != nil && *in.Phone != "" && !phonePattern.MatchString(*in.Phone) {
		fail("phone", "must be an international phone number (E.164) such as +4915112345678")
	}
	text := func(field string, v *string, limit int, multiline bool) {
		switch {
		case v == nil:
		case utf8.RuneCountInString(*v) > limit:
			fail(field, fmt.Sprintf("must be at most %d characters", limit))
		case hasControl(*v, multiline):
			fail(field, "must not contain control characters")
		}
	}
	text("address", in.Address, AddressMax, true)
	text("tax_id", in.TaxID, TaxIDMax, false)
	text("notes", in.Notes, NotesMax, true)
	return details
}

// canonicalRoles checks a set of roles and returns it in the order of
// Roles, or a message saying what is wrong.
func canonicalRoles(roles []string) ([]string, string) {
	if len(roles) == 0 {
		return nil, "must name at least one role (tenant, guarantor, provider)"
	}
	seen := map[string]bool{}
	for _, r := range roles {
		if !slices.Contains(Roles, r) {
			return nil, fmt.Sprintf("%q is not a role; roles are tenant, guarantor, provider", r)
		}
		if seen[r] {
			return nil, fmt.Sprintf("%q is given twice", r)
		}
		seen[r] = true
	}
	out := make([]string, 0, len(roles))
	for _, r := range Roles {
		if seen[r] {
			out = append(out, r)
		}
	}
	return out, ""
}

// hasControl reports control characters in s; multiline text may hold line
// breaks and tabs.
func hasControl(s string, multiline bool) bool {
	return strings.IndexFunc(s, func(r rune) bool {
		if multiline && (r == '\n' || r == '\r' || r == '\t') {
			return false
		}
		return unicode.IsControl(r)
	}) >= 0
}

// apply copies the normalized in onto c.
func (in *Input) apply(c *Contragent) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&c.Kind, in.Kind)
	if in.Roles != nil {
		c.Roles = slices.Clone(*in.Roles)
	}
	set(&c.Name, in.Name)
	set(&c.Email, in.Email)
	set(&c.Phone, in.Phone)
	set(&c.Address, in.Address)
	set(&c.TaxID, in.TaxID)
	set(&c.Notes, in.Notes)
	c.NameSearch = strings.ToLower(c.Name)
}
