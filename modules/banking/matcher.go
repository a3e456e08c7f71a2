package banking

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/google/uuid"
	"golang.org/x/text/unicode/norm"

	"github.com/propman/propman/platform/money"
)

// The reason codes of a decision, in the order the matcher finds them.
const (
	ReasonReference      = "reference"          // the contract number is in the remittance text
	ReasonReferenceTypo  = "reference_typo"     // a number one edit away from the contract's
	ReasonReceipt        = "receipt_number"     // the number of a receipt of the contract's
	ReasonPayerIBAN      = "payer_iban"         // the IBAN paid this contract before (confirmed)
	ReasonPayerName      = "payer_name"         // the tenant's name is the payer's or in the text
	ReasonAmountCharge   = "amount_open_charge" // the amount is what one open charge still owes
	ReasonAmountOldest   = "amount_oldest_charges"
	ReasonSplit          = "split_by_payer" // one payer's line split over their contracts
	ReasonConflict       = "conflicting_signals"
	ReasonSeveral        = "several_candidates"
	ReasonWeakSignal     = "weak_signal"
	ReasonNoSignal       = "no_signal"
	ReasonFutureDate     = "future_date"
	ReasonCurrency       = "other_currency"
	ReasonReturnedDebit  = "returned_debit"
	ReasonReturnNotFound = "returned_payment_not_found"
	ReasonDebit          = "debit"
	ReasonSupplier       = "supplier_name" // a debit's payee is one of the workspace's suppliers
	ReasonManual         = "manual_match"
	ReasonIgnored        = "ignored"
)

// candidate is a contract a line may pay, as the matcher knows it.
type candidate struct {
	ID         uuid.UUID
	PropertyID uuid.UUID
	TenantID   uuid.UUID
	Number     string
	// key is the number's letters and digits, upper case.
	key string
	// nameTokens are the tenant's name's words, folded.
	nameTokens []string
}

// signals are what the matcher found of one line, per contract.
type signals struct {
	exact, typo, iban, name []uuid.UUID
	// byReceipt are the exact ones found by a receipt's number only.
	byReceipt map[uuid.UUID]bool
}

// receiptPattern is a receipt's number (YYYY-NNNNNN, modules/receipts) as
// a tenant may write it: with a hyphen, a slash, a space or nothing.
var receiptPattern = regexp.MustCompile(`(?:^|[^0-9])((?:19|20)[0-9]{2})[-/ ]?([0-9]{6})(?:[^0-9]|$)`)

// receiptNumbers are the receipt numbers in the text, as receipts write
// them.
func receiptNumbers(text string) []string {
	var out []string
	for _, m := range receiptPattern.FindAllStringSubmatch(text, 5) {
		out = append(out, m[1]+"-"+m[2])
	}
	return out
}

// fold upper-cases s, drops accents and maps German umlauts to their
// two-letter spelling (a bank's text is often ASCII only).
func fold(s string) string {
	s = strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue", "Ä", "AE", "Ö", "OE", "Ü", "UE", "ß", "SS").Replace(s)
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}

// words splits folded text at everything but letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(fold(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// numberKey is a contract number's letters and digits.
func numberKey(s string) string {
	return strings.Join(words(s), "")
}

// refTokens are the remittance text's candidate numbers: each
// whitespace-separated token and each run of two or three neighbours
// ("MV 17", "MV 2026 0105"), reduced to letters and digits.
func refTokens(text string) []string {
	raw := strings.Fields(fold(text))
	var out []string
	for i, t := range raw {
		if k := numberKey(t); k != "" {
			out = append(out, k)
			// "MIETE/MV-17" or "VERTRAG:MV17": the parts after a separator.
			for _, part := range strings.FieldsFunc(t, func(r rune) bool { return r == '/' || r == ':' || r == ',' || r == ';' }) {
				if p := numberKey(part); p != "" && p != k {
					out = append(out, p)
				}
			}
		}
		if i+1 < len(raw) {
			if k := numberKey(t + raw[i+1]); k != "" {
				out = append(out, k)
			}
		}
		if i+2 < len(raw) {
			if k := numberKey(t + raw[i+1] + raw[i+2]); k != "" {
				out = append(out, k)
			}
		}
	}
	return out
}

func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }

// within1 reports whether a and b are at most one edit apart
// (substitution, insertion, deletion or two neighbours swapped).
func within1(a, b string) bool {
	if a == b {
		return true
	}
	la, lb := len(a), len(b)
	switch {
	case la == lb:
		diff := -1
		for i := 0; i < la; i++ {
			if a[i] != b[i] {
				if diff >= 0 {
					// A swap of neighbours counts as one.
					return diff == i-1 && a[diff] == b[i] && a[i] == b[diff] && a[i+1:] == b[i+1:]
				}
				diff = i
			}
		}
		return true
	case la == lb+1:
		return oneInsert(b, a)
	case lb == la+1:
		return oneInsert(a, b)
	}
	return false
}

func oneInsert(short, long string) bool {
	i := 0
	for i < len(short) && short[i] == long[i] {
		i++
	}
	return short[i:] == long[i+1:]
}

// minTypoKey is the shortest number a typo is tolerated in: shorter ones
// ("W1") are one edit from too many others.
const minTypoKey = 4

// index finds the contracts a line's numbers and words name without
// comparing the line with every contract: a statement of 10,000 lines
// against 1,000 contracts would be ten million comparisons.
type index struct {
	cands []*candidate
	// byKey are the contracts by their number's key; byWord by the first
	// of their tenant's name words.
	byKey, byWord map[string][]int
}

func newIndex(cands []*candidate) *index {
	x := &index{cands: cands, byKey: map[string][]int{}, byWord: map[string][]int{}}
	for i, c := range cands {
		if c.key != "" {
			x.byKey[c.key] = append(x.byKey[c.key], i)
		}
		if len(c.nameTokens) > 0 {
			x.byWord[c.nameTokens[0]] = append(x.byWord[c.nameTokens[0]], i)
		}
	}
	return x
}

// ids are the contracts at the positions, in the contracts' order (the
// order of the signals: the first is a suggestion's candidate).
func (x *index) ids(pos []int) []uuid.UUID {
	slices.Sort(pos)
	out := make([]uuid.UUID, 0, len(pos))
	for i, p := range pos {
		if i == 0 || p != pos[i-1] {
			out = append(out, x.cands[p].ID)
		}
	}
	return out
}

// findRefs fills s.exact and s.typo from the text.
func findRefs(s *signals, x *index, text string) {
	toks := refTokens(text)
	var pos []int
	for _, t := range toks {
		pos = append(pos, x.byKey[t]...)
	}
	if len(pos) > 0 {
		s.exact = x.ids(pos)
		return
	}
	for _, c := range x.cands {
		if len(c.key) < minTypoKey || !hasDigit(c.key) {
			continue
		}
		for _, t := range toks {
			if hasDigit(t) && within1(t, c.key) {
				s.typo = append(s.typo, c.ID)
				break
			}
		}
	}
}

// findNames fills s.name: contracts whose tenant's every name word is
// among the payer's name's and the text's words.
func findNames(s *signals, x *index, name, text string) {
	have := map[string]bool{}
	for _, w := range words(name + " " + text) {
		have[w] = true
	}
	var pos []int
	for w := range have {
		for _, p := range x.byWord[w] {
			all := true
			for _, tok := range x.cands[p].nameTokens {
				all = all && have[tok]
			}
			if all {
				pos = append(pos, p)
			}
		}
	}
	if len(pos) > 0 {
		s.name = x.ids(pos)
	}
}

// nameTokens are the words of a tenant's name worth comparing (two
// letters or more).
func nameTokens(name string) []string {
	var out []string
	for _, w := range words(name) {
		if len(w) >= 2 {
			out = append(out, w)
		}
	}
	return out
}

// amountReason says whether amount is what one open charge still owes or
// what the oldest open charges owe together ("" when neither).
func amountReason(amount money.Amount, owed []money.Amount) string {
	var sum money.Amount
	for i, o := range owed {
		if o == amount {
			return ReasonAmountCharge
		}
		sum += o
		if i > 0 && sum == amount {
			return ReasonAmountOldest
		}
		if sum > amount {
			break
		}
	}
	return ""
}

func contains(ids []uuid.UUID, id uuid.UUID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
