package documents

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// filename is applied again to stored names when they are served: it must
// give back what it made, and always end in an agreeing extension.
func FuzzFilenameIsStable(f *testing.F) {
	for _, s := range []string{"poly.html", "x.pdf", "SCAN.PDF", "Mr. Smith", "v1.2", ".pdf", "a.pdf.exe", "...", "",
		strings.Repeat("ж", 300) + ".html", strings.Repeat("a", 254) + ".", "a .pdf", "a. .html"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		for ctype, exts := range extensions {
			got := filename(name, ctype)
			if again := filename(got, ctype); again != got {
				t.Fatalf("%q as %s: %q, then %q", name, ctype, got, again)
			}
			_, ext := splitExt(got)
			ok := false
			for _, e := range exts {
				ok = ok || strings.EqualFold(e, ext)
			}
			if !ok || len(got) > maxFilename || !utf8.ValidString(got) || strings.ContainsAny(got, "/\\\x00\r\n") {
				t.Fatalf("%q as %s: %q", name, ctype, got)
			}
		}
	})
}
