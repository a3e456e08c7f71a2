package mailtpl

import (
	"strings"
	"testing"
)

func TestEveryLocaleRenders(t *testing.T) {
	seen := map[string]string{}
	for _, l := range Locales() {
		subject, text, html, err := Render(l, "Anna", "042917", 10)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if subject == "" || strings.ContainsAny(subject, "\r\n") {
			t.Errorf("%s: bad subject %q", l, subject)
		}
		for part, body := range map[string]string{"subject": subject, "text": text, "html": html} {
			if !strings.Contains(body, "042917") {
				t.Errorf("%s: %s lacks the code", l, part)
			}
		}
		for part, body := range map[string]string{"text": text, "html": html} {
			if !strings.Contains(body, "Anna") {
				t.Errorf("%s: %s lacks the name", l, part)
			}
			if !strings.Contains(body, "10") {
				t.Errorf("%s: %s lacks the validity", l, part)
			}
		}
		if !strings.Contains(html, `<html lang="`+l+`">`) {
			t.Errorf("%s: html lacks lang attribute", l)
		}
		if other, dup := seen[text]; dup {
			t.Errorf("%s: text identical to %s", l, other)
		}
		seen[text] = l
	}
	if len(Locales()) != 5 {
		t.Errorf("want 5 locales, got %v", Locales())
	}
}

func TestUnknownLocaleFallsBackToEnglish(t *testing.T) {
	enS, enT, enH, err := Render("en", "Bob", "123456", 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"xx", "", "pt-BR"} {
		s, txt, h, err := Render(l, "Bob", "123456", 10)
		if err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if s != enS || txt != enT || h != enH {
			t.Errorf("%q did not fall back to English", l)
		}
	}
	if !strings.Contains(enT, "valid for 10 minutes") {
		t.Errorf("English text: %q", enT)
	}
}

func TestLocaleNormalisation(t *testing.T) {
	de, _, _, _ := Render("de", "Bob", "123456", 10)
	for _, l := range []string{"DE", "de-AT", "de_CH", " de "} {
		s, _, _, _ := Render(l, "Bob", "123456", 10)
		if s != de {
			t.Errorf("%q gave %q, want German %q", l, s, de)
		}
	}
}

func TestHTMLEscapesName(t *testing.T) {
	name := `<script>alert("x")</script> & Co`
	_, text, html, err := Render("en", name, "654321", 10)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(html, "<script>") {
		t.Errorf("html contains unescaped script tag:\n%s", html)
	}
	if !strings.Contains(html, "&lt;script&gt;") || !strings.Contains(html, "&amp; Co") {
		t.Errorf("html does not contain the escaped name:\n%s", html)
	}
	if !strings.Contains(text, name) {
		t.Errorf("text body should carry the name verbatim")
	}
}

func TestSingularMinute(t *testing.T) {
	_, text, _, err := Render("en", "Bob", "123456", 1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "valid for 1 minute.") {
		t.Errorf("singular not used: %q", text)
	}
}
