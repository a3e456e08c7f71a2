package proposals

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/mail"
	"github.com/propman/propman/platform/period"
	"github.com/propman/propman/platform/ratelimit"
)

// Rules of an application.
const (
	MaxNameLen      = 100
	MaxEmailLen     = 254
	MaxMessageLen   = 2000
	MaxHousehold    = 20
	CodeValidity    = 15 * time.Minute
	CodeMaxAttempts = 5
)

var (
	phonePattern = regexp.MustCompile(`^\+[1-9][0-9]{6,14}$`)
	// A plain address: something@domain.tld, no spaces; the code proves
	// the rest.
	emailPattern = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
)

// ApplyInput is the body of POST /public/proposals/{slug}/applications.
type ApplyInput struct {
	Name          *string          `json:"name"`
	Email         *string          `json:"email"`
	Phone         *string          `json:"phone"`
	Message       *string          `json:"message" validate:"multiline"`
	DesiredStart  *json.RawMessage `json:"desired_start"`
	HouseholdSize *int             `json:"household_size"`
	Locale        *string          `json:"locale"`
	// Website is the honeypot: a field people never see on the form and
	// robots fill in.
	Website *string `json:"website"`
}

// Applied is the answer to an application: the same for every request
// that passed the checks, so it tells nobody whether the email applied
// before.
type Applied struct {
	ApplicationID string `json:"application_id"`
	ExpiresIn     int    `json:"expires_in"`
	Message       string `json:"message"`
}

const appliedMessage = "If the address is right, a 6-digit code is on its way; confirm the application with it."

// errInvalidCode is every refusal of a code: wrong, expired, used, too
// many tries, unknown application.
func errInvalidCode() error {
	return fault.New(fault.KindInvalid, "invalid_code", "The code is wrong, expired or used; apply again for a new one.")
}

func (s *Service) codeHash(id uuid.UUID, code string) string {
	m := hmac.New(sha256.New, s.codeKey)
	m.Write(id[:])
	m.Write([]byte(code))
	return hex.EncodeToString(m.Sum(nil))
}

func newCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", fmt.Errorf("application code: %w", err)
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

// check normalises in into a new application; one message per problem.
func (s *Service) check(in *ApplyInput, acceptLanguage string) (*Application, []string) {
	var details []string
	fail := func(msg string) { details = append(details, msg) }
	a := &Application{HouseholdSize: 1, Locale: "en"}
	if in.Name == nil {
		fail("name: is required")
	} else {
		a.Name = strings.TrimSpace(*in.Name)
		if n := utf8.RuneCountInString(a.Name); n < 2 || n > MaxNameLen {
			fail(fmt.Sprintf("name: must be 2 to %d characters", MaxNameLen))
		}
	}
	if in.Email == nil {
		fail("email: is required")
	} else {
		a.Email = strings.ToLower(strings.TrimSpace(*in.Email))
		if len(a.Email) > MaxEmailLen || !emailPattern.MatchString(a.Email) {
			fail("email: must be a valid email address")
		}
	}
	if in.Phone != nil && *in.Phone != "" {
		a.Phone = strings.TrimSpace(*in.Phone)
		if !phonePattern.MatchString(a.Phone) {
			fail("phone: must be in E.164 format, e.g. +4930123456")
		}
	}
	if in.Message != nil {
		a.Message = strings.TrimSpace(*in.Message)
		if utf8.RuneCountInString(a.Message) > MaxMessageLen {
			fail(fmt.Sprintf("message: must be at most %d characters", MaxMessageLen))
		}
	}
	if in.DesiredStart != nil && string(*in.DesiredStart) != "null" {
		d, err := period.ParseJSON(*in.DesiredStart)
		if err != nil {
			fail("desired_start: must be a date YYYY-MM-DD")
		}
		a.DesiredStart = d
	}
	if in.HouseholdSize != nil {
		if *in.HouseholdSize < 1 || *in.HouseholdSize > MaxHousehold {
			fail(fmt.Sprintf("household_size: must be from 1 to %d", MaxHousehold))
		}
		a.HouseholdSize = *in.HouseholdSize
	}
	if in.Locale != nil {
		l, ok := s.dir.Language(strings.TrimSpace(*in.Locale))
		if !ok {
			fail("locale: must be the code of an active language (GET /api/v1/languages)")
		} else {
			a.Locale = l.Code
		}
	} else if l, ok := s.languageOf(acceptLanguage); ok {
		a.Locale = l
	}
	return a, details
}

// languageOf is the first active language of an Accept-Language header.
func (s *Service) languageOf(header string) (string, bool) {
	for i, part := range strings.Split(header, ",") {
		if i >= 8 {
			break
		}
		tag, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		tag, _, _ = strings.Cut(tag, "-")
		if l, ok := s.dir.Language(strings.ToLower(tag)); ok && tag != "" {
			return l.Code, true
		}
	}
	return "", false
}

// Apply takes an application to the published proposal with slug from ip:
// it checks the body, the honeypot and the limits, mails a code and
// stores the application as pending. Nothing is stored when anything
// fails.
func (s *Service) Apply(ctx context.Context, slug, ip, acceptLanguage string, in *ApplyInput) (*Applied, error) {
	a, details := s.check(in, acceptLanguage)
	if len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	var pr *Proposal
	if validSlug(slug) {
		got, err := s.store.bySlug(ctx, s.db, slug)
		if err != nil && !errors.Is(err, errNoRow) {
			return nil, err
		}
		pr = got
	}
	if pr == nil || pr.Status == Draft {
		return nil, errNoPage()
	}
	if pr.Status != Published {
		return nil, errState("not_published", "The proposal is closed and takes no more applications.")
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("application id: %w", err)
	}
	answer := &Applied{ApplicationID: id.String(), ExpiresIn: int(CodeValidity / time.Second), Message: appliedMessage}
	if in.Website != nil && strings.TrimSpace(*in.Website) != "" {
		// A robot: the same answer, nothing stored, nothing sent.
		return answer, nil
	}
	if s.perIP {
		if _, wait, err := s.limiter.Take(ctx, ratelimit.Rule{Bucket: "proposals:apply-ip:" + ip, Limit: s.cfg.IPPerHour, Window: time.Hour}); err != nil {
			return nil, err
		} else if wait > 0 {
			return nil, fault.TooManyRequests(ratelimit.Seconds(wait))
		}
	}
	hit, wait, err := s.limiter.Take(ctx,
		ratelimit.Rule{Bucket: "proposals:apply-email:" + a.Email, Limit: s.cfg.EmailPerHour, Window: time.Hour},
		ratelimit.Rule{Bucket: "proposals:apply-proposal:" + pr.ID.String(), Limit: s.cfg.ProposalPerHour, Window: time.Hour})
	if err != nil {
		return nil, err
	}
	if wait > 0 {
		return nil, fault.TooManyRequests(ratelimit.Seconds(wait))
	}
	code, err := newCode()
	if err != nil {
		return nil, err
	}
	now := s.now()
	a.ID, a.WorkspaceID, a.ProposalID, a.Status = id, pr.WorkspaceID, pr.ID, Pending
	a.CodeHash, a.CodeExpiresMS = s.codeHash(id, code), now.Add(CodeValidity).UnixMilli()
	a.CreatedAt, a.UpdatedAt = now, now
	subject, text := codeMail(a.Locale, a.Name, pr.Title, code, int(CodeValidity/time.Minute))
	// Sent before anything is stored: a code that never left is never
	// stored, and a failure leaves the database as it was.
	if err := s.mailer.Send(ctx, mail.Message{To: a.Email, Subject: subject, Text: text}); err != nil {
		s.log.WarnContext(ctx, "application code not sent", "error", err)
		if rerr := s.limiter.Release(context.WithoutCancel(ctx), hit); rerr != nil {
			s.log.ErrorContext(ctx, "release application throttle", "error", rerr)
		}
		return nil, fault.Unavailable("The code could not be sent; try again later.")
	}
	if err := s.store.insertApplication(ctx, s.db, a); err != nil {
		return nil, err
	}
	return answer, nil
}

// Confirm checks the code of a pending application. The attempt is
// counted before the comparison, in one conditional update, and the code
// is consumed by another, so concurrent tries of one code confirm once.
// A second application of the same email to the proposal confirms as the
// first did and is dropped: the answer is the same.
func (s *Service) Confirm(ctx context.Context, slug, rawID, code string) error {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 || len(code) != 6 || !validSlug(slug) {
		return errInvalidCode()
	}
	for _, r := range code {
		if r < '0' || r > '9' {
			return errInvalidCode()
		}
	}
	pr, err := s.store.bySlug(ctx, s.db, slug)
	if errors.Is(err, errNoRow) {
		return errInvalidCode()
	}
	if err != nil {
		return err
	}
	if pr.Status != Published {
		return errState("not_published", "The proposal is closed and takes no more applications.")
	}
	nowMS := s.clock.Now().UnixMilli()
	hashes, err := s.store.attempt(ctx, id, pr.ID, nowMS)
	if err != nil {
		return err
	}
	if len(hashes) != 1 || !hmac.Equal([]byte(hashes[0]), []byte(s.codeHash(id, code))) {
		return errInvalidCode()
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		now := s.now()
		confirmed, err := s.store.confirm(ctx, tx, id, now)
		if database.IsUniqueViolation(err) {
			return errDuplicate
		}
		if err != nil {
			return err
		}
		if !confirmed {
			return errInvalidCode()
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "application",
			RecordID: id.String(), WorkspaceID: pr.WorkspaceID})
	})
	if errors.Is(err, errDuplicate) {
		return s.dropDuplicate(ctx, id)
	}
	return err
}

// errDuplicate: the email's application to the proposal was confirmed
// before.
var errDuplicate = errors.New("proposals: duplicate application")

// dropDuplicate removes a pending application whose email applied to the
// proposal before, after the transaction that found it (PostgreSQL
// refuses every statement after an error in one).
func (s *Service) dropDuplicate(ctx context.Context, id uuid.UUID) error {
	return s.store.dropPending(context.WithoutCancel(ctx), id)
}

// Applications returns a page of the proposal's confirmed applications.
func (s *Service) Applications(ctx context.Context, prop *properties.Property, rawID string, q listing.Query) ([]Application, listing.Result, error) {
	pr, err := s.proposal(ctx, s.db, prop, rawID, false)
	if err != nil {
		return nil, listing.Result{}, err
	}
	return s.store.applications(ctx, pr.ID, q)
}

// ErrNoApplication is what an application of another property, or none,
// answers to another module: test it with errors.Is.
var ErrNoApplication = errors.New("application not found")

func errNoApplication() error {
	return fault.NotFound("Application not found.").Because(ErrNoApplication)
}

// Application returns, through db, the property's confirmed application
// with the raw id and its proposal: the negotiations module opens a
// negotiation on one.
func (s *Service) Application(ctx context.Context, db bun.IDB, prop *properties.Property, rawID string) (*Application, *Proposal, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, nil, errNoApplication()
	}
	a, err := s.store.confirmedApplication(ctx, db, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, errNoApplication()
	}
	if err != nil {
		return nil, nil, err
	}
	pr, err := s.store.proposal(ctx, db, prop.ID, a.ProposalID, false)
	if errors.Is(err, errNoRow) {
		return nil, nil, errNoApplication()
	}
	if err != nil {
		return nil, nil, err
	}
	return a, pr, nil
}

// Decide shortlists or declines a confirmed application and queues the
// applicant's mail in the same transaction. Deciding it again the same way
// changes nothing; a declined one is not shortlisted again.
func (s *Service) Decide(ctx context.Context, prop *properties.Property, proposalID, rawID, to string) (*Application, error) {
	var out *Application
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		pr, err := s.proposal(ctx, tx, prop, proposalID, true)
		if err != nil {
			return err
		}
		id, err := uuid.Parse(rawID)
		if err != nil || len(rawID) != 36 {
			return errNoApplication()
		}
		a, err := s.store.application(ctx, tx, pr.ID, id)
		if errors.Is(err, errNoRow) || (err == nil && a.Status == Pending) {
			return errNoApplication()
		}
		if err != nil {
			return err
		}
		out = a
		if a.Status == to {
			return nil
		}
		if a.Status == Declined {
			return errState("declined", "The application was declined.")
		}
		before := applicationView(a)
		now := s.now()
		a.Status, a.DecidedAt, a.UpdatedAt = to, &now, now
		if err := s.store.decide(ctx, tx, a.ID, to, now); err != nil {
			return err
		}
		if _, err := s.queue.Insert(ctx, tx, mailArgs{ApplicationID: a.ID.String(), Mail: to},
			&river.InsertOpts{Queue: jobs.MailQueue}); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "application",
			RecordID: a.ID.String(), WorkspaceID: a.WorkspaceID, Changes: activity.Diff(before, applicationView(a))})
	})
	return out, err
}
