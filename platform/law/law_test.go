package law

import (
	"testing"
	"time"
)

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

// § 556 Abs. 3 BGB: the statement of a calendar year is due by the end of
// the following year; France sets no exclusion deadline.
func TestOperatingCostsDeadline(t *testing.T) {
	day := func(s string) time.Time {
		d, err := time.Parse("2006-01-02", s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, c := range []struct{ end, want string }{
		{"2025-12-31", "2026-12-31"}, {"2024-02-29", "2025-02-28"}, {"2025-06-30", "2026-06-30"}, {"2025-06-15", "2026-06-15"},
	} {
		got, ok := Of("de").OperatingCosts.Deadline(day(c.end))
		if !ok || got.Format("2006-01-02") != c.want {
			t.Errorf("period ending %s: deadline %s %v, want %s", c.end, got.Format("2006-01-02"), ok, c.want)
		}
	}
	if _, ok := Of("FR").OperatingCosts.Deadline(day("2025-12-31")); ok {
		t.Error("France: no exclusion deadline")
	}
}
