package documents

import (
	"mime"
	"path"
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

// maxFilename is the longest stored filename, in bytes.
const maxFilename = 255

// sanitizeFilename keeps the last element of the client's filename without
// control or bidirectional-override characters, trimmed of spaces and dots,
// at most maxFilename bytes with its extension kept. Empty becomes
// "document".
func sanitizeFilename(name string) string {
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
	if name == "" {
		return "document"
	}
	if len(name) > maxFilename {
		ext := path.Ext(name)
		if len(ext) > 16 || len(ext) >= maxFilename {
			ext = ""
		}
		stem := name[:len(name)-len(ext)]
		stem = truncateUTF8(stem, maxFilename-len(ext))
		name = strings.TrimRight(stem, " .") + ext
	}
	return name
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
