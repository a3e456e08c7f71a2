package banking_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/propman/propman/platform/testkit"
)

var (
	firstNames = []string{"Anna", "Bernd", "Clara", "Dieter", "Eva", "Frank", "Gisela", "Hans", "Ingrid", "Jens", "Karin", "Lukas",
		"Monika", "Norbert", "Olga", "Peter", "Renate", "Stefan", "Tanja", "Uwe", "Vera", "Werner", "Yvonne", "Zoran", "Jürgen"}
	lastNames = []string{"Schmidt", "Müller", "Weiß", "Braun", "Klein", "Wolf", "Neumann", "Schwarz", "Zimmermann", "Krüger",
		"Hofmann", "Hartmann", "Lange", "Werner", "Krause", "Lehmann", "Köhler", "Maier", "Fuchs", "Scholz", "Vogel", "Jäger",
		"Roth", "Beck", "Lorenz", "Baumann", "Franke", "Albrecht", "Schuster", "Simon", "Böhm", "Winter", "Kraus", "Martin",
		"Schumacher", "Krämer", "Vogt", "Stein", "Jung", "Otto", "Sommer", "Groß", "Seidel", "Heinrich", "Brandt", "Haas"}
	// The generated year runs from December 2026 to October 2027: the
	// test's clock starts on 2026-11-22 and walks through it, billing
	// each month before its statement arrives.
	monthNames = []string{"Dezember", "Januar", "Februar", "Maerz", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober"}
)

type unit struct {
	contract, number, name, iban string
	rent                         int64 // cents
}

// typo changes one character of the number's digits: a substitution, a
// deletion or two neighbours swapped.
func typo(r *rand.Rand, number string) string {
	b := []byte(number)
	var digits []int
	for i, c := range b {
		if c >= '0' && c <= '9' {
			digits = append(digits, i)
		}
	}
	i := digits[len(digits)-1-r.IntN(3)]
	switch r.IntN(3) {
	case 0:
		b[i] = byte('0' + (int(b[i]-'0')+1+r.IntN(8))%10)
	case 1:
		b = append(b[:i], b[i+1:]...)
	default:
		b[i], b[i-1] = b[i-1], b[i]
	}
	return string(b)
}

// A generated year of a portfolio (100 units, PROPMAN_BANKING_UNITS for
// more): eleven months of rent, 15 % of the lines messy. At least 95 % of
// the tenants' credit lines post by themselves, none to a wrong contract,
// and the year imported again changes nothing.
func TestGeneratedYear(t *testing.T) {
	units := 100
	if v, err := strconv.Atoi(os.Getenv("PROPMAN_BANKING_UNITS")); err == nil && v > 0 {
		units = v
	}
	if testing.Short() {
		units = 20
	}
	var opts []testkit.Option
	if units > 100 {
		// A month of a large portfolio takes longer than the default
		// request deadline on a busy machine.
		opts = append(opts, testkit.WithConfig("database.timeout", "10m"))
	}
	f := start(t, opts...)
	r := rand.New(rand.NewPCG(46, 2026))
	var us []unit
	used := map[string]bool{}
	for i := range units {
		var name string
		for name == "" || used[name] {
			name = firstNames[r.IntN(len(firstNames))] + " " + lastNames[r.IntN(len(lastNames))]
			if used[name] {
				name = firstNames[r.IntN(len(firstNames))] + " " + lastNames[r.IntN(len(lastNames))] + "-" + lastNames[r.IntN(len(lastNames))]
			}
		}
		used[name] = true
		u := unit{number: fmt.Sprintf("MV-2026-%04d", i+1), name: name, iban: fmt.Sprintf("DE%02d%018d", 10+i%89, 500000+i), rent: int64(45000 + 700*i%90000 + 13*i)}
		u.contract = f.contract(t, u.number, u.name, int(u.rent/100), "2026-12-01")
		u.rent = u.rent / 100 * 100
		us = append(us, u)
	}

	const jobcenter = "DE89300500000001234567"
	var entries []entry
	owner := map[string]string{} // bank reference -> the contract it pays, "" for nobody
	kind := map[string]string{}  // bank reference -> its category
	categories := map[string]int{}
	ref := 0
	add := func(e entry, contract, category string) {
		ref++
		e.Ref = fmt.Sprintf("G%06d", ref)
		entries = append(entries, e)
		owner[e.Ref] = contract
		kind[e.Ref] = category
		categories[category]++
	}
	for m := 1; m <= 11; m++ {
		day := func(d int) string { return monthOf(m).AddDate(0, 0, d-1).Format(time.DateOnly) }
		for _, u := range us {
			clean := entry{Date: day(1 + r.IntN(5)), Cents: u.rent, Name: u.name, IBAN: u.iban, Text: "Miete " + monthNames[m-1] + " " + u.number}
			if m == 1 || r.Float64() >= 0.15 {
				add(clean, u.contract, "clean")
				continue
			}
			e := clean
			switch k := r.IntN(8); k {
			case 0:
				e.Text = "Miete " + monthNames[m-1] + " " + typo(r, u.number)
				add(e, u.contract, "typo")
			case 1:
				// Two months in one line: this month's and last month's
				// were both left for now.
				e.Cents = 2 * u.rent
				e.Text = "Miete " + monthNames[m-1] + " und Nachzahlung " + u.number
				add(e, u.contract, "two months")
			case 2:
				e.Cents = u.rent - int64(100*(1+r.IntN(200)))
				e.Text = "Teilzahlung " + u.number
				add(e, u.contract, "partial")
			case 3:
				e.Cents = u.rent + int64(100*(1+r.IntN(100)))
				add(e, u.contract, "over")
			case 4:
				e.Name, e.IBAN, e.Text = "Jobcenter Musterstadt", jobcenter, "KdU "+u.name+" "+u.number
				add(e, u.contract, "third party")
			case 5:
				e.IBAN, e.Text = fmt.Sprintf("DE%02d%018d", 11+m, 900000+len(entries)), "Miete"
				add(e, u.contract, "new IBAN")
			case 6:
				// Rent collected by direct debit, then returned.
				add(e, u.contract, "debited")
				ret := e
				ret.Date, ret.Cents, ret.Return, ret.Text = day(20), -e.Cents, "AM04", "Ruecklastschrift "+u.number
				add(ret, u.contract, "returned")
			default:
				e.Text = "Dauerauftrag"
				add(e, u.contract, "no reference")
			}
		}
		// Lines that belong to nobody.
		for i := 0; i < units/20+1; i++ {
			add(entry{Date: day(15), Cents: int64(1000 + r.IntN(50000)), Name: "Max Mustermann", IBAN: "DE02300209000106531065", Text: "Rechnung " + strconv.Itoa(r.IntN(9999))}, "", "nobody")
		}
	}
	// One file a month, as a bank sends them, in a format of its own.
	files := make([][]byte, 0, 11)
	for m := 1; m <= 11; m++ {
		var month []entry
		for _, e := range entries {
			if e.Date[:7] == monthOf(m).Format("2006-01") {
				month = append(month, e)
			}
		}
		switch m % 3 {
		case 0:
			files = append(files, camt(2+m%7, "DE89370400440532013000", month))
		case 1:
			files = append(files, mt940(month, 0))
		default:
			files = append(files, camt(8, "DE89370400440532013000", month))
		}
	}
	var took time.Duration
	for m, data := range files {
		f.app.Clock.Set(monthOf(m+1).AddDate(0, 0, 24).Add(10 * time.Hour))
		token, err := f.app.Tokens.Issue(f.user.ID, 0, f.app.Clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		f.user.Token = token
		f.bill(t)
		began := time.Now()
		f.importFile(t, data, nil)
		took += time.Since(began)
	}

	credit, auto, wrong := 0, 0, 0
	left := map[string]int{} // credit lines not posted, by category
	for _, l := range f.lines(t, "") {
		want, known := owner[l.BankReference()]
		if !known {
			t.Fatalf("a line the test did not write: %+v", l)
		}
		if l.Status == "posted" && (l.ContractID == nil || *l.ContractID != want) {
			wrong++
			t.Errorf("line %s (%s, %v) posted to %v, not %q", l.Remittance, l.CounterpartyName, l.Amount, l.ContractID, want)
		}
		if l.Amount > 0 && want != "" {
			credit++
			if l.Status == "posted" {
				auto++
			} else {
				left[kind[l.BankReference()]+" "+l.Status]++
			}
		}
	}
	share := float64(auto) / float64(credit)
	t.Logf("%d units, %d lines (%v), %d tenant credit lines, %d posted by themselves (%.1f %%), %d to a wrong contract; left for a person: %v; imported in %v",
		units, len(entries), categories, credit, auto, 100*share, wrong, left, took.Round(time.Millisecond))
	if share < 0.95 {
		t.Errorf("%.1f %% of the credit lines posted by themselves, want at least 95 %%", 100*share)
	}
	before := f.count(t)
	pays := len(f.payments(t))
	for _, data := range files {
		if r := f.importFile(t, data, nil); r.Duplicates != r.Lines {
			t.Fatalf("re-import %+v", r)
		}
	}
	if f.count(t) != before || len(f.payments(t)) != pays {
		t.Fatalf("re-importing changed %d lines to %d, %d payments to %d", before, f.count(t), pays, len(f.payments(t)))
	}
}

// monthOf is the first day of the generated year's month m (1 to 11).
func monthOf(m int) time.Time { return time.Date(2026, time.Month(11+m), 1, 0, 0, 0, 0, time.UTC) }
