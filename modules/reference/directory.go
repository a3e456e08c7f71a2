package reference

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"
)

// Directory answers which countries and languages are active. Other modules
// use it to validate codes; it is read from the database at start and kept
// in memory, because this data changes only when an operator changes it.
type Directory struct {
	db   *bun.DB
	snap atomic.Pointer[snapshot]
}

type snapshot struct {
	countries     []Country // active, sorted by code
	languages     []Language
	countryByKey  map[string]Country
	languageByKey map[string]Language
}

// NewDirectory loads the active countries and languages.
func NewDirectory(db *bun.DB) (*Directory, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d := &Directory{db: db}
	if err := d.Reload(ctx); err != nil {
		return nil, err
	}
	return d, nil
}

// Reload reads the tables again.
func (d *Directory) Reload(ctx context.Context) error {
	s := &snapshot{countryByKey: map[string]Country{}, languageByKey: map[string]Language{}}
	if err := d.db.NewSelect().Model(&s.countries).Where("is_active").Order("code").Scan(ctx); err != nil {
		return fmt.Errorf("load countries: %w", err)
	}
	if err := d.db.NewSelect().Model(&s.languages).Where("is_active").Order("code").Scan(ctx); err != nil {
		return fmt.Errorf("load languages: %w", err)
	}
	for _, c := range s.countries {
		s.countryByKey[c.Code] = c
	}
	for _, l := range s.languages {
		s.languageByKey[l.Code] = l
	}
	d.snap.Store(s)
	return nil
}

// Country returns the active country with the ISO code (any case).
func (d *Directory) Country(code string) (Country, bool) {
	c, ok := d.snap.Load().countryByKey[strings.ToUpper(code)]
	return c, ok
}

// Language returns the active language with the code (any case).
func (d *Directory) Language(code string) (Language, bool) {
	l, ok := d.snap.Load().languageByKey[strings.ToLower(code)]
	return l, ok
}

// Countries returns the active countries sorted by code.
func (d *Directory) Countries() []Country { return d.snap.Load().countries }

// Languages returns the active languages sorted by code.
func (d *Directory) Languages() []Language { return d.snap.Load().languages }
