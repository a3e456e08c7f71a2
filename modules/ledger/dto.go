package ledger

import (
	"github.com/google/uuid"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

type balanceJSON struct {
	Currency string       `json:"currency"`
	Debit    money.Amount `json:"debit"`
	Credit   money.Amount `json:"credit"`
	Balance  money.Amount `json:"balance"`
}

type accountJSON struct {
	ID   uuid.UUID `json:"id"`
	Code string    `json:"code"`
	Role string    `json:"role"`
	Type string    `json:"type"`
	Name string    `json:"name"`
	// BankAccountID is the bank account a sub-account of the bank holds.
	BankAccountID *uuid.UUID    `json:"bank_account_id"`
	Balances      []balanceJSON `json:"balances"`
}

func accountOut(a *AccountView) accountJSON {
	out := accountJSON{ID: a.ID, Code: a.Code, Role: a.Role, Type: a.Type, Name: a.Name, BankAccountID: a.BankAccountID,
		Balances: make([]balanceJSON, len(a.Balances))}
	for i, b := range a.Balances {
		out.Balances[i] = balanceJSON{Currency: b.Currency, Debit: b.Debit, Credit: b.Credit, Balance: b.Debit - b.Credit}
	}
	return out
}

type movementJSON struct {
	ID         int64        `json:"id"`
	EntryID    uuid.UUID    `json:"entry_id"`
	Date       period.Date  `json:"date"`
	Kind       string       `json:"kind"`
	Memo       string       `json:"memo"`
	ContractID *uuid.UUID   `json:"contract_id"`
	PropertyID *uuid.UUID   `json:"property_id"`
	Currency   string       `json:"currency"`
	Debit      money.Amount `json:"debit"`
	Credit     money.Amount `json:"credit"`
}

func movementOut(m *Movement) movementJSON {
	return movementJSON{ID: m.ID, EntryID: m.EntryID, Date: m.Date, Kind: m.Kind, Memo: m.Memo, ContractID: m.ContractID,
		PropertyID: m.PropertyID, Currency: m.Currency, Debit: m.Debit, Credit: m.Credit}
}

type lineJSON struct {
	AccountCode string       `json:"account_code"`
	AccountRole string       `json:"account_role"`
	ContractID  *uuid.UUID   `json:"contract_id"`
	PropertyID  *uuid.UUID   `json:"property_id"`
	Debit       money.Amount `json:"debit"`
	Credit      money.Amount `json:"credit"`
}

type entryJSON struct {
	ID          uuid.UUID    `json:"id"`
	Date        period.Date  `json:"date"`
	Kind        string       `json:"kind"`
	SourceTable string       `json:"source_table"`
	SourceID    uuid.UUID    `json:"source_id"`
	Memo        string       `json:"memo"`
	Currency    string       `json:"currency"`
	Total       money.Amount `json:"total"`
	Lines       []lineJSON   `json:"lines"`
}

func entryOut(e *EntryRow) entryJSON {
	out := entryJSON{ID: e.ID, Date: e.Date, Kind: e.Kind, SourceTable: e.SourceTable, SourceID: e.SourceID, Memo: e.Memo,
		Currency: e.Currency, Total: e.Total, Lines: make([]lineJSON, len(e.Lines))}
	for i, l := range e.Lines {
		out.Lines[i] = lineJSON{AccountCode: l.AccountCode, AccountRole: string(roleOfCode(l.AccountCode)), ContractID: l.ContractID,
			PropertyID: l.PropertyID, Debit: l.Debit, Credit: l.Credit}
	}
	return out
}

type trialRowJSON struct {
	AccountID uuid.UUID    `json:"account_id"`
	Code      string       `json:"code"`
	Name      string       `json:"name"`
	Type      string       `json:"type"`
	Currency  *string      `json:"currency"`
	Debit     money.Amount `json:"debit"`
	Credit    money.Amount `json:"credit"`
	Balance   money.Amount `json:"balance"`
}

type trialJSON struct {
	AsOf   period.Date    `json:"as_of"`
	Rows   []trialRowJSON `json:"rows"`
	Totals []balanceJSON  `json:"totals"`
}

func trialOut(asOf period.Date, rows []TrialRow, totals []Total) trialJSON {
	out := trialJSON{AsOf: asOf, Rows: make([]trialRowJSON, len(rows)), Totals: make([]balanceJSON, len(totals))}
	for i, r := range rows {
		var cur *string
		if r.Currency != "" {
			c := r.Currency
			cur = &c
		}
		out.Rows[i] = trialRowJSON{AccountID: r.Account.ID, Code: r.Account.Code, Name: r.Account.Name, Type: r.Account.Type,
			Currency: cur, Debit: r.Debit, Credit: r.Credit, Balance: r.Debit - r.Credit}
	}
	for i, t := range totals {
		out.Totals[i] = balanceJSON{Currency: t.Currency, Debit: t.Debit, Credit: t.Credit, Balance: t.Debit - t.Credit}
	}
	return out
}
