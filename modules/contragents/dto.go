package contragents

import "time"

// contragentRequest is the body of POST and PUT. Fields a client may not set
// (id, owner, timestamps) are absent, so they are ignored, like any unknown
// field.
type contragentRequest struct {
	Kind    *string   `json:"kind"`
	Roles   *[]string `json:"roles"`
	Name    *string   `json:"name"`
	Email   *string   `json:"email"`
	Phone   *string   `json:"phone"`
	Address *string   `json:"address" validate:"multiline"`
	TaxID   *string   `json:"tax_id"`
	Notes   *string   `json:"notes" validate:"multiline"`
}

func (r *contragentRequest) input() Input {
	return Input{Kind: r.Kind, Roles: r.Roles, Name: r.Name, Email: r.Email, Phone: r.Phone,
		Address: r.Address, TaxID: r.TaxID, Notes: r.Notes}
}

// contragentJSON is a contragent as clients see it.
type contragentJSON struct {
	ID        string   `json:"id"`
	Kind      string   `json:"kind"`
	Roles     []string `json:"roles"`
	Name      string   `json:"name"`
	Email     string   `json:"email"`
	Phone     string   `json:"phone"`
	Address   string   `json:"address"`
	TaxID     string   `json:"tax_id"`
	Notes     string   `json:"notes"`
	CreatedAt string   `json:"created_at"`
	UpdatedAt string   `json:"updated_at"`
}

func toJSON(c *Contragent) contragentJSON {
	return contragentJSON{
		ID: c.ID.String(), Kind: c.Kind, Roles: c.Roles, Name: c.Name, Email: c.Email, Phone: c.Phone,
		Address: c.Address, TaxID: c.TaxID, Notes: c.Notes,
		CreatedAt: timestamp(c.CreatedAt), UpdatedAt: timestamp(c.UpdatedAt),
	}
}

// timestamp formats t as RFC 3339 in UTC, to the second, as every record of
// the property area shows its times.
func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }
