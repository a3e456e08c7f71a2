package documents

import (
	"mime"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gabriel-vasile/mimetype"
)

// sniffLen is how much of a file is read to tell its type: an Office or
// OpenDocument file is a zip, told apart by its first entries.
const sniffLen = 16 << 10

func init() {
	mimetype.SetLimit(sniffLen)
}

// allowed maps the sniffed types documents accept to the type they are
// stored and served with. Whatever the client says the file is, only its
// bytes count.
var allowed = map[string]string{
	"application/pdf": "application/pdf",
	"image/png":       "image/png",
	"image/jpeg":      "image/jpeg",
	"image/webp":      "image/webp",
	"application/vnd.openxmlformats-officedocument.wordprocessingml.document": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":       "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	"application/vnd.oasis.opendocument.text":                                 "application/vnd.oasis.opendocument.text",
	// Plain text, also when it happens to look like CSV or TSV. HTML, SVG,
	// XML, JSON and scripts are text too, but are detected as their own
	// types and refused.
	"text/plain":                "text/plain",
	"text/csv":                  "text/plain",
	"text/tab-separated-values": "text/plain",
}

// sniff returns the stored content type of a file that starts with head,
// and false when the type is not allowed.
func sniff(head []byte) (string, bool) {
	m := mimetype.Detect(head)
	base, params, err := mime.ParseMediaType(m.String())
	if err != nil {
		return "", false
	}
	stored, ok := allowed[base]
	if !ok {
		return "", false
	}
	if stored == "text/plain" {
		cs := params["charset"]
		if cs == "" {
			cs = "utf-8"
		}
		return "text/plain; charset=" + cs, true
	}
	return stored, true
}

// extensions lists, for each stored type, the filename extensions that
// agree with it (lower case); the first is the one a name gets when its own
// does not agree. The saved file is opened by the program of its extension,
// so the extension must say what the bytes are: "poly.html" holding a PDF
// becomes "poly.pdf", never an HTML file on the user's disk.
var extensions = map[string][]string{
	"application/pdf": {".pdf"},
	"image/png":       {".png"},
	"image/jpeg":      {".jpg", ".jpeg", ".jpe", ".jfif"},
	"image/webp":      {".webp"},
	"application/vnd.openxmlformats-officedocument.wordprocessingml.document": {".docx"},
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":       {".xlsx"},
	"application/vnd.oasis.opendocument.text":                                 {".odt"},
	"text/plain": {".txt", ".text", ".log", ".csv", ".tsv"},
}

// maxFilename is the longest stored filename, in bytes.
const maxFilename = 255

// maxExt is the longest extension (after the dot) a name is taken to have;
// longer tails are part of the name ("Mr. Smith").
const maxExt = 8

// filename is the stored name of an upload named name by the client whose
// bytes are of contentType (a stored type, parameters allowed): the last
// element of name without control or bidirectional-override characters,
// trimmed of spaces and dots, with an extension that agrees with
// contentType (kept when it does, case-insensitively; replaced when it
// does not; added when there is none), at most maxFilename bytes. An empty
// name becomes "document" plus the extension. Applied to a name it made,
// it gives that name back, so it is also applied to rows stored before the
// extension rule.
func filename(name, contentType string) string {
	name = strings.ToValidUTF8(name, "")
	// Either kind of separator: the client may be Windows.
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsControl(r), unicode.Is(unicode.Bidi_Control, r), r == '\u2028', r == '\u2029', r == '\uFEFF':
			return -1
		}
		return r
	}, name)
	name = strings.Trim(name, " .")
	stem, ext := splitExt(name)
	// contentType is one of ours (sniff's), so no parsing beyond the cut.
	base, _, _ := strings.Cut(contentType, ";")
	if want := extensions[base]; len(want) > 0 && !slices.Contains(want, strings.ToLower(ext)) {
		// "scan.pdf.exe" holding a PDF is "scan.pdf", not "scan.pdf.pdf".
		if s, e := splitExt(stem); ext != "" && slices.Contains(want, strings.ToLower(e)) {
			stem, ext = s, e
		} else {
			ext = want[0]
		}
	}
	stem = strings.TrimRight(truncateUTF8(stem, maxFilename-len(ext)), " .")
	if stem == "" {
		stem = "document"
	}
	return stem + ext
}

// splitExt splits name before its extension: a dot and 1 to maxExt ASCII
// letters and digits, at least one a letter ("v1.2" and "scan.2024" have
// none). The stem is never empty.
func splitExt(name string) (stem, ext string) {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || len(name)-i-1 > maxExt || i == len(name)-1 {
		return name, ""
	}
	letter := false
	for _, c := range name[i+1:] {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			letter = true
		case c >= '0' && c <= '9':
		default:
			return name, ""
		}
	}
	if !letter {
		return name, ""
	}
	return name[:i], name[i:]
}

// truncateUTF8 cuts s to at most n bytes on a character boundary.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// asciiFilename is the fallback filename of Content-Disposition for clients
// that do not read filename*: printable ASCII, without quotes or
// backslashes.
func asciiFilename(name string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' || r == '%' {
			return '_'
		}
		return r
	}, name)
}
