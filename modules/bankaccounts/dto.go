package bankaccounts

import "time"

// accountRequest is the body of POST and PUT; fields a client may not set
// (id, timestamps) are absent, so ignored like any unknown field.
type accountRequest struct {
	Holder    *string `json:"holder"`
	IBAN      *string `json:"iban"`
	BIC       *string `json:"bic"`
	BankName  *string `json:"bank_name"`
	Label     *string `json:"label"`
	Currency  *string `json:"currency"`
	IsDefault *bool   `json:"is_default"`
}

// accountJSON is an account as clients see it.
type accountJSON struct {
	ID          string `json:"id"`
	Holder      string `json:"holder"`
	IBAN        string `json:"iban"`
	IBANDisplay string `json:"iban_display"`
	BIC         string `json:"bic"`
	BankName    string `json:"bank_name"`
	Label       string `json:"label"`
	Currency    string `json:"currency"`
	IsDefault   bool   `json:"is_default"`
	CreatedAt   string `json:"created_at"`
	UpdatedAt   string `json:"updated_at"`
}

func toJSON(a *Account) accountJSON {
	return accountJSON{
		ID: a.ID.String(), Holder: a.Holder, IBAN: a.IBAN, IBANDisplay: a.IBANDisplay(), BIC: a.BIC,
		BankName: a.BankName, Label: a.Label, Currency: a.Currency, IsDefault: a.IsDefault,
		CreatedAt: timestamp(a.CreatedAt), UpdatedAt: timestamp(a.UpdatedAt),
	}
}

// timestamp formats t as RFC 3339 in UTC, to the second, as every record
// shows its times.
func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }
