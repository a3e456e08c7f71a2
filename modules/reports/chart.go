package reports

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/printstyle"
)

// Chart draws the income report as an SVG: per currency a panel of twelve
// months, each with a bar for what was charged, one for what was collected
// and one for what is still outstanding. Hand-made: the Go chart libraries
// either render raster images or pull in a plotting stack for three bar
// series; this is 100 lines of plain SVG 1.1 that rsvg-convert and browsers
// render alike.
//
// Its words are the reader's (words, from the translation catalogue) and
// its amounts written as the reader's locale writes them (style).
func Chart(inc *income, words ChartWords, style printstyle.Style) []byte {
	const (
		width   = 760
		panelH  = 300
		left    = 80
		right   = 20
		top     = 40
		bottom  = 50
		plotW   = width - left - right
		groupW  = plotW / 12
		barW    = groupW / 4
		legendY = 20
	)
	panels := len(inc.Totals)
	if panels == 0 {
		panels = 1
	}
	height := panels * panelH
	var b bytes.Buffer
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">
<title>%s</title>
<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>
`, width, height, width, height, esc(words.fill(words.Title, inc.Year)), width, height)
	series := []struct {
		name, color string
		value       func(monthJSON) money.Amount
	}{
		{words.Charged, "#4e79a7", func(m monthJSON) money.Amount { return m.Charged }},
		{words.Collected, "#59a14f", func(m monthJSON) money.Amount { return m.Collected }},
		{words.Outstanding, "#e15759", func(m monthJSON) money.Amount { return m.Outstanding }},
	}
	for i, s := range series {
		x := left + i*120
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d">%s</text>
`, x, legendY-9, s.color, x+14, legendY, esc(s.name))
	}
	if len(inc.Totals) == 0 {
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>
`, left, top+40, esc(words.fill(words.Empty, inc.Year)))
	}
	for p, total := range inc.Totals {
		y0 := p*panelH + top
		baseY := y0 + panelH - top - bottom
		var maxV money.Amount
		var months []monthJSON
		for _, m := range inc.Months {
			if m.Currency != total.Currency {
				continue
			}
			months = append(months, m)
			for _, s := range series {
				if v := s.value(m); v > maxV {
					maxV = v
				}
			}
		}
		scale := niceMax(maxV)
		plotH := baseY - y0 - 10
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-weight="bold">%s</text>
`, left, y0+5, esc(fmt.Sprintf("%d, %s", inc.Year, total.Currency)))
		for t := 0; t <= 4; t++ {
			v := scale * int64(t) / 4
			y := baseY - int(float64(plotH)*float64(t)/4)
			fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#dddddd"/><text x="%d" y="%d" text-anchor="end">%s</text>
`, left, y, width-right, y, left-6, y+4, esc(style.Money(money.Amount(v), total.Currency)))
		}
		for i, m := range months {
			gx := left + i*groupW + barW/2
			for k, s := range series {
				v := s.value(m)
				h := 0
				if scale > 0 {
					h = int(math.Round(float64(plotH) * float64(v) / float64(scale)))
				}
				fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"><title>%s %s: %s</title></rect>
`, gx+k*barW, baseY-h, barW-1, h, s.color, esc(style.Period(m.Month)), esc(s.name), esc(style.Money(v, total.Currency)))
			}
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>
`, left+i*groupW+groupW/2, baseY+16, esc(m.Month[5:]))
		}
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333333"/>
`, left, baseY, width-right, baseY)
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// ChartWords are the chart's words in one language.
type ChartWords struct {
	Title, Charged, Collected, Outstanding, Empty string
}

// fill writes the year into a text with {year}.
func (ChartWords) fill(text string, year int) string {
	return strings.ReplaceAll(text, "{year}", strconv.Itoa(year))
}

// chartKeys are the catalogue's keys of the chart's words.
var chartKeys = []string{"reports.chart.title", "reports.chart.charged", "reports.chart.collected", "reports.chart.outstanding", "reports.chart.empty"}

// ChartWordsOf are the chart's words in locale (English where the
// catalogue has none).
func ChartWordsOf(dicts *translations.Dictionaries, locale string) ChartWords {
	t, _ := dicts.Select(locale, chartKeys)
	return ChartWords{Title: t[chartKeys[0]], Charged: t[chartKeys[1]], Collected: t[chartKeys[2]], Outstanding: t[chartKeys[3]], Empty: t[chartKeys[4]]}
}

// niceMax is the top of the value axis: the largest value rounded up to 1, 2 or 5 times
// a power of ten (of minor units), at least 1.00.
func niceMax(top money.Amount) int64 {
	v := int64(top)
	if v <= 100 {
		return 100
	}
	step := int64(1)
	for step*10 <= v {
		step *= 10
	}
	for _, f := range []int64{1, 2, 5, 10} {
		if f*step >= v {
			return f * step
		}
	}
	return 10 * step
}

func esc(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
