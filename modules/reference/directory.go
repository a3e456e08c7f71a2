package reference

import (
	"context"
	"log/slog"
	"reflect"
	"strings"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/httpserver"
)

// Directory answers which countries and languages are active. Other modules
// use it to validate codes; the handlers serve its precomputed responses.
// It is read from the database at start and re-read periodically, because
// this data changes only when an operator changes it.
type Directory struct {
	db   *bun.DB
	snap atomic.Pointer[snapshot]
}

type snapshot struct {
	countries     []Country // active, sorted by code
	languages     []Language
	countryByKey  map[string]Country
	languageByKey map[string]Language

	countriesPayload httpserver.Payload
	languagesPayload httpserver.Payload
	countryPayload   map[string]httpserver.Payload
	languagePayload  map[string]httpserver.Payload
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
	_, err := d.reload(ctx)
	return err
}

// reload reads the tables again and reports whether anything changed.
func (d *Directory) reload(ctx context.Context) (bool, error) {
	s := &snapshot{
		countryByKey: map[string]Country{}, languageByKey: map[string]Language{},
		countryPayload: map[string]httpserver.Payload{}, languagePayload: map[string]httpserver.Payload{},
	}
	var err error
	if s.countries, s.languages, err = loadActive(ctx, d.db); err != nil {
		return false, err
	}
	if old := d.snap.Load(); old != nil && reflect.DeepEqual(old.countries, s.countries) && reflect.DeepEqual(old.languages, s.languages) {
		return false, nil
	}
	if s.countries == nil {
		s.countries = []Country{}
	}
	if s.languages == nil {
		s.languages = []Language{}
	}
	if s.countriesPayload, err = httpserver.NewPayload(countryList{Countries: s.countries, Total: len(s.countries)}); err != nil {
		return false, err
	}
	if s.languagesPayload, err = httpserver.NewPayload(languageList{Languages: s.languages, Total: len(s.languages)}); err != nil {
		return false, err
	}
	for _, c := range s.countries {
		s.countryByKey[c.Code] = c
		if s.countryPayload[c.Code], err = httpserver.NewPayload(c); err != nil {
			return false, err
		}
	}
	for _, l := range s.languages {
		s.languageByKey[l.Code] = l
		if s.languagePayload[l.Code], err = httpserver.NewPayload(l); err != nil {
			return false, err
		}
	}
	d.snap.Store(s)
	return true, nil
}

// refreshLogged re-reads the tables once, so an operator's change (a
// country deactivated in the database) reaches a running instance without a
// restart. A failed read keeps the data it has.
func (d *Directory) refreshLogged(ctx context.Context, log *slog.Logger) {
	// A database that stops answering must not hold the loop, and with it
	// the shutdown, for ever.
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	changed, err := d.reload(rctx)
	switch {
	case err != nil && ctx.Err() == nil: // not the app stopping
		log.Warn("reference data: reload failed; serving what was loaded", "error", err)
	case changed:
		log.Info("reference data reloaded", "countries", len(d.Countries()), "languages", len(d.Languages()))
	}
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

type countryList struct {
	Countries []Country `json:"countries"`
	Total     int       `json:"total"`
}

type languageList struct {
	Languages []Language `json:"languages"`
	Total     int        `json:"total"`
}
