package repairs

import (
	"strings"
	"time"

	"github.com/propman/propman/modules/translations"
)

// timeLayouts write a moment as a reader of the locale expects it. Times
// are in UTC and say so: the workspace's time zone is not yet applied
// (README, next steps).
var timeLayouts = map[string]string{
	"de": "02.01.2006, 15:04 Uhr (UTC)",
	"fr": "02/01/2006 à 15h04 (UTC)",
	"es": "02/01/2006, 15:04 (UTC)",
	"uk": "02.01.2006, 15:04 (UTC)",
	"en": "2 January 2006, 15:04 (UTC)",
}

// wording renders the catalogue's texts of one locale.
type wording struct {
	dicts  *translations.Dictionaries
	locale string
}

// say is the text of key with its {placeholders} replaced by vars (name,
// value pairs); the key itself when no dictionary has it, so a missing
// word shows in tests instead of an empty line.
func (w wording) say(key string, vars ...string) string {
	text := key
	if w.dicts != nil {
		if t, _ := w.dicts.Select(w.locale, []string{key}); t[key] != "" {
			text = t[key]
		}
	}
	if len(vars) == 0 {
		return text
	}
	pairs := make([]string, 0, len(vars))
	for i := 0; i+1 < len(vars); i += 2 {
		pairs = append(pairs, "{"+vars[i]+"}", vars[i+1])
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

// when writes t in the locale's layout. Go names months in English only,
// so every layout but English is numeric.
func (w wording) when(t time.Time) string {
	layout, ok := timeLayouts[w.locale]
	if !ok {
		layout = timeLayouts["en"]
	}
	return t.UTC().Format(layout)
}

// span writes a slot: its start and, on the same day, only the end's time.
func (w wording) span(s Slot) string {
	if s.Start.UTC().YearDay() != s.End.UTC().YearDay() || s.Start.UTC().Year() != s.End.UTC().Year() {
		return w.when(s.Start) + " – " + w.when(s.End)
	}
	end := s.End.UTC().Format("15:04")
	if w.locale == "fr" {
		end = s.End.UTC().Format("15h04")
	}
	return strings.TrimSuffix(strings.TrimSuffix(w.when(s.Start), " (UTC)"), " Uhr") + " – " + end + tail(w.locale)
}

// tail is what follows the end time of a slot.
func tail(locale string) string {
	if locale == "de" {
		return " Uhr (UTC)"
	}
	return " (UTC)"
}

func (w wording) category(c string) string { return w.say("repairs.category." + c) }
func (w wording) urgency(u string) string  { return w.say("repairs.urgency." + u) }
