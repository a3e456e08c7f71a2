package repairs

import (
	"time"

	"github.com/propman/propman/modules/translations"
)

// wording renders the catalogue's texts of one locale.
type wording struct {
	dicts  *translations.Dictionaries
	locale string
}

// say is the text of key with its {placeholders} replaced by vars (name,
// value pairs); the key itself when no dictionary has it, so a missing
// word shows in tests instead of an empty line. Without the translations
// module (dicts nil) the embedded catalogue answers.
func (w wording) say(key string, vars ...string) string {
	return w.dicts.Say(w.locale, key, vars...)
}

// when writes t in the locale's layout, the catalogue's
// repairs.time.moment (a Go time layout). Times are in UTC and say so: the
// workspace's time zone is not yet applied (README, next steps). Go names
// months in English only, so every layout but English is numeric.
func (w wording) when(t time.Time) string {
	return t.UTC().Format(w.say("repairs.time.moment"))
}

// span writes a slot: its start and, on the same day, only the end's time
// (repairs.time.slot_start and slot_end).
func (w wording) span(s Slot) string {
	if s.Start.UTC().YearDay() != s.End.UTC().YearDay() || s.Start.UTC().Year() != s.End.UTC().Year() {
		return w.when(s.Start) + " – " + w.when(s.End)
	}
	return s.Start.UTC().Format(w.say("repairs.time.slot_start")) + " – " + s.End.UTC().Format(w.say("repairs.time.slot_end"))
}

func (w wording) category(c string) string { return w.say("repairs.category." + c) }
func (w wording) urgency(u string) string  { return w.say("repairs.urgency." + u) }
