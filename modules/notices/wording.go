package notices

import (
	"fmt"
	"strings"
	"sync"

	"github.com/propman/propman/modules/translations"
)

// wording is what a notice says in one language, made from the catalogue's
// notices.* texts (wordingOf). The %s verbs are filled in the order each
// field's comment gives; amounts, dates and periods are
// already written the locale's way (printforms.StyleOf), so a mail and
// the receipt it carries agree on every figure.
type wording struct {
	// Greeting: the tenant's name.
	Greeting string
	// Closing precedes the landlord's name.
	Closing string
	// AsWritten: the first paragraph's case is the wording's own (German:
	// see letter.opening); else it begins with a capital. A rule of the
	// language (asWritten), not a word.
	AsWritten bool
	// Contract: the contract's number, the property.
	Contract string
	// Total: the amount.
	Total string

	// RentCallSubject: the due date, the contract's number.
	RentCallSubject string
	// RentCallIntro: the due date.
	RentCallIntro string
	RentCallOutro string

	// ReminderSubject by step of the dunning ladder: the oldest due
	// date, the number.
	ReminderSubject [3]string
	// ReminderIntro: the oldest due date.
	ReminderIntro string
	ReminderOutro string
	// FinalOutro closes the last step's mail; FinalTitle and FinalDemand
	// (the total) are its letter, attached as a PDF (in France the mise en
	// demeure de payer).
	FinalOutro  string
	FinalTitle  string
	FinalDemand string

	// ReceiptSubject: the receipt's number.
	ReceiptSubject string
	// ReceiptBody: the amount, the day paid, the receipt's number.
	ReceiptBody string
	// QuittanceSubject and QuittanceBody (as ReceiptBody) are the receipt
	// of a payment that settled its month's rent and charges (France:
	// quittance de loyer; any other payment gets a reçu).
	QuittanceSubject string
	QuittanceBody    string
	// SetOffSubject: the statement's number. SetOffBody: the amount, the
	// day, the number. A set-off (a credited compensation, the deposit
	// applied) is no payment received, and is never thanked for as one.
	SetOffSubject string
	SetOffBody    string

	// EndSubject: the end date.
	EndSubject string
	// EndBody: the end date.
	EndBody string

	// RentChangeSubject: the first day of the new rent.
	RentChangeSubject string
	// RentChangeBody: the first day, the new rent, the rent until then.
	RentChangeBody string
	// RentChangeIndex states the index the change follows, as the law
	// asks (§ 557b Abs. 3 BGB: the change of the index; France: the IRL
	// of reference, old and new): the index, then the old value and its
	// period and the new value and its period (in the language's order,
	// see indexArgs), and the change in percent.
	RentChangeIndex string
}

// asWritten are the languages whose first paragraph keeps the wording's
// own case.
var asWritten = map[string]bool{"de": true}

// wordings caches wordingOf per catalogue locale.
var wordings sync.Map // locale -> wording

// wordingOf is locale's wording from the catalogue, English when the
// catalogue does not speak it.
func wordingOf(locale string) wording {
	if !translations.Has(locale) {
		locale = "en"
	}
	if w, ok := wordings.Load(locale); ok {
		return w.(wording)
	}
	// f is the catalogue's text of notices.<key> as a format whose verbs
	// take args, named as its {placeholders}, in the order given.
	f := func(key string, args ...string) string {
		text := translations.Say(locale, "notices."+key)
		if len(args) == 0 {
			return text
		}
		pairs := make([]string, 0, 2*len(args))
		for i, a := range args {
			pairs = append(pairs, "{"+a+"}", fmt.Sprintf("%%[%d]s", i+1))
		}
		return strings.NewReplacer(pairs...).Replace(strings.ReplaceAll(text, "%", "%%"))
	}
	w := wording{
		Greeting:  f("greeting", "name"),
		Closing:   f("closing"),
		AsWritten: asWritten[locale],
		Contract:  f("contract", "number", "property"),
		Total:     f("total", "amount"),

		RentCallSubject: f("rent_call.subject", "due", "number"),
		RentCallIntro:   f("rent_call.intro", "due"),
		RentCallOutro:   f("rent_call.outro"),

		ReminderSubject: [3]string{
			f("reminder.subject_1", "due", "number"),
			f("reminder.subject_2", "due", "number"),
			f("reminder.subject_3", "due", "number"),
		},
		ReminderIntro: f("reminder.intro", "due"),
		ReminderOutro: f("reminder.outro"),
		FinalOutro:    f("final.outro"),
		FinalTitle:    f("final.title"),
		FinalDemand:   f("final.demand", "total"),

		ReceiptSubject:   f("receipt.subject", "number"),
		ReceiptBody:      f("receipt.body", "amount", "day", "number"),
		SetOffSubject:    f("set_off.subject", "number"),
		SetOffBody:       f("set_off.body", "amount", "day", "number"),
		QuittanceSubject: f("quittance.subject", "number"),
		QuittanceBody:    f("quittance.body", "amount", "day", "number"),

		EndSubject: f("end.subject", "end"),
		EndBody:    f("end.body", "end"),

		RentChangeSubject: f("rent_change.subject", "first"),
		RentChangeBody:    f("rent_change.body", "first", "rent", "before"),
		RentChangeIndex:   f("rent_change.index", "index", "old_value", "old_period", "new_value", "new_period", "change"),
	}
	wordings.Store(locale, w)
	return w
}
