// Package mailtpl renders the verification-code email sent during
// registration, in every supported locale, from embedded templates.
package mailtpl

import (
	"bytes"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"
)

//go:embed templates
var files embed.FS

// DefaultLocale is used when the requested locale has no templates.
const DefaultLocale = "en"

// locales lists the locales that have a subject, a text and an HTML template.
var locales = []string{"en", "de", "fr", "es", "uk"}

type localeTemplates struct {
	subject *texttemplate.Template
	text    *texttemplate.Template
	html    *htmltemplate.Template
}

// byLocale is filled at package initialisation; the templates are embedded,
// so a parse error is a programming error and panics (the tests catch it).
var byLocale = func() map[string]localeTemplates {
	m := make(map[string]localeTemplates, len(locales))
	for _, l := range locales {
		m[l] = localeTemplates{
			subject: texttemplate.Must(texttemplate.New(l+".subject.txt").Option("missingkey=error").ParseFS(files, "templates/"+l+".subject.txt")),
			text:    texttemplate.Must(texttemplate.New(l+".txt").Option("missingkey=error").ParseFS(files, "templates/"+l+".txt")),
			// One layout for every locale; each locale's file defines its texts.
			html: htmltemplate.Must(htmltemplate.New("layout.html").Option("missingkey=error").ParseFS(files, "templates/layout.html", "templates/"+l+".html")),
		}
	}
	return m
}()

// Locales returns the supported locales, English first.
func Locales() []string {
	return append([]string(nil), locales...)
}

// Supported reports whether locale (after normalisation) has its own templates.
func Supported(locale string) bool {
	_, ok := byLocale[normalize(locale)]
	return ok
}

// normalize maps "de", "DE", "de-AT" or "de_AT" to "de".
func normalize(locale string) string {
	l := strings.ToLower(strings.TrimSpace(locale))
	if i := strings.IndexAny(l, "-_"); i >= 0 {
		l = l[:i]
	}
	return l
}

type data struct {
	Name    string
	Code    string
	Minutes int
}

// Render returns the subject, plain-text body and HTML body of the
// verification email for locale, greeting name and giving code, valid for
// minutes. An unknown or empty locale falls back to English. The HTML body
// escapes every value; the subject is a single line.
func Render(locale, name, code string, minutes int) (subject, text, html string, err error) {
	t, ok := byLocale[normalize(locale)]
	if !ok {
		t = byLocale[DefaultLocale]
	}
	d := data{Name: name, Code: code, Minutes: minutes}

	var b bytes.Buffer
	if err = t.subject.Execute(&b, d); err != nil {
		return "", "", "", fmt.Errorf("mailtpl: subject: %w", err)
	}
	subject = strings.Join(strings.Fields(b.String()), " ")

	b.Reset()
	if err = t.text.Execute(&b, d); err != nil {
		return "", "", "", fmt.Errorf("mailtpl: text body: %w", err)
	}
	text = b.String()

	b.Reset()
	if err = t.html.Execute(&b, d); err != nil {
		return "", "", "", fmt.Errorf("mailtpl: html body: %w", err)
	}
	html = b.String()
	return subject, text, html, nil
}
