package accounts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
)

// Store reads and writes users and pending verification codes.
type Store struct {
	db *bun.DB
	// changing is told before this store changes the row of a user; what
	// it returns is called after the change committed (the principal cache
	// forgets the user, see principals.changing).
	changing func(id int64) (settle func(ctx context.Context))
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// ErrNotFound means no user matched.
var ErrNotFound = errors.New("user not found")

// errCodeGone means the code row was consumed or replaced in the meantime.
var errCodeGone = errors.New("verification code gone")

// Insert adds u and sets its id.
func (s *Store) Insert(ctx context.Context, db bun.IDB, u *User) error {
	if err := database.Query(ctx, db, db.NewInsert().Model(u).Returning("id"), u); err != nil {
		return fmt.Errorf("insert user: %w", err)
	}
	return nil
}

// ByID returns the user with id.
func (s *Store) ByID(ctx context.Context, id int64) (*User, error) {
	u := new(User)
	err := database.Select(ctx, s.db, s.db.NewSelect().Model(u).Where("id = ?", database.Param{V: id}))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("user by id: %w", err)
	}
	return u, nil
}

// ByEmail returns the user with the (lower-cased) email.
func (s *Store) ByEmail(ctx context.Context, email string) (*User, error) {
	u := new(User)
	err := database.Select(ctx, s.db, s.db.NewSelect().Model(u).Where("email = ?", email))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("user by email: %w", err)
	}
	return u, nil
}

// EmailTaken reports whether a user has the email.
func (s *Store) EmailTaken(ctx context.Context, email string) (bool, error) {
	ok, err := database.Exists(ctx, s.db, s.db.NewSelect().Model((*User)(nil)).Where("email = ?", email))
	if err != nil {
		return false, fmt.Errorf("email taken: %w", err)
	}
	return ok, nil
}

// PhoneTaken reports whether a user other than exceptID has the phone.
func (s *Store) PhoneTaken(ctx context.Context, phone string, exceptID int64) (bool, error) {
	ok, err := database.Exists(ctx, s.db, s.db.NewSelect().Model((*User)(nil)).Where("phone = ?", phone).Where("id <> ?", database.Param{V: exceptID}))
	if err != nil {
		return false, fmt.Errorf("phone taken: %w", err)
	}
	return ok, nil
}

// SaveCode stores c, replacing any earlier code for the same email.
func (s *Store) SaveCode(ctx context.Context, c *VerificationCode) error {
	_, err := database.Exec(ctx, s.db, s.db.NewInsert().Model(c).
		On("CONFLICT (email) DO UPDATE").
		Set("code_hash = EXCLUDED.code_hash").
		Set("name = EXCLUDED.name").
		Set("locale = EXCLUDED.locale").
		Set("attempts = 0").
		Set("expires_ms = EXCLUDED.expires_ms").
		Set("created_ms = EXCLUDED.created_ms"))
	if err != nil {
		return fmt.Errorf("save verification code: %w", err)
	}
	return nil
}

// AttemptCode counts one attempt at the email's code, if it is unexpired and
// has attempts left, and returns it. The increment happens before the caller
// compares the code, in one statement, so parallel guesses cannot share an
// attempt. It returns errCodeGone when no usable code exists.
func (s *Store) AttemptCode(ctx context.Context, email string, nowMS int64, maxAttempts int) (*VerificationCode, error) {
	c := new(VerificationCode)
	err := database.Query(ctx, s.db, s.db.NewRaw(`UPDATE verification_codes SET attempts = attempts + 1
		WHERE email = ? AND attempts < ? AND expires_ms > ?
		RETURNING email, code_hash, name, locale, attempts, expires_ms, created_ms`,
		email, database.Param{V: maxAttempts}, database.Param{V: nowMS}), c)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errCodeGone
	}
	if err != nil {
		return nil, fmt.Errorf("attempt verification code: %w", err)
	}
	return c, nil
}

// CreateFromCode consumes the code (only if its hash is still codeHash) and
// inserts u in one transaction: of several requests with the same code, one
// deletes the row and the others find it gone.
func (s *Store) CreateFromCode(ctx context.Context, email, codeHash string, u *User) error {
	return database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		res, err := database.Exec(ctx, tx, tx.NewDelete().Model((*VerificationCode)(nil)).
			Where("email = ?", email).Where("code_hash = ?", codeHash))
		if err != nil {
			return fmt.Errorf("consume verification code: %w", err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return errCodeGone
		}
		if err := s.Insert(ctx, tx, u); err != nil {
			return uniqueError(err)
		}
		return nil
	})
}

// UpdateProfile writes the profile fields of u.
func (s *Store) UpdateProfile(ctx context.Context, u *User) error {
	settle := s.change(u.ID)
	_, err := database.Exec(ctx, s.db, s.db.NewUpdate().Model(u).
		Column("name", "phone", "locale", "country_code",
			"address_line", "address_postal_code", "address_city", "address_country_code", "landlord_type", "updated_at").
		Where("?TableAlias.id = ?", database.Param{V: u.ID}))
	if err != nil {
		return uniqueError(fmt.Errorf("update profile: %w", err))
	}
	settle(ctx)
	return nil
}

// SetPassword stores a new hash and raises the token version, so every token
// issued before stops working.
func (s *Store) SetPassword(ctx context.Context, u *User) error {
	settle := s.change(u.ID)
	err := database.Query(ctx, s.db, s.db.NewUpdate().Model(u).
		Set("password_hash = ?", u.PasswordHash).
		Set("token_version = token_version + 1").
		Set("updated_at = ?", u.UpdatedAt).
		Where("?TableAlias.id = ?", database.Param{V: u.ID}).Returning("token_version"), u)
	if err != nil {
		return fmt.Errorf("set password: %w", err)
	}
	settle(ctx)
	return nil
}

// SetRoles replaces the user's roles.
func (s *Store) SetRoles(ctx context.Context, u *User) error {
	settle := s.change(u.ID)
	_, err := database.Exec(ctx, s.db, s.db.NewUpdate().Model(u).Column("roles", "updated_at").
		Where("?TableAlias.id = ?", database.Param{V: u.ID}))
	if err != nil {
		return fmt.Errorf("set roles: %w", err)
	}
	settle(ctx)
	return nil
}

func (s *Store) change(id int64) (settle func(ctx context.Context)) {
	if s.changing == nil {
		return func(context.Context) {}
	}
	return s.changing(id)
}

// Errors of a unique key on users.
var (
	errEmailTaken = errors.New("email taken")
	errPhoneTaken = errors.New("phone taken")
)

func uniqueError(err error) error {
	if !database.IsUniqueViolation(err) {
		return err
	}
	if strings.Contains(database.ConstraintName(err), "phone") {
		return errPhoneTaken
	}
	return errEmailTaken
}

// notifyUsers sends payload on the users' channel (PostgreSQL only: the
// instances listening forget a changed user, or acknowledge that they did).
func (s *Store) notifyUsers(ctx context.Context, payload string) error {
	_, err := database.Exec(ctx, s.db, s.db.NewRaw("SELECT pg_notify(?, ?)", usersChannel, payload))
	return err
}

// LocaleOf returns, through db, the profile language of the user with id;
// "" when the user is gone or chose none.
func LocaleOf(ctx context.Context, db bun.IDB, id int64) (string, error) {
	var locale string
	err := database.Query(ctx, db, db.NewSelect().Model((*User)(nil)).Column("locale").Where("id = ?", database.Param{V: id}), &locale)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("language of user: %w", err)
	}
	return locale, nil
}
