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

func TestLeaseTermAndDepositInterest(t *testing.T) {
	for _, tc := range []struct {
		country         string
		person, company int
		interest        bool
	}{{"FR", 3, 6, false}, {"fr", 3, 6, false}, {"DE", 0, 0, true}, {"GB", 0, 0, false}, {"ES", 0, 0, false}, {"XX", 0, 0, false}} {
		r := Of(tc.country)
		if r.Term.Years(false) != tc.person || r.Term.Years(true) != tc.company {
			t.Errorf("%s: term %d/%d years, want %d/%d", tc.country, r.Term.Years(false), r.Term.Years(true), tc.person, tc.company)
		}
		if r.DepositInterest.Owed != tc.interest {
			t.Errorf("%s: deposit interest owed %v", tc.country, r.DepositInterest.Owed)
		}
	}
	if Of("FR").Term.Source != "loi n° 89-462, art. 10" || Of("DE").DepositInterest.Source != "§ 551 Abs. 3 BGB" {
		t.Error("a rule lacks its source")
	}
}
