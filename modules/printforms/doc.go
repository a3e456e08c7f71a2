package printforms

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"
)

// Page geometry in millimetres (A4 portrait).
const (
	pageW    = 210.0
	pageH    = 297.0
	marginL  = 20.0
	marginR  = 20.0
	marginT  = 18.0
	bottom   = pageH - 24 // content ends above this line
	footerY  = pageH - 15 // the footer's baseline row
	contentW = pageW - marginL - marginR
	labelW   = 55.0 // the label column of a row
	family   = "go"
)

// ptToMM converts a font size to millimetres.
const ptToMM = 25.4 / 72

// doc is one PDF being written: the Go fonts, the locale's formats and
// texts, and the layout helpers the forms share. Pages are broken by the
// helpers themselves (between lines, never inside one), so a text of any
// length flows over as many pages as it needs.
type doc struct {
	pdf    *fpdf.Fpdf
	st     style
	locale string
	l      labels
	widths map[string]map[rune]float64 // per font style, in glyph units
	style  string
}

func newDoc(locale string, l labels, title string, created time.Time) *doc {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetMargins(marginL, marginT, marginR)
	pdf.SetAutoPageBreak(false, 0)
	pdf.SetCellMargin(0)
	pdf.AddUTF8FontFromBytes(family, "", fontRegular)
	pdf.AddUTF8FontFromBytes(family, "B", fontBold)
	pdf.SetCatalogSort(true)
	created = created.UTC().Truncate(time.Second)
	pdf.SetCreationDate(created)
	pdf.SetModificationDate(created)
	pdf.SetTitle(title, true)
	pdf.SetCreator("propman", true)
	pdf.SetProducer("propman", true)
	pdf.SetLang(locale)
	pdf.AddPage()
	d := &doc{pdf: pdf, st: styleOf(locale), locale: locale, l: l, widths: map[string]map[rune]float64{}}
	d.font("", 10)
	return d
}

// font selects the regular ("") or bold ("B") Go font at size points.
func (d *doc) font(style string, size float64) {
	d.pdf.SetFont(family, style, size)
	d.style = style
}

func (d *doc) color(gray int) { d.pdf.SetTextColor(gray, gray, gray) }

// lineH is the height of a line of the current font.
func (d *doc) lineH() float64 {
	pt, _ := d.pdf.GetFontSize()
	return pt * ptToMM * 1.4
}

// runeWidth is a character's advance in the current font, in glyph units.
func (d *doc) runeWidth(r rune) float64 {
	m := d.widths[d.style]
	if m == nil {
		m = map[rune]float64{}
		d.widths[d.style] = m
	}
	w, ok := m[r]
	if !ok {
		w = float64(d.pdf.GetStringSymbolWidth(string(r)))
		m[r] = w
	}
	return w
}

// wrap breaks text (already clean) into lines no wider than w millimetres
// in the current font: at spaces where it can, inside a word longer than
// the line where it must. Line breaks in the text are kept; blank lines
// are kept one at a time.
func (d *doc) wrap(text string, w float64) []string {
	_, size := d.pdf.GetFontSize()
	limit := w * 1000 / size
	var lines []string
	for _, para := range strings.Split(text, "\n") {
		if strings.TrimSpace(para) == "" {
			if len(lines) > 0 && lines[len(lines)-1] != "" {
				lines = append(lines, "")
			}
			continue
		}
		runes := []rune(para)
		start, space := 0, -1
		width, atSpace := 0.0, 0.0
		for i := 0; i < len(runes); i++ {
			r := runes[i]
			cw := d.runeWidth(r)
			if width+cw > limit && i > start {
				switch {
				case r == ' ':
					lines = append(lines, string(runes[start:i]))
					start, space, width = i+1, -1, 0
					continue
				case space > start:
					lines = append(lines, string(runes[start:space]))
					start, space = space+1, -1
					width -= atSpace
					i-- // the character again, on the new line
					continue
				default:
					lines = append(lines, string(runes[start:i]))
					start, width = i, 0
				}
				space = -1
			}
			width += cw
			if r == ' ' {
				space, atSpace = i, width
			}
		}
		if start < len(runes) {
			lines = append(lines, string(runes[start:]))
		}
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// fit shortens one line of text to w millimetres, ending it with an
// ellipsis when it had to be cut.
func (d *doc) fit(text string, w float64) string {
	if d.pdf.GetStringWidth(text) <= w {
		return text
	}
	lines := d.wrap(strings.ReplaceAll(text, " ", "\u00a0"), w-d.pdf.GetStringWidth("…"))
	if len(lines) == 0 {
		return ""
	}
	return strings.ReplaceAll(lines[0], "\u00a0", " ") + "…"
}

// need starts a new page unless h millimetres fit above the bottom margin.
func (d *doc) need(h float64) {
	if d.pdf.GetY()+h > bottom {
		d.pdf.AddPage()
	}
}

// cell writes one line of text at x on the current row.
func (d *doc) cell(x, w, h float64, text, align string) {
	d.pdf.SetX(x)
	d.pdf.CellFormat(w, h, text, "", 0, align, false, 0, "")
}

// gap moves down by h millimetres.
func (d *doc) gap(h float64) { d.pdf.SetY(d.pdf.GetY() + h) }

// title writes the form's title and the line under it.
func (d *doc) title(title, sub string) {
	d.font("B", 18)
	d.color(0)
	for _, line := range d.wrap(title, contentW) {
		d.cell(marginL, contentW, d.lineH(), line, "L")
		d.gap(d.lineH())
	}
	if sub != "" {
		d.font("", 11)
		d.color(60)
		for _, line := range d.wrap(sub, contentW) {
			d.need(d.lineH())
			d.cell(marginL, contentW, d.lineH(), line, "L")
			d.gap(d.lineH())
		}
	}
	d.gap(3)
}

// section writes a heading with a rule under it, on a new page when the
// heading and two lines after it would not fit.
func (d *doc) section(text string) {
	d.font("B", 12)
	h := d.lineH()
	d.need(h + 2 + 12)
	d.gap(2)
	d.color(0)
	d.cell(marginL, contentW, h, d.fit(text, contentW), "L")
	d.gap(h)
	d.pdf.SetDrawColor(150, 150, 150)
	d.pdf.SetLineWidth(0.3)
	d.pdf.Line(marginL, d.pdf.GetY(), pageW-marginR, d.pdf.GetY())
	d.gap(2)
}

// row writes a label and its value side by side; both wrap, and a long
// value continues on the next page.
func (d *doc) row(label, value string) {
	d.font("B", 9)
	labels := d.wrap(label, labelW-3)
	d.font("", 10)
	h := d.lineH()
	values := d.wrap(value, contentW-labelW)
	n := max(len(labels), len(values))
	// A row of up to half a page is not split.
	if rowH := float64(n) * h; rowH <= (bottom-marginT)/2 {
		d.need(rowH)
	}
	for i := 0; i < n; i++ {
		d.need(h)
		if i < len(labels) {
			d.font("B", 9)
			d.color(90)
			d.cell(marginL, labelW, h, labels[i], "L")
		}
		if i < len(values) {
			d.font("", 10)
			d.color(0)
			d.cell(marginL+labelW, contentW-labelW, h, values[i], "L")
		}
		d.gap(h)
	}
	d.gap(1)
}

// para writes wrapped text indented by indent millimetres.
func (d *doc) para(text, style string, size float64, gray int, indent float64) {
	d.font(style, size)
	d.color(gray)
	h := d.lineH()
	for _, line := range d.wrap(text, contentW-indent) {
		d.need(h)
		d.cell(marginL+indent, contentW-indent, h, line, "L")
		d.gap(h)
	}
}

// rule draws a thin line across the content.
func (d *doc) rule(gray int) {
	d.pdf.SetDrawColor(gray, gray, gray)
	d.pdf.SetLineWidth(0.2)
	d.pdf.Line(marginL, d.pdf.GetY(), pageW-marginR, d.pdf.GetY())
}

// finish writes every page's footer (left: what the document is; right:
// "Page n of N", known only now) and, when watermark is not empty, the
// watermark across each page, then returns the PDF.
func (d *doc) finish(footer, watermark string) ([]byte, error) {
	pdf := d.pdf
	total := strconv.Itoa(pdf.PageCount())
	for i := 1; i <= pdf.PageCount(); i++ {
		pdf.SetPage(i)
		// The page's stream may end in any state: set everything the
		// footer uses explicitly.
		d.font("", 8)
		pdf.SetFontSize(8)
		pdf.SetFillColor(255, 255, 255)
		d.color(110)
		pdf.SetDrawColor(180, 180, 180)
		pdf.SetLineWidth(0.2)
		pdf.Line(marginL, footerY-1.5, pageW-marginR, footerY-1.5)
		page := d.l.page(strconv.Itoa(i), total)
		pw := pdf.GetStringWidth(page) + 1
		pdf.SetY(footerY)
		d.cell(marginL, contentW-pw-8, 5, d.fit(footer, contentW-pw-8), "L")
		pdf.SetY(footerY)
		d.cell(pageW-marginR-pw, pw, 5, page, "R")
		if watermark != "" {
			d.watermark(watermark)
		}
	}
	if err := pdf.Error(); err != nil {
		return nil, fmt.Errorf("printforms: pdf: %w", err)
	}
	var buf bytes.Buffer
	buf.Grow(64 << 10)
	if err := pdf.Output(&buf); err != nil {
		return nil, fmt.Errorf("printforms: pdf: %w", err)
	}
	return buf.Bytes(), nil
}

// watermark writes text large, translucent red, corner to corner across
// the current page.
func (d *doc) watermark(text string) {
	pdf := d.pdf
	d.font("B", 110)
	pdf.SetFontSize(110)
	angle := math.Atan2(pageH, pageW) * 180 / math.Pi
	maxW := 0.75 * math.Hypot(pageW, pageH)
	if w := pdf.GetStringWidth(text); w > maxW {
		pdf.SetFontSize(110 * maxW / w)
	}
	w := pdf.GetStringWidth(text)
	pt, _ := pdf.GetFontSize()
	cx, cy := pageW/2, pageH/2
	pdf.TransformBegin()
	pdf.TransformRotate(angle, cx, cy)
	pdf.SetAlpha(0.25, "Normal")
	pdf.SetFillColor(255, 255, 255)
	pdf.SetTextColor(200, 20, 20)
	pdf.Text(cx-w/2, cy+pt*ptToMM*0.35, text)
	pdf.SetAlpha(1, "Normal")
	pdf.TransformEnd()
}
