package printforms

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
	"sync"

	"github.com/propman/propman/modules/translations"
)

// The dictionary keys of the forms' static texts (modules/translations/
// locales/*.json, printforms.*).
const (
	keyAddress        = "printforms.common.address"
	keyDate           = "printforms.common.date"
	keyEmail          = "printforms.common.email"
	keyNo             = "printforms.common.no"
	keyNotSet         = "printforms.common.not_set"
	keyPage           = "printforms.common.page"
	keyPhone          = "printforms.common.phone"
	keyProperty       = "printforms.common.property"
	keySignature      = "printforms.common.signature"
	keyTaxID          = "printforms.common.tax_id"
	keyYes            = "printforms.common.yes"
	keyDeposit        = "printforms.contract.deposit"
	keyEndDate        = "printforms.contract.end_date"
	keyLandlord       = "printforms.contract.landlord"
	keyMainTerms      = "printforms.contract.main_terms"
	keyContractNumber = "printforms.contract.number"
	keyOpenEnded      = "printforms.contract.open_ended"
	keyParties        = "printforms.contract.parties"
	keyPaymentDay     = "printforms.contract.payment_day"
	keyRent           = "printforms.contract.rent"
	keySignatures     = "printforms.contract.signatures"
	keyStartDate      = "printforms.contract.start_date"
	keyTenant         = "printforms.contract.tenant"
	keyTerms          = "printforms.contract.terms"
	keyContractTitle  = "printforms.contract.title"
	keyAmount         = "printforms.receipt.amount"
	keyCharge         = "printforms.receipt.charge"
	keyIssuedOn       = "printforms.receipt.issued_on"
	keyReceiptNumber  = "printforms.receipt.number"
	keyPayer          = "printforms.receipt.payer"
	keyPeriod         = "printforms.receipt.period"
	keyReceiptTitle   = "printforms.receipt.title"
	keyTotal          = "printforms.receipt.total"
	keyVoid           = "printforms.receipt.void"
	keyVoidNote       = "printforms.receipt.void_note"

	keyNotOnFile       = "printforms.common.not_on_file"
	keyPlaceDate       = "printforms.common.place_date"
	keyPreamble        = "printforms.contract.preamble"
	keyRentAtStart     = "printforms.contract.rent_at_start"
	keyRentSchedule    = "printforms.contract.rent_schedule"
	keyRentStep        = "printforms.contract.rent_step"
	keyDepositMonths   = "printforms.contract.deposit_months"
	keyPaymentDayValue = "printforms.contract.payment_day_value"
	keyPaidOn          = "printforms.receipt.paid_on"
	keyMethod          = "printforms.receipt.method"
	keyReference       = "printforms.receipt.reference"
	keyReceiptContract = "printforms.receipt.contract"
	keyBalanceContract = "printforms.receipt.balance_contract"
	keyBalanceProperty = "printforms.receipt.balance_property"
	keyCredit          = "printforms.receipt.credit"
	keyChargeOf        = "printforms.charge.of_contract"
	// A set-off's statement (a receipt of a payment of method set_off).
	keyLeaseTerm             = "printforms.contract.lease_term"
	keyLeaseTermValue        = "printforms.contract.lease_term_value"
	keyQuittanceTitle        = "printforms.quittance.title"
	keyQuittanceNumber       = "printforms.quittance.number"
	keySetOffTitle           = "printforms.setoff.title"
	keySetOffNumber          = "printforms.setoff.number"
	keySetOffTenant          = "printforms.setoff.tenant"
	keySetOffDate            = "printforms.setoff.date"
	keySetOffNote            = "printforms.setoff.note"
	keySetOffBalanceContract = "printforms.setoff.balance_contract"
	keySetOffBalanceProperty = "printforms.setoff.balance_property"
	keyPropertyName          = "printforms.contract.property_name"
	// The stored original of a contract and a translation of it.
	keySignedTitle = "printforms.contract.signed_title"
	keyConvenience = "printforms.contract.convenience"
	keyLivingArea  = "printforms.contract.living_area"
	// The letter that confirms a termination (termination.go).
	keyTerminationTitle    = "printforms.termination.title"
	keyTerminationConfirm  = "printforms.termination.confirm"
	keyTerminationEnds     = "printforms.termination.ends"
	keyTerminationReason   = "printforms.termination.reason"
	keyTerminationHandover = "printforms.termination.handover"
	// Who gave notice, in the termination letter.
	keyTerminationByTenantOn = "printforms.termination.by_tenant_on"
	keyTerminationByTenant   = "printforms.termination.by_tenant"
	keyTerminationByLandlord = "printforms.termination.by_landlord"
	keyTerminationMutual     = "printforms.termination.mutual"
	// The deposit statement's interest (modules/compensations, through
	// Renderer.Text).
	KeyDepositInterest     = "printforms.deposit.interest"
	KeyDepositInterestLine = "printforms.deposit.interest_line"
	KeyDepositNoInterest   = "printforms.deposit.no_interest"
	// keyMethodPrefix + a payment method, keyChargePrefix + a charge kind
	// and keyMeterPrefix + a meter kind are keys too (see methodKeys,
	// chargeKeys).
	keyMethodPrefix = "printforms.receipt.method."
	keyChargePrefix = "printforms.charge."
	keyMeterPrefix  = "printforms.charge.meter."
)

// The payment methods, charge kinds and meter kinds the receipt
// translates.
var (
	methods     = []string{"bank_transfer", "card", "cash", "cheque", "direct_debit", methodSetOff, "other"}
	chargeKinds = []string{"rent", "utility_prepayment", "deposit", "late_fee", "default_interest", "fine", "repair"}
	meterKinds  = []string{"electricity", "gas", "water_cold", "water_hot", "heating", "other"}
)

var labelKeys = []string{
	keyAddress, keyDate, keyEmail, keyNo, keyNotSet, keyPage, keyPhone, keyProperty, keySignature, keyTaxID, keyYes,
	keyDeposit, keyEndDate, keyLandlord, keyMainTerms, keyContractNumber, keyOpenEnded, keyParties, keyPaymentDay,
	keyRent, keySignatures, keyStartDate, keyTenant, keyTerms, keyContractTitle,
	keyAmount, keyCharge, keyIssuedOn, keyReceiptNumber, keyPayer, keyPeriod, keyReceiptTitle, keyTotal, keyVoid, keyVoidNote,
	keyNotOnFile, keyPlaceDate, keyPreamble, keyRentAtStart, keyRentSchedule, keyRentStep, keyDepositMonths,
	keyPaymentDayValue, keyPaidOn, keyMethod, keyReference, keyReceiptContract, keyBalanceContract,
	keyBalanceProperty, keyCredit, keyChargeOf, keyPropertyName,
	keyLeaseTerm, keyLeaseTermValue, keyQuittanceTitle, keyQuittanceNumber, keySetOffTitle, keySetOffNumber, keySetOffTenant, keySetOffDate, keySetOffNote, keySetOffBalanceContract, keySetOffBalanceProperty,
	keySignedTitle, keyConvenience, keyLivingArea,
	keyTerminationTitle, keyTerminationConfirm, keyTerminationEnds, keyTerminationReason, keyTerminationHandover,
	KeyDepositInterest, KeyDepositInterestLine, KeyDepositNoInterest,
	keyTerminationByTenantOn, keyTerminationByTenant, keyTerminationByLandlord, keyTerminationMutual,
}

func init() {
	for _, m := range methods {
		labelKeys = append(labelKeys, keyMethodPrefix+m)
	}
	for _, k := range chargeKinds {
		labelKeys = append(labelKeys, keyChargePrefix+k)
	}
	for _, k := range meterKinds {
		labelKeys = append(labelKeys, keyMeterPrefix+k)
	}
}

// labels are one locale's texts of the keys above.
type labels map[string]string

// get is the text of key; the key itself when no dictionary has it (a test
// catches that).
func (l labels) get(key string) string {
	if s, ok := l[key]; ok {
		return s
	}
	return key
}

// page is "Page {page} of {pages}" filled in.
func (l labels) page(n, total string) string {
	return strings.NewReplacer("{page}", n, "{pages}", total).Replace(l.get(keyPage))
}

// Labels gives each locale's texts, chosen once per locale from the
// translation dictionaries (English per key where a locale lacks one).
type Labels struct {
	dicts *translations.Dictionaries
	cache sync.Map // locale -> labels
}

// NewLabels returns the texts of dicts.
func NewLabels(dicts *translations.Dictionaries) *Labels { return &Labels{dicts: dicts} }

// forLocale returns locale's texts and the keys no dictionary has. locale is a
// language code the caller owns (a reference.Language's), never a
// request's bytes: it is kept as a map key.
func (l *Labels) forLocale(locale string) (labels, []string) {
	if v, ok := l.cache.Load(locale); ok {
		return v.(labels), nil
	}
	found, missing := l.dicts.Select(locale, labelKeys)
	l.cache.Store(strings.Clone(locale), labels(found))
	return found, missing
}

// Version is a digest of every locale's texts: the forms' ETags change
// when a new build changes a label.
func (l *Labels) Version() string {
	h := sha256.New()
	locales := l.dicts.Locales()
	sort.Strings(locales)
	for _, loc := range locales {
		found, _ := l.dicts.Select(loc, labelKeys)
		for _, k := range labelKeys {
			h.Write([]byte(loc + "\x00" + k + "\x00" + found[k] + "\x00"))
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
