package translations

import (
	"strings"
	"sync"
)

// shared is the catalogue shipped in the binary, loaded once: the module
// provides it to fx, and modules that word letters, mails and PDFs read it
// through Say even when the translations module (its routes) is switched
// off.
var shared = sync.OnceValues(Embedded)

// Shared returns the embedded catalogue, loaded once per process.
func Shared() (*Dictionaries, error) { return shared() }

// catalogue is d, or the embedded catalogue when d is nil (a module whose
// optional dependency on the translations module is not met).
func (d *Dictionaries) catalogue() *Dictionaries {
	if d != nil {
		return d
	}
	c, _ := shared()
	return c
}

// Has reports whether locale has a dictionary of its own (de, en, es, fr,
// uk); any other locale is answered in English.
func (d *Dictionaries) Has(locale string) bool {
	c := d.catalogue()
	if c == nil {
		return false
	}
	_, ok := c.merged[locale]
	return ok
}

// Say is the text of key in locale (English where the locale or the key in
// it is missing) with its {placeholders} replaced by vars, given as name,
// value pairs: Say("de", "assets.print.date"), Say(loc,
// "proposals.mail.code.subject", "title", t). A key no dictionary has is
// answered as itself, so a missing word shows in a test instead of an empty
// line. Values are inserted as they are: a value is never scanned for
// placeholders.
func (d *Dictionaries) Say(locale, key string, vars ...string) string {
	text := key
	if c := d.catalogue(); c != nil {
		if t, ok := c.lookup(locale)[key]; ok {
			text = t
		}
	}
	if len(vars) < 2 {
		return text
	}
	pairs := make([]string, 0, len(vars))
	for i := 0; i+1 < len(vars); i += 2 {
		pairs = append(pairs, "{"+vars[i]+"}", vars[i+1])
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

// Say is the embedded catalogue's text of key in locale; see
// Dictionaries.Say.
func Say(locale, key string, vars ...string) string {
	return (*Dictionaries)(nil).Say(locale, key, vars...)
}

// Has reports whether the embedded catalogue has a dictionary for locale.
func Has(locale string) bool { return (*Dictionaries)(nil).Has(locale) }

// Text is the embedded catalogue's text of key in locale (English where the
// locale lacks it) and whether any dictionary has the key.
func Text(locale, key string) (string, bool) {
	c, _ := shared()
	if c == nil {
		return "", false
	}
	t, ok := c.lookup(locale)[key]
	return t, ok
}
