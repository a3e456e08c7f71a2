package golden

import "testing"

func TestNormalise(t *testing.T) {
	in := "Vermieter      Lena, user17@example.com  \r\n\r\n\r\n\fSeite 1\n\n"
	want := "Vermieter   Lena, landlord@example.com\n\nSeite 1\n"
	if got := Normalise(in); got != want {
		t.Errorf("Normalise(%q) = %q, want %q", in, got, want)
	}
}
