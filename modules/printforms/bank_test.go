package printforms_test

import (
	"net/http"
	"strings"
	"testing"
)

const (
	holder     = "Hausverwaltung Schmidt GmbH"
	ibanDE     = "DE89 3704 0044 0532 0130 00"
	ibanSecond = "DE75 5121 0800 1245 1261 99"
)

func newBankAccount(t *testing.T, f fixture, body map[string]any) string {
	t.Helper()
	var a struct {
		ID string `json:"id"`
	}
	f.app.Post("/api/v1/bank-accounts", f.user.Token, body).Expect(http.StatusCreated).JSON(&a)
	return a.ID
}

// contains fails for each of want the text lacks.
func contains(t *testing.T, what, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

// lacks fails for each of words the text has.
func lacks(t *testing.T, what, text string, words ...string) {
	t.Helper()
	for _, w := range words {
		if strings.Contains(text, w) {
			t.Errorf("%s has %q:\n%s", what, w, text)
		}
	}
}

// The contract prints where the rent is paid: nothing about a bank while
// the workspace has no account; then its default account (holder, IBAN in
// groups of four, BIC, bank) in a clause of its own, in the form's
// language; then the account the contract names instead of the default.
func TestContractPrintsTheBankAccount(t *testing.T) {
	requirePoppler(t)
	f := start(t)
	text := pdfText(t, f.print(f.contract, "locale=de", f.user.Token, nil).Expect(http.StatusOK).Body)
	lacks(t, "the form without an account", text, "Bankverbindung", "IBAN", "Kontoinhaber", "BIC")

	newBankAccount(t, f, map[string]any{"holder": holder, "iban": strings.ToLower(ibanDE), "bic": "cobadeffxxx", "bank_name": "Commerzbank"})
	want := map[string][]string{
		"de": {"Bankverbindung", "Die Miete und alle sonstigen Zahlungen aus diesem Vertrag sind auf folgendes Konto des Vermieters zu überweisen:",
			"Kontoinhaber " + holder, "IBAN " + ibanDE, "BIC COBADEFFXXX", "Kreditinstitut Commerzbank"},
		"fr": {"Coordonnées bancaires", "Le loyer et toutes les sommes dues au titre du présent bail sont payables par virement sur le compte suivant du bailleur :",
			"Titulaire du compte " + holder, "IBAN " + ibanDE, "BIC COBADEFFXXX", "Banque Commerzbank"},
		"en": {"Bank details", "The rent and all other sums due under this agreement are to be paid by bank transfer to the following account of the landlord:",
			"Account holder " + holder, "IBAN " + ibanDE, "BIC COBADEFFXXX", "Bank Commerzbank"},
	}
	for locale, w := range want {
		text := pdfText(t, f.print(f.contract, "locale="+locale, f.user.Token, nil).Expect(http.StatusOK).Body)
		contains(t, locale+" contract", text, w...)
	}

	// The contract names another account (no BIC, no bank): that one is
	// printed, without empty BIC or bank lines.
	second := newBankAccount(t, f, map[string]any{"holder": "Erika Vermieterin", "iban": ibanSecond})
	f.app.Put("/api/v1/contracts/"+f.contract, f.user.Token, map[string]any{"bank_account_id": second}).Expect(http.StatusOK)
	text = pdfText(t, f.print(f.contract, "locale=de", f.user.Token, nil).Expect(http.StatusOK).Body)
	contains(t, "contract naming its account", text, "Kontoinhaber Erika Vermieterin", "IBAN "+ibanSecond)
	lacks(t, "contract naming its account", text, ibanDE, holder, "BIC", "Kreditinstitut")
}

// The French lease prints the workspace's default account in French.
func TestFrenchLeasePrintsTheBankAccount(t *testing.T) {
	requirePoppler(t)
	f := start(t)
	var p struct {
		ID string `json:"id"`
	}
	f.app.Post("/api/v1/properties", f.user.Token, map[string]any{"name": "Appartement 2", "address": "12 rue de la Paix",
		"city": "Paris", "postal_code": "75002", "country_code": "FR"}).Expect(http.StatusCreated).JSON(&p)
	f.property = p.ID
	id := f.newContract(t, f.user.Token, "2026/FR1", "fr", []term{{"MONTHLY_RENT_AMOUNT", 1200}, {"CONTRACT_START_DATE", "2026-12-01"}})
	newBankAccount(t, f, map[string]any{"holder": "SCI Les Tilleuls", "iban": "FR76 3000 6000 0112 3456 7890 189", "bic": "BNPAFRPP"})
	text := pdfText(t, f.print(id, "", f.user.Token, nil).Expect(http.StatusOK).Body)
	contains(t, "French lease", text, "Coordonnées bancaires", "payables par virement sur le compte suivant du bailleur",
		"Titulaire du compte SCI Les Tilleuls", "IBAN FR76 3000 6000 0112 3456 7890 189", "BIC BNPAFRPP")
	lacks(t, "French lease", text, "Banque ")
}

// A receipt of a contract's payment prints the contract's account under
// the figures, in the receipt's language.
func TestReceiptPrintsTheBankAccount(t *testing.T) {
	requirePoppler(t)
	f := start(t)
	f.app.Post("/api/v1/contracts/"+f.contract+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	base := "/api/v1/properties/" + f.property
	f.app.Post(base+"/payments", f.user.Token, map[string]any{"amount": 500, "method": "bank_transfer", "contract_id": f.contract,
		"paid_on": "2026-11-20"}).Expect(http.StatusCreated)
	var l struct {
		Receipts []struct {
			ID string `json:"id"`
		} `json:"receipts"`
	}
	f.app.Get(base+"/receipts", f.user.Token).Expect(http.StatusOK).JSON(&l)
	if len(l.Receipts) != 1 {
		t.Fatalf("receipts: %+v", l)
	}
	path := "/api/v1/print-forms/receipts/" + l.Receipts[0].ID + "?locale="
	lacks(t, "receipt without an account", pdfText(t, f.app.Get(path+"de", f.user.Token).Expect(http.StatusOK).Body),
		"Bankverbindung", "IBAN")

	newBankAccount(t, f, map[string]any{"holder": holder, "iban": ibanDE, "bic": "COBADEFFXXX", "bank_name": "Commerzbank"})
	for locale, w := range map[string][]string{
		"de": {"Bankverbindung", "Kontoinhaber " + holder, "IBAN " + ibanDE, "BIC COBADEFFXXX", "Kreditinstitut Commerzbank"},
		"fr": {"Coordonnées bancaires", "Titulaire du compte " + holder, "IBAN " + ibanDE, "BIC COBADEFFXXX", "Banque Commerzbank"},
		"en": {"Bank details", "Account holder " + holder, "IBAN " + ibanDE, "BIC COBADEFFXXX", "Bank Commerzbank"},
	} {
		contains(t, locale+" receipt", pdfText(t, f.app.Get(path+locale, f.user.Token).Expect(http.StatusOK).Body), w...)
	}
}
