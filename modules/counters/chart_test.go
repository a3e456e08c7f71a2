package counters_test

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"net/http"
	"os"
	"strings"
	"testing"
)

// TestConsumptionChart draws docs/counters-consumption.png from real data:
// it imports two years of monthly electricity readings through the API,
// asks GET .../consumption?by=month and draws the answer as a bar chart
// (pure Go: image/png and a 3x5 pixel font). It runs only when
// COUNTERS_CHART names the file to write:
//
//	COUNTERS_CHART=$PWD/docs/counters-consumption.png go test -run TestConsumptionChart ./modules/counters/
func TestConsumptionChart(t *testing.T) {
	out := os.Getenv("COUNTERS_CHART")
	if out == "" {
		t.Skip("COUNTERS_CHART is not set")
	}
	f := start(t)
	c := f.newCounter(t, map[string]any{"kind": "electricity", "tariff": 0.301234})
	var sb strings.Builder
	value := 18234.5
	sb.WriteString("read_on,value\n2024-10-28,18234.500\n")
	for i := range 24 {
		y, m := 2024+(10+i)/12, (10+i)%12+1
		// Winter peaks, summer lows, and some noise from the reading day.
		use := 260 + 110*math.Cos(2*math.Pi*float64(m-1)/12) + float64((i*37)%23)
		value += use
		fmt.Fprintf(&sb, "%04d-%02d-%02d,%.3f\n", y, m, 25+(i*7)%4, value)
	}
	importCSV(f, c.ID, f.user.Token, sb.String()).Expect(http.StatusCreated)
	var r report
	f.app.Get(f.counters()+"/"+c.ID+"/consumption?from=2024-11&to=2026-10&by=month", f.user.Token).Expect(http.StatusOK).JSON(&r)
	img := drawBars(r)
	file, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if err := png.Encode(file, img); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s: %d months, total %.3f %s", out, len(r.Months), r.Total, r.Unit)
}

func drawBars(r report) *image.RGBA {
	const w, h, left, right, top, bottom = 960, 420, 70, 20, 30, 60
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fill(img, image.Rect(0, 0, w, h), color.RGBA{255, 255, 255, 255})
	peak := 0.0
	for _, m := range r.Months {
		peak = max(peak, m.Consumption)
	}
	step := 100.0
	top0 := math.Ceil(peak/step) * step
	plotH := float64(h - top - bottom)
	y := func(v float64) int { return h - bottom - int(v/top0*plotH) }
	grid, ink, bar := color.RGBA{225, 225, 225, 255}, color.RGBA{60, 60, 60, 255}, color.RGBA{52, 120, 200, 255}
	for v := 0.0; v <= top0; v += step {
		fill(img, image.Rect(left, y(v), w-right, y(v)+1), grid)
		text(img, fmt.Sprint(int(v)), left-8-len(fmt.Sprint(int(v)))*8, y(v)-5, ink)
	}
	text(img, "kWh", 8, top-20, ink)
	slot := (w - left - right) / len(r.Months)
	for i, m := range r.Months {
		x := left + i*slot
		fill(img, image.Rect(x+4, y(m.Consumption), x+slot-4, h-bottom), bar)
		text(img, m.Month[5:], x+slot/2-8, h-bottom+8, ink)
		if m.Month[5:] == "01" || i == 0 {
			text(img, m.Month[:4], x+slot/2-16, h-bottom+26, ink)
		}
	}
	fill(img, image.Rect(left, h-bottom, w-right, h-bottom+1), ink)
	fill(img, image.Rect(left, top, left+1, h-bottom), ink)
	return img
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// glyphs is a 3x5 pixel font for what the chart writes.
var glyphs = map[rune][5]string{
	'0': {"111", "101", "101", "101", "111"}, '1': {"010", "110", "010", "010", "111"},
	'2': {"111", "001", "111", "100", "111"}, '3': {"111", "001", "111", "001", "111"},
	'4': {"101", "101", "111", "001", "001"}, '5': {"111", "100", "111", "001", "111"},
	'6': {"111", "100", "111", "101", "111"}, '7': {"111", "001", "001", "001", "001"},
	'8': {"111", "101", "111", "101", "111"}, '9': {"111", "101", "111", "001", "111"},
	'k': {"100", "101", "110", "101", "101"}, 'W': {"101", "101", "101", "111", "101"},
	'h': {"100", "100", "111", "101", "101"},
}

// text writes s at (x, y) with 2x2-pixel dots, 8 pixels a character.
func text(img *image.RGBA, s string, x, y int, c color.RGBA) {
	for i, ch := range s {
		g := glyphs[ch]
		for row, bits := range g {
			for col, b := range bits {
				if b == '1' {
					px, py := x+i*8+col*2, y+row*2
					fill(img, image.Rect(px, py, px+2, py+2), c)
				}
			}
		}
	}
}
