package contracts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/propman/propman/modules/agreements"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Bounds of the terms.
const (
	MaxTerms   = 100
	MaxTextLen = 4000
	maxCodeLen = 100
	// maxInt bounds integer values; PAYMENT_DAY_OF_MONTH is 1-28.
	maxInt = 1_000_000
)

// termRequest is a term as a client sends it.
type termRequest struct {
	Code  *string         `json:"code"`
	Value json.RawMessage `json:"value" validate:"multiline"` // clause text
}

// IsMoney reports whether a float block holds an amount of money: every
// float block but percentages (LATE_FEE_PERCENTAGE).
func IsMoney(code string) bool { return !strings.HasSuffix(code, "_PERCENTAGE") }

// The blocks that set the deposit, first found wins: an amount before a
// number of months, the generic block before a country's (a contract may
// carry both, as a German lease names its Kaution; the generic one is then
// what the landlord typed for this service). A block of another country
// never gets here: checkTerms refuses it.
var (
	depositAmountCodes = []string{CodeDeposit, "UA_SECURITY_PAYMENT_AMOUNT"}
	depositMonthsCodes = []string{CodeDepositMonths, "DE_KAUTION_MONTHS", "FR_DEPOT_GARANTIE_MONTHS", "ES_FIANZA_MONTHS"}
)

// derived is what the rules read from valid terms.
type derived struct {
	start, end period.Date
	rent       *money.Amount
	deposit    *money.Amount
	dueDay     int
}

// checkTerms validates the terms against the blocks (by upper-cased code)
// and the property's country (empty: skip the country rule, the property
// was not found). It returns the normalised terms, what they set, and one
// message per problem.
func checkTerms(in []termRequest, blocks map[string]agreements.Block, country string) ([]Term, derived, []string) {
	var details []string
	d := derived{dueDay: 1}
	if len(in) > MaxTerms {
		return nil, d, []string{fmt.Sprintf("terms: at most %d terms", MaxTerms)}
	}
	out := make([]Term, 0, len(in))
	seen := map[string]bool{}
	values := map[string]json.RawMessage{}
	for i, t := range in {
		at := fmt.Sprintf("terms[%d]", i)
		if t.Code == nil || strings.TrimSpace(*t.Code) == "" {
			details = append(details, at+".code: is required")
			continue
		}
		code := strings.ToUpper(strings.TrimSpace(*t.Code))
		if len(code) > maxCodeLen {
			details = append(details, at+".code: unknown agreement block")
			continue
		}
		b, ok := blocks[code]
		if !ok {
			details = append(details, fmt.Sprintf("%s.code: unknown agreement block %q", at, code))
			continue
		}
		if seen[code] {
			details = append(details, fmt.Sprintf("%s.code: %s is given twice", at, code))
			continue
		}
		seen[code] = true
		if b.CountryCode != nil && country != "" && !strings.EqualFold(*b.CountryCode, country) {
			details = append(details, fmt.Sprintf("%s.code: %s is a block of %s; the property is in %s", at, code, *b.CountryCode, country))
			continue
		}
		v, msg := normalize(code, b.DataType, t.Value)
		if msg != "" {
			details = append(details, fmt.Sprintf("%s.value: %s (%s)", at, msg, code))
			continue
		}
		values[code] = v
		out = append(out, Term{Code: code, Value: v})
	}
	if len(details) > 0 {
		return nil, d, details
	}
	date := func(code string) period.Date {
		if v, ok := values[code]; ok {
			dt, _ := period.ParseJSON(v)
			return dt
		}
		return period.Date{}
	}
	amount := func(code string) *money.Amount {
		if v, ok := values[code]; ok {
			a, _ := money.Parse(v)
			return &a
		}
		return nil
	}
	d.start, d.end = date(CodeStart), date(CodeEnd)
	if !d.start.IsZero() && !d.end.IsZero() && d.end.Before(d.start) {
		details = append(details, fmt.Sprintf("terms: %s must not be before %s (%s)", CodeEnd, CodeStart, d.start))
	}
	d.rent = amount(CodeRent)
	for _, code := range depositAmountCodes {
		if d.deposit = amount(code); d.deposit != nil {
			break
		}
	}
	if d.deposit == nil && d.rent != nil {
		for _, code := range depositMonthsCodes {
			v, ok := values[code]
			if !ok {
				continue
			}
			n, _ := strconv.ParseInt(string(v), 10, 64)
			if n > 0 {
				dep := money.Amount(n) * *d.rent
				if dep > money.Max {
					details = append(details, fmt.Sprintf("terms: %s x %s is more than %s", code, CodeRent, money.Max))
				}
				d.deposit = &dep
			}
			break
		}
	}
	if v, ok := values[CodePaymentDay]; ok {
		n, _ := strconv.Atoi(string(v))
		d.dueDay = n
	}
	return out, d, details
}

// normalize checks raw against the data type and returns its canonical
// JSON, or a message.
func normalize(code, dataType string, raw json.RawMessage) (json.RawMessage, string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, "is required"
	}
	switch dataType {
	case agreements.TypeInt:
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return nil, "must be a JSON integer"
		}
		lo, hi := int64(0), int64(maxInt)
		if code == CodePaymentDay {
			lo, hi = 1, 28
		}
		if n < lo || n > hi {
			return nil, fmt.Sprintf("must be between %d and %d", lo, hi)
		}
		return json.RawMessage(strconv.FormatInt(n, 10)), ""
	case agreements.TypeFloat:
		if IsMoney(code) {
			a, err := money.Parse(raw)
			if err != nil {
				return nil, err.Error()
			}
			if a <= 0 {
				return nil, "must be more than 0"
			}
			return json.RawMessage(a.String()), ""
		}
		if raw[0] == '"' || !json.Valid(raw) {
			return nil, "must be a JSON number"
		}
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, "must be a JSON number"
		}
		if f < 0 || f > maxInt {
			return nil, fmt.Sprintf("must be between 0 and %d", maxInt)
		}
		return json.RawMessage(strconv.FormatFloat(f, 'f', -1, 64)), ""
	case agreements.TypeBool:
		if string(raw) != "true" && string(raw) != "false" {
			return nil, "must be true or false"
		}
		return raw, ""
	case agreements.TypeText:
		var s string
		if raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
			return nil, "must be a JSON string"
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return nil, "must not be empty"
		}
		if utf8.RuneCountInString(s) > MaxTextLen {
			return nil, fmt.Sprintf("must be at most %d characters", MaxTextLen)
		}
		b, _ := json.Marshal(s)
		return b, ""
	case agreements.TypeDate:
		d, err := period.ParseJSON(raw)
		if err != nil {
			return nil, err.Error()
		}
		b, _ := d.MarshalJSON()
		return b, ""
	}
	return nil, fmt.Sprintf("has an unknown data type %q", dataType)
}
