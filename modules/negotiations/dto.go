package negotiations

import (
	"encoding/json"

	"github.com/propman/propman/modules/properties"
)

type roundJSON struct {
	Round             int             `json:"round"`
	Side              string          `json:"side"`
	Terms             json.RawMessage `json:"terms"`
	Message           string          `json:"message"`
	LandlordAccepted  bool            `json:"landlord_accepted"`
	ApplicantAccepted bool            `json:"applicant_accepted"`
	CreatedAt         string          `json:"created_at"`
}

// negotiationJSON is a negotiation as the landlord sees it; the applicant
// sees the same without the record ids of the landlord's side.
type negotiationJSON struct {
	ID            string      `json:"id"`
	PropertyID    string      `json:"property_id,omitempty"`
	ProposalID    string      `json:"proposal_id,omitempty"`
	ApplicationID string      `json:"application_id,omitempty"`
	Status        string      `json:"status"`
	CurrentRound  int         `json:"current_round"`
	AgreedRound   *int        `json:"agreed_round"`
	DeclinedBy    *string     `json:"declined_by"`
	ExpiresAt     string      `json:"expires_at"`
	ContractID    *string     `json:"contract_id,omitempty"`
	TenantID      *string     `json:"tenant_id,omitempty"`
	Rounds        []roundJSON `json:"rounds,omitempty"`
	CreatedAt     string      `json:"created_at"`
	UpdatedAt     string      `json:"updated_at"`
}

func view(n *Negotiation, rs []Round) negotiationJSON {
	v := negotiationJSON{ID: n.ID.String(), PropertyID: n.PropertyID.String(), ProposalID: n.ProposalID.String(),
		ApplicationID: n.ApplicationID.String(), Status: n.Status, CurrentRound: n.CurrentRound, AgreedRound: n.AgreedRound,
		DeclinedBy: n.DeclinedBy, ExpiresAt: properties.Timestamp(n.ExpiresAt),
		CreatedAt: properties.Timestamp(n.CreatedAt), UpdatedAt: properties.Timestamp(n.UpdatedAt)}
	if n.ContractID != nil {
		c, t := n.ContractID.String(), ""
		v.ContractID = &c
		if n.TenantID != nil {
			t = n.TenantID.String()
			v.TenantID = &t
		}
	}
	if rs != nil {
		v.Rounds = make([]roundJSON, len(rs))
		for i, r := range rs {
			v.Rounds[i] = roundJSON{Round: r.Round, Side: r.Side, Terms: json.RawMessage(r.Terms), Message: r.Message,
				LandlordAccepted: r.LandlordAccepted, ApplicantAccepted: r.ApplicantAccepted, CreatedAt: properties.Timestamp(r.CreatedAt)}
		}
	}
	return v
}

func listView(n *Negotiation) negotiationJSON { return view(n, nil) }

// publicView is what the applicant's link shows.
func publicView(n *Negotiation, rs []Round) negotiationJSON {
	v := view(n, rs)
	v.PropertyID, v.ProposalID, v.ApplicationID, v.ContractID, v.TenantID = "", "", "", nil, nil
	return v
}
