// Package golden keeps the texts people read (letters, mails, the text of
// PDFs) as files beside the tests, one per letter and language, so that
// every change of a word shows as a diff someone reads before it lands.
//
// Rewrite the files of a package with `go test ./modules/x -run TestGolden
// -update`, then read each changed file as its reader would.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden texts")

// Updating says whether the run rewrites the golden files.
func Updating() bool { return *update }

var (
	generatedEmail = regexp.MustCompile(`user[0-9]+@example\.com`)
	generatedName  = regexp.MustCompile(`Test User [0-9]+`)
	wideSpace      = regexp.MustCompile(` {3,}`)
)

// Normalise keeps what a reader sees and drops what changes from run to
// run for no reason of the letter's: the name and address of a generated
// test user (accountstest numbers them), trailing blanks, runs of blank lines, and
// the width of the gaps pdftotext -layout lays columns out with.
func Normalise(text string) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = generatedEmail.ReplaceAllString(text, "landlord@example.com")
	text = generatedName.ReplaceAllString(text, "Test User")
	lines := strings.Split(text, "\n")
	out := lines[:0]
	for _, l := range lines {
		l = wideSpace.ReplaceAllString(strings.TrimRight(strings.TrimLeft(l, "\f"), " \t\f"), "   ")
		if l == "" && len(out) > 0 && out[len(out)-1] == "" {
			continue
		}
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n")) + "\n"
}

// Dir compares the files (name to text, each normalised) with the
// folder dir: a text that differs, a golden file missing, and a golden
// file no text stands for all fail the test. Under -update the folder is
// rewritten. Files ending in .pdf.txt are only compared where some text
// of that kind was made (pdftotext may be missing outside CI).
func Dir(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	// A PDF's text is "" where pdftotext is missing (outside CI only:
	// mailtest.PDFText fails in CI without it); such a text is not made.
	made := make(map[string]string, len(files))
	for name, text := range files {
		if strings.HasSuffix(name, ".pdf.txt") && text == "" {
			if *update {
				t.Fatalf("%s: no text was read from the PDF (install poppler-utils to rewrite the goldens)", name)
			}
			continue
		}
		made[name] = text
	}
	files = made
	if *update {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(Normalise(text)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	withPDF := false
	for name := range files {
		withPDF = withPDF || strings.HasSuffix(name, ".pdf.txt")
	}
	kept, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	for _, path := range kept {
		if strings.HasSuffix(path, ".pdf.txt") && !withPDF {
			continue
		}
		if _, ok := files[filepath.Base(path)]; !ok {
			t.Errorf("%s: nothing of the kind was made (rewrite with -update once that is meant)", path)
		}
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%v (write it with -update and read it)", err)
			continue
		}
		if got := Normalise(text); string(want) != got {
			t.Errorf("%s differs from what is made (rewrite with -update once the change is meant):\n--- made\n%s\n--- golden\n%s", path, got, want)
		}
	}
}
