package printforms

import (
	"strings"
	"time"
)

// Sheet is a plain form of sections, labelled rows, paragraphs and
// signature lines, for modules that print records of their own (an
// inspection, a deposit statement) with the forms' fonts, page breaks,
// footers and the locale's formats (StyleOf). Every text is cleaned as the
// forms' own are: control and invisible characters never reach the PDF.
type Sheet struct{ d *doc }

// Sheet starts a form in locale with its title and the line under it.
func (r *Renderer) Sheet(locale, title, subtitle string, created time.Time) *Sheet {
	l, _ := r.labels.forLocale(locale)
	d := newDoc(locale, l, clean(title, false), created)
	d.title(clean(title, false), clean(subtitle, false))
	return &Sheet{d: d}
}

// Section writes a heading with a rule under it.
func (s *Sheet) Section(text string) { s.d.section(clean(text, false)) }

// Row writes a label and its value side by side.
func (s *Sheet) Row(label, value string) { s.d.row(clean(label, false), clean(value, false)) }

// Para writes a paragraph of text; its line breaks are kept (an
// inspection's notes are written line by line).
func (s *Sheet) Para(text string) {
	for _, line := range strings.Split(clean(text, true), "\n") {
		s.d.para(line, "", 10, 0, 0)
	}
}

// Signatures writes the signature block: for each of the two parties a
// line for place and date and one to sign on, captioned with the role,
// the name under it.
func (s *Sheet) Signatures(heading string, roles, names [2]string) {
	s.d.signatures(clean(heading, false), [2]string{clean(roles[0], false), clean(roles[1], false)},
		[2]string{clean(names[0], false), clean(names[1], false)})
}

// Finish writes the footers and returns the PDF.
func (s *Sheet) Finish(footer string) ([]byte, error) { return s.d.finish(clean(footer, false), "") }

// AddressLine is the parts that hold something, trimmed, joined with
// ", ": a name and an address ("Wohnung 3, Lindenstraße 5, 10969 Berlin"),
// as the forms of other modules print them.
func AddressLine(parts ...string) string {
	var out []string
	for _, p := range parts {
		// An address typed on several lines is one line here.
		for _, line := range strings.Split(p, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				out = append(out, line)
			}
		}
	}
	return strings.Join(out, ", ")
}
