package printforms

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/propman/propman/platform/testkit/requires"
)

// The PDF readers the tests of both packages use (exported to
// printforms_test here, in a test file).
var (
	RequirePoppler = requirePoppler
	PDFText        = pdfText
	PDFPages       = pdfPages
	// WordingOf is a block's lease wording in a locale (Value, Yes, No).
	WordingOf = func(code, locale string) (value, yes, no string, ok bool) {
		c, ok := wordingOf(code, locale)
		return c.Value, c.Yes, c.No, ok
	}
)

// The tests read the PDFs back with poppler's pdftotext and pdfinfo
// (Debian's poppler-utils; .ci/run installs it). They are skipped where it
// is missing, except in CI, where that fails them.
func requirePoppler(t testing.TB) {
	t.Helper()
	for _, tool := range []string{"pdftotext", "pdfinfo"} {
		requires.Program(t, tool, "apt-get install poppler-utils")
	}
}

var spaces = regexp.MustCompile(`\s+`)

// pdfText is the text of the PDF as pdftotext reads it (args such as
// "-raw" are passed on), with no-break spaces as spaces and every run of
// white space as one space. It fails the test when pdftotext does.
func pdfText(t testing.TB, pdf []byte, args ...string) string {
	t.Helper()
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", truncate(pdf))
	}
	path := filepath.Join(t.TempDir(), "form.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	cmd := exec.Command("pdftotext", append(append([]string{"-enc", "UTF-8"}, args...), path, "-")...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("pdftotext: %v: %s", err, errOut.String())
	}
	if errOut.Len() > 0 {
		t.Errorf("pdftotext complains: %s", errOut.String())
	}
	text := strings.ReplaceAll(out.String(), "\u00a0", " ")
	return strings.TrimSpace(spaces.ReplaceAllString(text, " "))
}

// pdfPages is the page count pdfinfo reads.
func pdfPages(t testing.TB, pdf []byte) int {
	t.Helper()
	path := filepath.Join(t.TempDir(), "form.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdfinfo", path).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfinfo: %v: %s", err, out)
	}
	m := regexp.MustCompile(`(?m)^Pages:\s+(\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("pdfinfo: no page count in %s", out)
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

func truncate(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}
