package law

import "testing"

func TestFines(t *testing.T) {
	for country, want := range map[string]bool{"DE": false, "de": false, "FR": false, " fr ": false, "GB": false,
		"ES": true, "UA": true, "NL": true, "": true} {
		r := Of(country)
		if r.Fines != want {
			t.Errorf("%q: fines %v, want %v", country, r.Fines, want)
		}
		if !r.Fines && r.FinesSource == "" {
			t.Errorf("%q: a rule without its source", country)
		}
	}
}

func TestRentIndex(t *testing.T) {
	if r := Of("DE").Index; !r.Required || r.Quarterly || r.Source == "" {
		t.Errorf("DE %+v", r)
	}
	if r := Of("FR").Index; !r.Required || !r.Quarterly || r.Source == "" {
		t.Errorf("FR %+v", r)
	}
	if r := Of("NL").Index; r.Required {
		t.Errorf("NL %+v", r)
	}
}
