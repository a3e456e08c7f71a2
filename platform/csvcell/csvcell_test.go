package csvcell_test

import (
	"bytes"
	"encoding/csv"
	"slices"
	"testing"

	"github.com/propman/propman/platform/csvcell"
)

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"=1+1", "'=1+1"},
		{"=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"},
		{"+49 30 1234567", "'+49 30 1234567"},
		{"-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"},
		{"@SUM(A1:A2)", "'@SUM(A1:A2)"},
		{"\tTab", "'\tTab"},
		{"\rCR", "'\rCR"},
		{"\x00NUL", "'\x00NUL"},
		{"-", "'-"},
		{"+", "'+"},
		{"-1e5", "'-1e5"},
		{"-.5", "'-.5"},
		{"-5.", "'-5."},
		{"-1.2.3", "'-1.2.3"},
		{"-1,234.50", "'-1,234.50"},
		{"=12", "'=12"},
		// Plain numbers stay numbers.
		{"-12.50", "-12.50"},
		{"-0,5", "-0,5"},
		{"+3", "+3"},
		{"-7", "-7"},
		// Nothing else changes.
		{"", ""},
		{"Anna Müller", "Anna Müller"},
		{"12.50", "12.50"},
		{" =1+1", " =1+1"},
		{"'quoted", "'quoted"},
		{"a=b", "a=b"},
		{"\nLF", "\nLF"},
	}
	for _, tt := range tests {
		if got := csvcell.Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// What Writer writes reads back, through any CSV reader, as the escaped
// cells.
func TestWriterEscapesEveryCell(t *testing.T) {
	rows := [][]string{
		{"name", "amount"},
		{"=cmd|' /C calc'!A0", "-12.50"},
		{"+1+1", "+3"},
		{"-1+1", "-0,5"},
		{"@A1", "12"},
		{"\t=1", "x"},
		{"\r=1", "line\nbreak"},
	}
	var buf bytes.Buffer
	w := csvcell.NewWriter(&buf)
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		t.Fatal(err)
	}
	got, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	want := [][]string{
		{"name", "amount"},
		{"'=cmd|' /C calc'!A0", "-12.50"},
		{"'+1+1", "+3"},
		{"'-1+1", "-0,5"},
		{"'@A1", "12"},
		{"'\t=1", "x"},
		{"'\r=1", "line\nbreak"},
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("row %d: %q, want %q", i, got[i], want[i])
		}
	}
	if rows[1][0] != "=cmd|' /C calc'!A0" {
		t.Error("Write changed the caller's record")
	}
}
